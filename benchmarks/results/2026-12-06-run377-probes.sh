#!/usr/bin/env bash
# Run 377: SFQ's one-lap view with 32-bit cells. Trees: head = the commit given; w64 = head with
# 2026-12-06-run377-one-lap-cells.patch reversed (the one-lap view on SFQ's 64-bit slot words, as
# in 94d38df). SFQ's queue BFS and compaction timed by …-run376-bfs-time.py (QUEUES=sfq) in rounds
# w64-head-head-w64; then the one-lap view's GPU check (tests/queues_cuda/test_gpu_queues.py
# -k one_lap) and the suite's bfs stage (the BFS GPU tests and tools/gpu_bfs_bench.py) on head.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-06-run377-probes.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 QUEUES=sfq
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py
rm -rf /tmp/t && mkdir -p /tmp/t/w64 "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/w64/
(cd /tmp/t/w64 && patch -s -R -p1 < "$R/benchmarks/results/2026-12-06-run377-one-lap-cells.patch") && grep -c "cell(" /tmp/t/w64/queues_cuda/include/gq/sfq.cuh
tree_of() { [ "$1" = head ] && echo "$R" || echo "/tmp/t/$1"; }
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
t0=$(date +%s)
for tree in head w64; do
  T=$(tree_of $tree)
  ( PYTHONPATH=$T python3 "$P" build > "$OUT/x/build-$tree.log" 2>&1 ) &
done
wait
echo "graphs and builds: $(( $(date +%s) - t0 )) s"; cat "$OUT"/x/build-*.log | grep -v -i warn
for tree in w64 head head w64; do
  T=$(tree_of $tree)
  PYTHONPATH=$T timeout 90 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  echo "timed $tree at $(( $(date +%s) - t0 )) s"
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"
GQ_RESULTS_DIR=$OUT/x PYTHONPATH=$R timeout 200 python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k one_lap 2>&1 | grep -E "^\[|passed|failed|Error" | cut -c1-400 | tee "$OUT/x/one-lap-tests.log"
tar -czf "$OUT/run377.tgz" -C "$OUT" x
GQ_STAGES=bfs bash tools/gpu-suite.sh 2>&1 | grep -E "rc=" | tail -4
tar -xzf "$OUT/0-suite.tgz" -O bfs-bench.log 2>/dev/null | tail -24 | head -21
rm -rf "$OUT/x"
