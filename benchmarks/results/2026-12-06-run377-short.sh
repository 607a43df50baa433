#!/usr/bin/env bash
# Run 377, shortened for the session's last device seconds: the proof first, then the A/B.
# Builds every kind's BFS module of head and SFQ's of w64 (as …-run377-probes.sh says) beside the
# graphs' generation; the BFS GPU tests and the one-lap view's GPU check on head; then SFQ's queue
# BFS and compaction in rounds w64-head-head-w64. $OUT/run377.tgz is rewritten after every step.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-06-run377-short.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py
rm -rf /tmp/t && mkdir -p /tmp/t/w64 "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/w64/
(cd /tmp/t/w64 && patch -s -R -p1 < "$R/benchmarks/results/2026-12-06-run377-one-lap-cells.patch")
pack() { tar -czf "$OUT/run377.tgz" -C "$OUT" x; }
t0=$(date +%s)
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for q in sfq glfq gwfq ymc; do ( QUEUES=$q PYTHONPATH=$R python3 "$P" build > "$OUT/x/build-head-$q.log" 2>&1 ) & done
( QUEUES=sfq PYTHONPATH=/tmp/t/w64 python3 "$P" build > "$OUT/x/build-w64-sfq.log" 2>&1 ) &
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
PYTHONPATH=$R timeout 90 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-tests.log"
GQ_RESULTS_DIR=$OUT/x PYTHONPATH=$R timeout 90 python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k one_lap 2>&1 | grep -E "^\[|passed|failed|Error" | cut -c1-300 > "$OUT/x/one-lap-tests.log"
tail -1 "$OUT/x/one-lap-tests.log"; pack
wait; echo "tests and graphs: $(( $(date +%s) - t0 )) s"
for tree in w64 head head w64; do
  T=$R; [ $tree = w64 ] && T=/tmp/t/w64
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
