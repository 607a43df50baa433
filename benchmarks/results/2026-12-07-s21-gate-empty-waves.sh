#!/usr/bin/env bash
# Run 409, prepared 2026-12-07 (twenty-first session): run 408's launch gate (never run yet) and the
# compaction baseline's empty waves (kernels/render.cu RT_WAVE_EMPTY_EXIT, shipped on; variant
# "empty_waves_work" is the old wave).
# Counted: cornell at 4 spp launches 20 waves, 15 of them empty, 0.161 of 0.832 ms in run 407's
# per-wave events (10.7 us each). An empty wave was 4,224 contended warp fetch-adds (about 2.5 us
# at one L2 atomic a clock on one word) and 6.5 MB of `counts` read and written (L2, about 1-2 us),
# besides its launch. Predicted with the early exit: 3-5 us an empty wave, so cornell's baseline
# 0.06-0.11 ms faster (0.77 -> 0.66-0.71 ms), and SFQ's 1x1 lead on cornell down from 1.12x to
# 0.98-1.06x; spheres100 (12 waves, fewer empty) 0.02-0.05 ms faster of 2.7, SFQ 1.10-1.11x. Images
# and ray counts unchanged (the A/B checks both). Gate: compaction on cornell the same alone and
# with a busy Python thread (run 407: 0.77 alone, 110-120 ms crowded); SFQ's time unchanged.
# In order: the A/B tool (per-wave times, both builds, both scenes); the busy-thread experiment for
# compaction (both builds) and SFQ, gate off and on; `gq bench render` (G-LFQ, SFQ) gate on then
# off; the renderer's GPU tests with the gate on. About 4-5 minutes warm. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-s21-gate-empty-waves.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
mkdir -p "$OUT/x"
timeout 170 python3 tools/gpu_render_ab.py "$OUT/x" --variant empty_waves_work --no-cpu-check 2>&1 \
  | grep -v -i warn | tail -12 | tee "$OUT/x/ab.log"
timeout 170 python3 - <<'PY' 2>&1 | grep -v -i warn | tee "$OUT/x/gil.log"
import os, statistics, threading
from raytrace.build import kernel_variant
from raytrace.cuda_render import render_cuda
from raytrace.render import RenderOptions, SceneArrays
from raytrace.scene import load_scene
from queues_cuda.queues import QUEUES
for scene in ("cornell", "spheres100"):
    arrays = SceneArrays.of(load_scene(f"scenes/{scene}.toml"), 1920, 1080, "bvh")
    for gate in ("0", "1"):
        os.environ["GQ_LAUNCH_GATE"] = gate
        for name, defs, extra in (("compaction", (), dict(renderer="compaction")),
                                  ("compaction-old", ("RT_WAVE_EMPTY_EXIT=0",), dict(renderer="compaction")),
                                  ("sfq-1x1", (), dict(queue="sfq", tiles=(1, 1)))):
            if scene == "spheres100" and gate == "0":
                continue
            o = RenderOptions(width=1920, height=1080, spp=4, backend="cuda", **extra)
            k = QUEUES[o.queue]
            with kernel_variant(defs):
                def med(n=9):
                    render_cuda(arrays, o, k)
                    return round(statistics.median(render_cuda(arrays, o, k).seconds for _ in range(n)) * 1e3, 3)
                stop = []
                def busy():
                    while not stop:
                        sum(range(2000))
                alone = [med(), med()]
                crowded = []
                if scene == "cornell":
                    th = threading.Thread(target=busy); th.start()
                    crowded = [med(), med()]
                    stop.append(1); th.join()
                print(scene, "gate", gate, f"{name:15s}", "alone", alone, "busy thread", crowded, "alone", med(),
                      flush=True)
PY
for gate in 1 0; do
  GQ_LAUNCH_GATE=$gate timeout 100 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml \
    --width 1920 --height 1080 --spp 4 --backend cuda --accel bvh --queue glfq,sfq --json "$OUT/x/bench-gate$gate.json" \
    2>&1 | grep -v -i warn | tail -7 | tee "$OUT/x/bench-gate$gate.log"
done
GQ_LAUNCH_GATE=1 timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace/test_render_gpu.py \
  tests/raytrace/test_compaction_variants.py -k "not draws and not one_sample" 2>&1 | tail -3 | tee "$OUT/x/gpu-tests.log"
