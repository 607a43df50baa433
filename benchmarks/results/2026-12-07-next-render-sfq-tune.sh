#!/usr/bin/env bash
# Run 399, 2026-12-07 (eighteenth session). Run 398: SFQ's blocking tile form at 1.08x / 1.11x
# compaction on spheres100 / cornell (`gq bench render`, H100), and in the probe up to 2 blocks a
# round did best at 2x2 (2.47 / 0.72 ms against compaction's 2.79 / 0.86). Now SFQ's tile queues are
# also built holding their blocks (SfqView::filled_word), as G-LFQ's, so that no launch of enqueues
# seeds them (0.022-0.029 ms in run 398, 3 % of cornell). Predicted: cornell 0.72 -> 0.70 ms.
# Probe rows on both scenes: glfq 2x2, SFQ 2x2 at up to 1, 2, 3, 4 blocks a round, 1x1 at 2, 2 seeded
# by enqueues (as run 398), 2 with reserve 0. Then the GPU tests of the tile queues' layout and
# fill. $OUT/t.tgz after every step. About 4 minutes warm. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-render-sfq-tune.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
mkdir -p "$OUT/x"
pack() { tar -czf "$OUT/t.tgz" -C "$OUT" x; }
ROWS="glfq 2x2|sfq 2x2|sfq 2x2, up to 1 a round|sfq 2x2, up to 2 a round|sfq 2x2, up to 3 a round|sfq 1x1, up to 2 a round|sfq 2x2, up to 2, seeded|sfq 2x2, up to 2, reserve 0"
for s in spheres100 cornell; do
  timeout 240 python3 tools/gpu_render_probe.py "$OUT/x/probe-$s" --scene scenes/$s.toml --rows "$ROWS" 2>&1 \
    | grep -v -i warn | tee "$OUT/x/probe-$s.log"
  pack
done
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace -k "sfq or tile_queues" 2>&1 | tail -3 | tee "$OUT/x/gpu-tests.log"
pack
