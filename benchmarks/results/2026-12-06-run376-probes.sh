#!/usr/bin/env bash
# Run 376: the BFS kernels' launch bounds. Trees: head = the commit given (its bfs.cu has
# __launch_bounds__(256, kBfsMinBlocks) with kBfsMinBlocks = 2); lb0 = head with (256) alone, as
# before; lb1 = head with kBfsMinBlocks = 1. Every queue kind's queue BFS and compaction timed by
# …-run376-bfs-time.py in rounds lb0-head-lb1-lb1-head-lb0, then the suite's bfs stage (the BFS GPU
# tests and tools/gpu_bfs_bench.py) on head.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-06-run376-probes.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py
rm -rf /tmp/t && mkdir -p /tmp/t "$OUT/x"
for tree in lb0 lb1; do
  mkdir -p /tmp/t/$tree && cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$tree/
done
sed -i 's/__launch_bounds__(256, kBfsMinBlocks)$/__launch_bounds__(256)/' /tmp/t/lb0/sssp_demo/kernels/bfs.cu
sed -i 's/^constexpr int kBfsMinBlocks = 2;$/constexpr int kBfsMinBlocks = 1;/' /tmp/t/lb1/sssp_demo/kernels/bfs.cu
grep -c "__launch_bounds__(256)$" /tmp/t/lb0/sssp_demo/kernels/bfs.cu; grep -c "kBfsMinBlocks = 1;" /tmp/t/lb1/sssp_demo/kernels/bfs.cu
tree_of() { [ "$1" = head ] && echo "$R" || echo "/tmp/t/$1"; }
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
t0=$(date +%s)
for tree in head lb0 lb1; do
  T=$(tree_of $tree)
  for q in sfq glfq gwfq ymc; do
    ( cd "$T" && QUEUES=$q PYTHONPATH=$T python3 "$P" build > "$OUT/x/build-$tree-$q.log" 2>&1 ) &
  done
done
wait
echo "graphs and builds: $(( $(date +%s) - t0 )) s"; tail -2 "$OUT/x/gen.log"; cat "$OUT"/x/build-*.log | grep -v -i warn | sort | uniq -c | head -14
for tree in lb0 head lb1 lb1 head lb0; do
  T=$(tree_of $tree)
  PYTHONPATH=$T timeout 120 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  echo "timed $tree at $(( $(date +%s) - t0 )) s"
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"
GQ_STAGES=bfs bash tools/gpu-suite.sh 2>&1 | grep -E "rc=" | tail -4
tar -xzf "$OUT/0-suite.tgz" -O bfs-bench.log 2>/dev/null | tail -30
tar -czf "$OUT/run376.tgz" -C "$OUT" x && rm -rf "$OUT/x"
