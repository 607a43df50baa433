#!/usr/bin/env bash
# Run 399, 2026-12-07 (eighteenth session). Run 398: SFQ's blocking tile form at 1.08x / 1.11x
# compaction on spheres100 / cornell (`gq bench render`, H100), and in the probe up to 2 blocks a
# round did best at 2x2 (2.47 / 0.72 ms against compaction's 2.79 / 0.86), now SFQ's default. SFQ's
# tile queues are also built holding their blocks now (SfqView::filled_word), as G-LFQ's, so no
# launch of enqueues seeds them (0.022-0.029 ms in run 398, 3 % of cornell). Predicted: cornell
# 0.72 -> 0.70 ms; `gq bench render` SFQ about 1.13x / 1.2x compaction.
# One call, in order of what matters: the suite's render GPU tests (every queue: the tile worker's
# dispatch and trace_round are shared) and `gq bench render` (bvh, every queue) for README's table;
# then tools/gpu_render_probe.py on both scenes (SFQ 2x2 at up to 1, 2 (default) and 3 blocks a
# round, 5 blocks an SM, 1x1, seeded by enqueues as in run 398); last, on an H200
# only, the suite's BFS stage (issue 6 asks for an H200's figures). $OUT/t.tgz and the suites'
# 0-suite.tgz after every step. About 6 minutes warm. Carry [".whl"] (trimesh).
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-render-sfq-tune.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 GQ_CACHE_DIR=/tmp/gq-cache
card=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$card"
GQ_STAGES="render-tests render-bench" GQ_RENDER_ACCELS=bvh GQ_RENDER_BENCH_S=240 bash tools/gpu-suite.sh 2>&1 | grep -v PASSED | tail -30
export PYTHONPATH=$PWD
mkdir -p "$OUT/x"
pack() { tar -czf "$OUT/t.tgz" -C "$OUT" x; }
ROWS="sfq 2x2|sfq 2x2, up to 1 a round|sfq 2x2, up to 3 a round|sfq 2x2, 5 blocks an SM|sfq 1x1|sfq 2x2, seeded"
for s in spheres100 cornell; do
  timeout 200 python3 tools/gpu_render_probe.py "$OUT/x/probe-$s" --scene scenes/$s.toml --rows "$ROWS" 2>&1 \
    | grep -v -i warn | tee "$OUT/x/probe-$s.log"
  pack
done
# On an H200 the BFS stage too (issue 6 asks for an H200's figures), into a suite directory of its own.
case "$card" in *H200*) OUT=$OUT/bfs GQ_STAGES=bfs bash tools/gpu-suite.sh 2>&1 | grep -v PASSED | tail -25 ;; esac
