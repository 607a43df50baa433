#!/usr/bin/env bash
# run 269: G-LFQ's and G-WFQ's balanced kernel at 2^16-2^18 threads, 072d559 (wave_faa's fence in the
# leader's branch) against the working tree (58c95f7 + notes: the fence in every lane before it),
# three alternating rounds each, 9 runs a point: is run 268's lower median at 2^18 (18.6 against
# 21.0 G ops/s, five runs 13.6-22.5) the change or the point's noise?
set -u
R=$PWD
export PYTHONUNBUFFERED=1
mkdir -p /tmp/old && tar xf runs/t072.tar -C /tmp/old
for round in 1 2 3; do
  for tree in old new; do
    d=$R; [ $tree = old ] && d=/tmp/old
    (cd $d && GQ_CACHE_DIR=/tmp/gq-cache-$tree PYTHONPATH=$d timeout 150 python3 -m gq bench queues --kernel balanced \
      --threads 2^16..2^18 --queue glfq,gwfq --runs 9 --json $OUT/$tree-$round.json --chart $OUT/$tree-$round.png 2>&1 \
      | grep -E "^(glfq|gwfq) " | sed "s/^/$tree $round /")
  done
done
