#!/usr/bin/env bash
# As it ran, from the session's scratch runs/p373/ (run.sh; its helpers are committed beside it as
# 2026-12-06-run373-bfs-ncu-one.py and -summary.py; runs/p373/base was `git archive 5e4f42d
# queues_cuda sssp_demo gq raytrace`). Three calls on one H100 (the H200 kind named; an H100 came):
#   1. GQ_COMMIT=55d23d9 bash runs/p373/run.sh, carry ["runs/p373"]: its graph generation lacked
#      PYTHONPATH (fixed below) so nothing was timed, but its last line ran the BFS GPU tests on
#      55d23d9: 29 passed;
#   2. SKIP_TESTS=1 GQ_COMMIT=55d23d9 bash runs/p373/run.sh: the A/B and ncu;
#   3. GQ_COMMIT=55d23d9 GQ_DIRTY=0 GQ_STAGES=bfs bash tools/gpu-suite.sh: the BFS tests and bench.
# Run 373: the queue BFS with SFQ's one-lap view (55d23d9: bfs_queue 4,424 -> 2,536 SASS
# instructions; compaction's 2,008) against 5e4f42d (runs/p373/base, a git archive), timed by run
# 289's probe in both trees, rounds base-new-new-base; ncu's stall reasons of both kernels of both
# trees on road-2M at one block an SM; the BFS GPU tests on the new tree.
set -u
C=${GQ_COMMIT:?}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=$PWD; B=$R/runs/p373/base; P=$R/benchmarks/results/2026-12-02-h200-run289-bfs-time.py
mkdir -p "$OUT/x"
( time PYTHONPATH=$R python3 "$P" gen /tmp/g ) 2>&1 | tail -6
tree_of() { [ "$1" = base ] && echo "$B" || echo "$R"; }
for tree in base new new base; do
  T=$(tree_of $tree)
  GQ_CACHE_DIR=/tmp/cache-$tree PYTHONPATH=$T timeout 150 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  echo "timed $tree"
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for tree in base new; do
  T=$(tree_of $tree)
  for alg in queue compaction; do
    GQ_CACHE_DIR=/tmp/cache-$tree PYTHONPATH=$T timeout 150 "$NCU" --kernel-name regex:'^bfs_(queue|compaction)$' \
      --launch-count 1 --clock-control none --section WarpStateStats \
      --metrics smsp__inst_executed.sum,smsp__warps_active.sum,smsp__issue_active.sum,gpu__time_duration.sum \
      --csv --page raw --print-units base python3 runs/p373/ncu_one.py "$T" /tmp/g/road-2M.npz $alg \
      > "$OUT/x/ncu-$tree-$alg.csv" 2> "$OUT/x/ncu-$tree-$alg.err"
    echo "ncu $tree $alg rc=$?"
  done
done
python3 runs/p373/summary.py "$OUT/x"
[ -n "${SKIP_TESTS:-}" ] || GQ_CACHE_DIR=/tmp/cache-new PYTHONPATH=$R timeout 200 python3 -m pytest -q -m gpu tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -3 | tee "$OUT/x/bfs-gpu-tests.log"
tar -czf "$OUT/p373.tgz" -C "$OUT" x && rm -rf "$OUT/x"
