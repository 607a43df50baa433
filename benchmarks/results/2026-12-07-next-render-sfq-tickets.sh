#!/usr/bin/env bash
# Run 398, 2026-12-07 (eighteenth session). The tile renderer's SFQ form through SFQ's blocking
# interface (rt/tile_queues_blocking.h): a worker holds up to kRoundBlocks dequeue tickets on its
# home tile's queue and looks at their slots each round, its requeues a fetch-add and a store each,
# the queues made large enough that no ticket leaves lap 0 (the one-lap view, as the queue BFS's);
# idle workers steal a ticket from one other tile a round. Before: SFQ's non-waiting claim, a CAS
# loop on Head or Tail, 0.17 G rays/s on spheres100 (H200, run 375).
# Counted: a round's queue work is one fetch-add for the requeues (wave-aggregated) and their
# stores, a Head/Tail read, one fetch-add for new tickets and a slot read: about four round trips,
# against a G-LFQ round's chain of some two dozen dependent accesses (23 us of a warp's time in
# run 161's profile). Predicted: G-LFQ's queue phase (16 % of spheres100's warp time, 9 % of
# cornell's, run 371) down to a few per cent; so SFQ at up to 1.1x G-LFQ on spheres100, if its
# tail (idle 11 % / 22 %) is no worse.
# Steps: the renderer's GPU tests for sfq and the tile queues' layout; tools/gpu_render_probe.py on
# both scenes (rows: glfq 2x2 and SFQ at 2x2, 1x1, 4x4, up to 2 and 8 blocks a round, reserve 0);
# then `gq bench render` with glfq and sfq on both scenes (bvh). $OUT/r.tgz after every step.
# About 5 minutes warm. Needs trimesh: carry [".whl"] (`pip download trimesh --no-deps -d .whl`).
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-render-sfq-tickets.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
mkdir -p "$OUT/x"
pack() { tar -czf "$OUT/r.tgz" -C "$OUT" x; }
timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace -k "sfq or tile_queues" 2>&1 | tail -4 | tee "$OUT/x/gpu-tests.log"
pack
ROWS="glfq 2x2|sfq 2x2|sfq 1x1|sfq 4x4|sfq 2x2, up to 2 a round|sfq 2x2, up to 8 a round|sfq 2x2, reserve 0"
for s in spheres100 cornell; do
  timeout 240 python3 tools/gpu_render_probe.py "$OUT/x/probe-$s" --scene scenes/$s.toml --rows "$ROWS" 2>&1 \
    | grep -v -i warn | tee "$OUT/x/probe-$s.log"
  pack
done
timeout 200 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml --width 1920 \
  --height 1080 --spp 4 --backend cuda --accel bvh --queue glfq,sfq --json "$OUT/x/bench.json" \
  --chart "$OUT/x/bench.png" 2>&1 | grep -v -i warn | tail -12 | tee "$OUT/x/bench.log"
pack
