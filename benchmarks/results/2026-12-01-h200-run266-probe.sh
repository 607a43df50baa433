#!/usr/bin/env bash
# run 265: 220c25f (a54eab1's relaxed rings back; wave_faa's wrong tickets recorded): the proof (1,000
# histories each of G-LFQ and G-WFQ, checked after the call; ring-stress, G-WFQ, warp, FIFO, render,
# benchmark and BFS tests), the measurements (G-LFQ, G-WFQ, ideal; render bench; BFS bench), then the
# blind-log build on these rings: are the stress's losses still one for one with wrong tickets?
set -u
R=$PWD
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache PYTHONPATH=$R
mkdir -p $OUT/x
GQ_HISTORY_QUEUES=glfq,gwfq timeout 70 python3 tools/gpu_record_histories.py $OUT/x 2>&1 | tail -2
python3 -c 'import json; from queues_cuda.provenance import provenance; print(json.dumps(provenance()))' > $OUT/x/recorded-provenance.json
GQ_RESULTS_DIR=$OUT/x timeout 90 python3 -m pytest -q -m gpu -p no:cacheprovider tests/queues_cuda/test_ring_stress_gpu.py > $OUT/x/ring-stress.log 2>&1; tail -1 $OUT/x/ring-stress.log
timeout 40 python3 -m pytest -q -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k gwfq > $OUT/x/gwfq-tests.log 2>&1; tail -1 $OUT/x/gwfq-tests.log
GQ_COMMIT=$(cat $R/.head-sha) GQ_DIRTY=0 GQ_STAGES="warp fifo render-tests bench-tests queue-bench render-bench bfs" \
  GQ_FIFO_QUEUES="glfq or gwfq" GQ_BENCH_QUEUES=glfq,gwfq,ideal GQ_RENDER_ACCELS=bvh GQ_QUEUE_BENCH_S=150 GQ_BFS_S=120 \
  bash tools/gpu-suite.sh 2>&1 | grep -v "^\[" | grep -v "PASSED" | tail -45
python3 runs/ticket_log_patch.py . blind > /dev/null && STRESS_CASES=18:25:4 timeout 60 python3 runs/ticket_log_probe.py relaxed-blindlog 2>&1 | grep -v "stranded run" | cut -c1-330
git checkout -q queues_cuda/include/gq/scq_ring.cuh 2>/dev/null || true
