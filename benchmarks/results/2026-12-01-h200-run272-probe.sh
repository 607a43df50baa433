#!/usr/bin/env bash
# run 272: 97186f7: the hardware counters per successful operation (ncu) of G-LFQ, G-WFQ and the
# ideal ring in the balanced kernel at 2^18 threads, for the code of runs 267-271 (run 251's were
# before them).
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache PYTHONPATH=$PWD
GQ_COMMIT=$(cat .head-sha) GQ_DIRTY=0 timeout 280 python3 -m gq bench queues --kernel balanced --queue glfq,gwfq,ideal \
  --threads 2^18 --runs 1 --duration 0.02 --warmup 0.005 --hw-counters --json $OUT/queue-ncu.json 2>&1 | grep -v "^\[" | tail -30
