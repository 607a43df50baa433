#!/usr/bin/env bash
# Prepared in the tenth session of 2026-12-06, when the device time ran out (run 377 could not
# start: four starts found no machine): SFQ's one-lap view with 32-bit cells,
# 2026-12-06-next-sfq-one-lap-cells.patch (committed as 90eae77/484af70, taken out unmeasured).
# On lap 0 a slot's turn is 0 or 1, so the view folds it into the value: a cell is 0 until its
# enqueuer stores value + 1 (2^32 - 1 refused), over the first half of the same zeroed slot words.
# Runs 334-340 put the 64-bit slot's width at 0.58 ms of road-2M's level chain and 1.9 ms of
# road-24M's (an H100): the patch is predicted to take most of that off SFQ's queue BFS.
# CPU-tested (tests/queues_cuda/test_cpu_queues.py::test_sfq_one_lap_view with the patch: its
# histories and FIFO runs pass, and fail with the +1 code dropped or the take's wait dropped;
# tests/sssp_demo/test_bfs.py passes). Every module but SFQ's BFS compiles to the same PTX.
# Trees: head = the commit given (the one-lap view on SFQ's 64-bit slot words); cells = head with
# the patch. Builds beside the graphs' generation; SFQ's queue BFS and compaction in rounds
# head-cells-cells-head (…-run376-bfs-time.py); then the BFS GPU tests on cells and the one-lap
# view's GPU check (test_gpu_queues.py -k one_lap, new in this session, never run on a GPU) on
# cells and on head. The A/B comes first (the eleventh session's order) so a short call decides.
# $OUT/next-one-lap-cells.tgz is rewritten after every step. About 4 minutes warm, any card.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-06-next-one-lap-cells.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py; X=/tmp/t/cells
rm -rf /tmp/t && mkdir -p $X "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml $X/
(cd $X && patch -s -p1 < "$R/benchmarks/results/2026-12-06-next-sfq-one-lap-cells.patch") || echo "PATCH FAILED"
pack() { tar -czf "$OUT/next-one-lap-cells.tgz" -C "$OUT" x; }
t0=$(date +%s)
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for q in sfq glfq gwfq ymc; do ( cd $X && QUEUES=$q PYTHONPATH=$X python3 "$P" build > "$OUT/x/build-cells-$q.log" 2>&1 ) & done
( QUEUES=sfq PYTHONPATH=$R python3 "$P" build > "$OUT/x/build-head-sfq.log" 2>&1 ) &
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for tree in head cells cells head; do
  T=$R; [ $tree = cells ] && T=$X
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd $X && PYTHONPATH=$X timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-tests-cells.log")
for tree in cells head; do
  T=$R; [ $tree = cells ] && T=$X
  (cd $T && GQ_RESULTS_DIR=$OUT/x/$tree PYTHONPATH=$T timeout 120 python3 -m pytest -q -s -m gpu -p no:cacheprovider \
    tests/queues_cuda/test_gpu_queues.py -k one_lap 2>&1 | grep -E "^\[|passed|failed|Error" | cut -c1-300 > "$OUT/x/one-lap-tests-$tree.log")
  echo "one-lap view's GPU check, $tree: $(tail -1 "$OUT/x/one-lap-tests-$tree.log")"; pack
done
