#!/usr/bin/env bash
# run 280: SFQ's lap-0 enqueue without a turn read, and the queue BFS's relaxed SFQ (new; L0, R: one
# half each), against 86826ae ("old": runs/old.tar = git archive 86826ae queues_cuda sssp_demo tools)
set -u
export PYTHONPATH=$PWD
G=/tmp/g; T=/tmp/abt; R=$PWD
mkdir -p /tmp/old/old && tar -xf runs/old.tar -C /tmp/old/old
python3 runs/ab_trees.py $T 280 >/dev/null
python3 runs/bfs_probe.py gen $G 2>&1 | tail -4
echo "gen done $SECONDS s"
for r in 1 2; do
  for t in /tmp/old/old $T/new $T/L0 $T/R; do
    (cd $t && PYTHONPATH=$t timeout 120 python3 $R/runs/bfs_probe.py time $t $(basename $t) $G $OUT/bfs.jsonl 2 >/dev/null 2>&1)
  done
  echo "rep $r done $SECONDS s"
done
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py > $OUT/bfs-tests.log 2>&1; tail -2 $OUT/bfs-tests.log
timeout 120 python3 -m gq queues check --queue sfq --backend cuda --histories 300 --fifo-tokens 20000000 --capacity 1,3,64,1048576 --json $OUT/sfq-check.json > $OUT/sfq-check.log 2>&1; echo "sfq check rc=$?"; tail -4 $OUT/sfq-check.log
timeout 60 python3 -m gq queues check --queue sfq --backend cuda --histories 50 --fifo-tokens 200000 --capacity 1,2,3 --fault sfq-every-lap-fresh > $OUT/sfq-fault.log 2>&1; echo "fault check rc=$? (1 = caught)"; tail -3 $OUT/sfq-fault.log
echo "all done $SECONDS s"
# (then the same summary table as run 281's)
