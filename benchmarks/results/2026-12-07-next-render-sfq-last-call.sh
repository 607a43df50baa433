#!/usr/bin/env bash
# Run 400 in brief, 2026-12-07 (nineteenth session): seven calls found no machine, leaving about 250 s
# of device time, so only the first of run 400's steps (2026-12-07-next-render-sfq-steal-slot.sh):
# the renderer's GPU tests for SFQ and the tile queues (the steal slot of 910decd and RT_DRAW_EARLY=1
# against compaction, bit for bit), then, while time lasts, the probe's SFQ rows on spheres100.
# device run: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-render-sfq-last-call.sh (carry .whl)
set -u
export GQ_COMMIT=${GQ_COMMIT:?say the commit} GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p "$OUT/x"
timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace/test_render_gpu.py -k "sfq" 2>&1 | tail -4 \
  | tee "$OUT/x/gpu-tests.log"
timeout 60 python3 tools/gpu_render_probe.py "$OUT/x/probe-spheres100" --repeat 3 \
  --rows "sfq 2x2|sfq 2x2, draws first" 2>&1 | grep -v -i warn | tee "$OUT/x/probe-spheres100.log"
