#!/usr/bin/env bash
# Run 403, 2026-12-07 (twentieth session). SFQ now renders one tile (113f6d2): 1.12x / 1.14x the
# compaction baseline on an H100 (run 402), short of issue 3's 1.2x. A host replay of the persistent
# rounds over counted path segments (4,224 workers, one FIFO queue) put cornell's idle time in the
# render's last fifth, when the last rounds, each a block's pixels through all their samples, end at
# different times; with those rounds cut to one sample each (RT_TAIL_SAMPLES=1, rt/tile_queues.h)
# the replay's idle share went 13 -> 7 % and its makespan 3 % shorter (spheres100 unchanged), and up
# to 3 or 4 blocks a round shortened both scenes' makespans 2-5 % (the queue's cost a round assumed
# 15 % of a round's tracing). Predicted on the GPU: cornell 2-3 % faster with one sample at the end,
# spheres100 within its spread; up to 4 a round, unknown at 1x1 (at 2x2, run 398: 5 % slower).
# In order: on an H200 (none came in runs 377-402) the suite's BFS stage, for issue 6; the GPU tests
# of the new switch and of SFQ; the probe's rows at 1x1; SFQ's profile at its default tiling (1x1,
# never profiled); `gq bench render` (on an H200 the suite's, every queue). About 5 minutes warm,
# ordered so that a call cut short keeps the first steps. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-render-tail-samples.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "$CARD"
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
mkdir -p "$OUT/x"
pack() { tar -czf "$OUT/s.tgz" -C "$OUT" x; }
if echo "$CARD" | grep -q H200; then
  GQ_STAGES="bfs" timeout 240 bash tools/gpu-suite.sh 2>&1 | tail -12 | tee "$OUT/x/suite-bfs.log"
  pack
fi
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace/test_render_gpu.py -k "one_sample or sfq" 2>&1 \
  | tail -3 | tee "$OUT/x/gpu-tests.log"
pack
ROWS="sfq 1x1|sfq 1x1, up to 3 a round|sfq 1x1, up to 4 a round|sfq 1x1, one sample at the end|sfq 1x1, one sample at the end x2"
ROWS="$ROWS|sfq 1x1, up to 4, one sample at the end|glfq 2x2|glfq 2x2, one sample at the end"
for s in cornell spheres100; do
  timeout 200 python3 tools/gpu_render_probe.py "$OUT/x/probe-$s" --scene scenes/$s.toml --repeat 7 --rows "$ROWS" 2>&1 \
    | grep -v -i warn | tee "$OUT/x/probe-$s.log"
  pack
done
timeout 120 python3 tools/gpu_tile_profile.py "$OUT/x/profile" --queue sfq 2>&1 | grep -v -i warn | tail -20 \
  | tee "$OUT/x/profile.log"
pack
if echo "$CARD" | grep -q H200; then
  GQ_STAGES="render-bench" GQ_RENDER_ACCELS=bvh timeout 200 bash tools/gpu-suite.sh 2>&1 | tail -14 | tee "$OUT/x/suite-render.log"
else
  timeout 120 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml --width 1920 \
    --height 1080 --spp 4 --backend cuda --accel bvh --queue glfq,sfq --json "$OUT/x/bench.json" \
    --chart "$OUT/x/bench.png" 2>&1 | grep -v -i warn | tail -8 | tee "$OUT/x/bench.log"
fi
pack
