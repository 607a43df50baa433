#!/usr/bin/env bash
# What the device calls of runs 333-340 ran (2026-12-06; each on an H100 80GB HBM3, though an H200 was asked
# for in run 333), from the repository root of a checkout with these beside it (carried, not committed):
#   runs/ab/old   git archive 5b6881e;  runs/ab/head  git archive 4e415fb;  runs/ab/mode  head + 2026-12-06-next-gwfq-aq-mode.patch
#   runs/ab/<variant>  2026-12-06-run334-340-bfs-variants.py runs/ab/head runs/ab
#   runs/bfs_time.py   2026-12-02-h200-run289-bfs-time.py with "delaunay-21" taken out of GRAPHS (and the generator's pool
#                      sized by len(GRAPHS))
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
R=$PWD
ab() {  # ab VARIANT DIR REP: G-WFQ, both kernels at 2^16..2^18, 5 runs a point
  local v=$1 d=$2 rep=$3
  ( cd $d && timeout 120 python3 -m gq bench queues --queue gwfq --kernel split --producers 25,75 \
      --threads 2^16..2^18 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/$v-split-$rep.json --chart $OUT/c.png > $OUT/$v-split-$rep.log 2>&1 )
  ( cd $d && timeout 60 python3 -m gq bench queues --queue gwfq --kernel balanced \
      --threads 2^16..2^18 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/$v-bal-$rep.json --chart $OUT/c.png > $OUT/$v-bal-$rep.log 2>&1 )
}
bfs() {  # bfs TREE...: kernel ms of SFQ's queue form and of compaction, 1 and 2 blocks an SM, median of 5, depths against scipy
  for t in "$@"; do
    ( cd runs/ab/$t && PYTHONPATH=$R/runs/ab/$t timeout 150 python3 $R/runs/bfs_time.py time $R/runs/ab/$t $t /tmp/graphs $OUT/bfs.jsonl )
  done
}
case "${RUN:?}" in
  333)  # the aq_mode A/B (its BFS half failed: the graph generator lacked PYTHONPATH)
    ab old runs/ab/old 1; ab head runs/ab/head 1; ab mode runs/ab/mode 1
    ab mode runs/ab/mode 2; ab head runs/ab/head 2; ab old runs/ab/old 2
    ab head runs/ab/head 3; ab mode runs/ab/mode 3
    ( cd runs/ab/head && timeout 60 python3 -m gq bench queues --queue glfq --kernel balanced --threads 2^17..2^18 --runs 5 \
        --json $OUT/glfq-bal.json --chart $OUT/c.png > $OUT/glfq-bal.log 2>&1 ) ;;
  334)  # the proof of aq_mode (working tree = mode; the graphs generated on the CPU meanwhile), then the L1 test
    ( PYTHONPATH=$R python3 runs/bfs_time.py gen /tmp/graphs & )
    GQ_COMMIT=4e415fb+aq-mode GQ_DIRTY=1 GQ_HISTORY_QUEUES=gwfq GQ_STAGES="histories wfq bench-tests" bash tools/gpu-suite.sh
    while pgrep -f "bfs_time.py gen" > /dev/null; do sleep 1; done
    for rep in 1 2; do bfs head cg; done ;;
  335) PYTHONPATH=$R python3 runs/bfs_time.py gen /tmp/graphs; for rep in 1 2; do bfs head rank low; done ;;
  336) PYTHONPATH=$R python3 runs/bfs_time.py gen /tmp/graphs; for rep in 1 2; do bfs head rank r1 r3 r13; done ;;
  337) PYTHONPATH=$R python3 runs/bfs_time.py gen /tmp/graphs; for rep in 1 2; do bfs head r13 r4 r5; done ;;
  338) PYTHONPATH=$R python3 runs/bfs_time.py gen /tmp/graphs; for rep in 1 2; do bfs head r4 r5 r6 r7 w w2; done ;;
  339) GQ_COMMIT=3ffde41 GQ_DIRTY=0 GQ_BENCH_QUEUES=gwfq,glfq GQ_STAGES=queue-bench GQ_QUEUE_BENCH_S=240 bash tools/gpu-suite.sh ;;
  340) PYTHONPATH=$R python3 runs/bfs_time.py gen /tmp/graphs; bfs r4 r5 r8 ;;
esac
