#!/usr/bin/env bash
# Run 408, prepared 2026-12-07 (twentieth session, which had no device time left to run it): the
# launch gate (kernels/render.cu rt_launch_gate, raytrace/cuda_render.py _LaunchGate, only under
# GQ_LAUNCH_GATE=1) holds the stream while the host enqueues a render's launches. Run 407: with
# another Python thread busy, cornell's compaction baseline measured 110-120 ms against 0.77 alone;
# `gq bench render` (run 406) had it at 14.8-16.1 G rays/s (0.88-0.96 ms).
# Predicted with the gate: compaction on cornell 0.76-0.80 ms alone and with the busy thread alike
# (its 15 empty waves stay: 0.16 ms of it in run 407's per-wave events); SFQ's times unchanged
# (three launches, the last one the whole render); `gq bench render` cornell's baseline near 18 G
# rays/s, so SFQ near 1.12x on both scenes. In order: run 407's experiment for compaction and SFQ,
# without the gate and with it; `gq bench render` (G-LFQ, SFQ) with the gate and without, in turn;
# the renderer's GPU tests of the shipped builds with the gate (every render goes through it).
# If all holds, make the gate the default. About 3 minutes warm. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-launch-gate.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
mkdir -p "$OUT/x"
timeout 150 python3 - <<'PY' 2>&1 | grep -v -i warn | tee "$OUT/x/gil.log"
import os, statistics, threading
from raytrace.cuda_render import render_cuda
from raytrace.render import RenderOptions, SceneArrays
from raytrace.scene import load_scene
from queues_cuda.queues import QUEUES
arrays = SceneArrays.of(load_scene("scenes/cornell.toml"), 1920, 1080, "bvh")
for gate in ("0", "1"):
    os.environ["GQ_LAUNCH_GATE"] = gate
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
        print("gate", gate, o.renderer, o.queue if o.renderer == "queue" else "", "alone", alone, "busy thread",
              crowded, "alone", med(), flush=True)
PY
for gate in 1 0; do
  GQ_LAUNCH_GATE=$gate timeout 100 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml \
    --width 1920 --height 1080 --spp 4 --backend cuda --accel bvh --queue glfq,sfq --json "$OUT/x/bench-gate$gate.json" \
    2>&1 | grep -v -i warn | tail -7 | tee "$OUT/x/bench-gate$gate.log"
done
GQ_LAUNCH_GATE=1 timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace/test_render_gpu.py \
  -k "not draws and not one_sample" 2>&1 | tail -3 | tee "$OUT/x/gpu-tests.log"
