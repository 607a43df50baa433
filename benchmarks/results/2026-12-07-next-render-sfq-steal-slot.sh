#!/usr/bin/env bash
# Run 400, 2026-12-07 (eighteenth session). Runs 398-399's SFQ tile form could in principle stall: a
# worker whose slots all held tickets that would never fill (home tickets past the last element, or
# a steal's ticket drawn by fetch-add past another tile's Tail) could not steal, and a tile with no
# worker of its own might then keep an element nobody holds a ticket for (the idle budget would end
# the render with an error). Now a steal has a slot of its own and claims its ticket by one CAS from
# Head below Tail, so it is always filled, and every idle worker can always steal. In order: the
# renderer's GPU tests for SFQ and the tile queues; the probe's SFQ rows (2x2, 1x1, and
# RT_DRAW_EARLY=1 at either: the draws sent before the requeues, rt/tile_queues_blocking.h;
# predicted 3-5 % off SFQ's time if its queue phase is some 8 %); where SFQ's time goes
# (tools/gpu_tile_profile.py: the blocking form now clocks the same phases, rt/tile_profile.h);
# last `gq bench render` glfq, sfq. Predicted: as run 399 (SFQ 1.12x / 1.17x), within 2 %; the
# profile's queue phase a few per cent of SFQ's warps' time against G-LFQ's 16 % / 9 % (run 371).
# About 5 minutes warm, the steps ordered so that a call cut short keeps the first. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-render-sfq-steal-slot.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
mkdir -p "$OUT/x"
pack() { tar -czf "$OUT/s.tgz" -C "$OUT" x; }
# On an H200 (the card issues 3 and 6 ask their figures on; none came in runs 377-399), the BFS
# stage and the render bench of every queue come first, through the suite (about 3 minutes more).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  GQ_STAGES="bfs render-bench" GQ_RENDER_ACCELS=bvh timeout 320 bash tools/gpu-suite.sh 2>&1 | tail -14
fi
timeout 180 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace -k "sfq or tile_queues" 2>&1 | tail -3 | tee "$OUT/x/gpu-tests.log"
pack
for s in spheres100 cornell; do
  timeout 170 python3 tools/gpu_render_probe.py "$OUT/x/probe-$s" --scene scenes/$s.toml \
    --rows "sfq 2x2|sfq 1x1|sfq 2x2, draws first|sfq 1x1, draws first" 2>&1 | grep -v -i warn | tee "$OUT/x/probe-$s.log"
  pack
done
timeout 150 python3 tools/gpu_tile_profile.py "$OUT/x/profile" --queue sfq 2>&1 | grep -v -i warn | tail -20 \
  | tee "$OUT/x/profile.log"
pack
# (on an H200 the suite's render bench above stands for this one)
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || timeout 120 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml --width 1920 \
  --height 1080 --spp 4 --backend cuda --accel bvh --queue glfq,sfq --json "$OUT/x/bench.json" \
  --chart "$OUT/x/bench.png" 2>&1 | grep -v -i warn | tail -8 | tee "$OUT/x/bench.log"
pack
