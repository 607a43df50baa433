#!/usr/bin/env bash
# Run 408, 2026-12-07 (twentieth session): the launch gate (kernels/render.cu rt_launch_gate,
# raytrace/cuda_render.py _LaunchGate) holds the stream while the host enqueues a render's launches.
# Run 407: with another Python thread busy, cornell's compaction baseline measured 110-120 ms
# against 0.77 alone; `gq bench render` (run 406) had it at 14.8-16.1 G rays/s (0.88-0.96 ms).
# Predicted: compaction on cornell 0.76-0.80 ms alone and with the busy thread alike (the empty
# waves stay: 0.16 ms of it in run 407's per-wave events); SFQ's times unchanged (three launches,
# the last one the whole render); `gq bench render` cornell's baseline near 18 G rays/s and SFQ
# near 1.12x on both scenes. In order: the GIL experiment of run 407 again, for compaction and SFQ;
# the suite's render bench; the renderer's GPU tests of the shipped builds (every render goes
# through the gate). About 2 minutes warm. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-launch-gate.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
timeout 120 python3 - <<'PY' 2>&1 | grep -v -i warn
import statistics, threading
from raytrace.cuda_render import render_cuda
from raytrace.render import RenderOptions, SceneArrays
from raytrace.scene import load_scene
from queues_cuda.queues import QUEUES
arrays = SceneArrays.of(load_scene("scenes/cornell.toml"), 1920, 1080, "bvh")
for extra in (dict(renderer="compaction"), dict(queue="sfq", tiles=(1, 1))):
    o = RenderOptions(width=1920, height=1080, spp=4, backend="cuda", **extra)
    k = QUEUES[o.queue]
    def med(n=9):
        render_cuda(arrays, o, k)
        return round(statistics.median(render_cuda(arrays, o, k).seconds for _ in range(n)) * 1e3, 3)
    stop = []
    def busy():
        while not stop:
            sum(range(2000))
    alone = [med(), med()]
    th = threading.Thread(target=busy); th.start()
    crowded = [med(), med()]
    stop.append(1); th.join()
    print(o.renderer, o.queue if o.renderer == "queue" else "", "alone", alone, "busy thread", crowded, "alone", med(), flush=True)
PY
GQ_STAGES="render-bench" GQ_RENDER_ACCELS=bvh timeout 150 bash tools/gpu-suite.sh 2>&1 | tail -14
timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace/test_render_gpu.py -k "not draws and not one_sample" 2>&1 | tail -3
