#!/usr/bin/env bash
# run 271: b565119 (GQ_ATOMICS_GLOBAL: the queue benchmark, checks, renderer and BFS spell their atomics .global):
# the proof (1,000 histories each of G-LFQ, G-WFQ, SFQ and YMC, checked after the call; ring-stress;
# the wave stress as built on the device; warp, FIFO, render, benchmark and BFS tests) and the
# measurements (G-LFQ, G-WFQ, ideal; render bench; BFS bench), as run 268 did for 58c95f7.
set -u
R=$PWD
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache PYTHONPATH=$R
mkdir -p $OUT/x
GQ_HISTORY_QUEUES=glfq,gwfq,sfq,ymc timeout 100 python3 tools/gpu_record_histories.py $OUT/x 2>&1 | tail -4
python3 -c 'import json; from queues_cuda.provenance import provenance; print(json.dumps(provenance()))' > $OUT/x/recorded-provenance.json
GQ_RESULTS_DIR=$OUT/x timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/queues_cuda/test_ring_stress_gpu.py > $OUT/x/ring-stress.log 2>&1; tail -1 $OUT/x/ring-stress.log
STRESS_DEFINES=GQ_STRESS_BLIND_WAVE STRESS_CASES=18:25:8 timeout 60 python3 runs/stress_probe.py device-built 2>&1 | grep -E "SUMMARY|rror" | cut -c1-200
GQ_COMMIT=$(cat $R/.head-sha) GQ_DIRTY=0 GQ_STAGES="warp fifo render-tests bench-tests queue-bench render-bench bfs" \
  GQ_FIFO_QUEUES="glfq or gwfq" GQ_BENCH_QUEUES=glfq,gwfq,ideal GQ_RENDER_ACCELS=bvh GQ_QUEUE_BENCH_S=140 GQ_BFS_S=110 \
  bash tools/gpu-suite.sh 2>&1 | grep -v "^\[" | grep -v "PASSED" | tail -45
