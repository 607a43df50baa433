# The probe.sh of runs 286-290 as each ran on the device (carry: runs/ and probe.sh; runs/base was
# `git archive e41b540` in run 286, `git archive c66de7a` in run 287; runs/t came from
# 2026-12-02-h200-run289-trees.sh, runs/bfs_time.py is 2026-12-02-h200-run289-bfs-time.py).

# ---- run 286a
set -u
R=$PWD
export GQ_COMMIT=c66de7a GQ_DIRTY=0
for r in 1 2; do
  for t in base head; do
    d=$R; [ $t = base ] && d=$R/runs/base
    (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t timeout 100 python3 tools/gpu_barrier_probe.py 20000) > $OUT/barrier-$t-$r.log 2>&1
    echo "$t rep $r $SECONDS s"
  done
done
# (a table of the four logs, then:)
GQ_STAGES="barrier-probe" bash tools/gpu-suite.sh > $OUT/suite-barrier.txt 2>&1; tail -8 $OUT/suite-barrier.txt
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_sssp_gpu.py > $OUT/sssp-gpu-tests.log 2>&1

# ---- run 286b
GQ_COMMIT=c66de7a GQ_DIRTY=0 GQ_STAGES="bfs" bash tools/gpu-suite.sh > $OUT/suite-bfs.txt 2>&1
mkdir -p $OUT/base
(cd runs/base && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/c-base GQ_COMMIT=e41b540 GQ_DIRTY=0 timeout 200 python3 tools/gpu_bfs_bench.py $OUT/base) > $OUT/base/bfs-bench.log 2>&1

# ---- run 287 (the working tree = 21ae819; runs/base = c66de7a)
for r in 1 2; do
  for t in base new; do
    d=$R; [ $t = base ] && d=$R/runs/base
    mkdir -p $OUT/$t-$r
    (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t GQ_COMMIT=$t GQ_DIRTY=1 timeout 150 python3 tools/gpu_bfs_bench.py $OUT/$t-$r) > $OUT/$t-$r/bfs-bench.log 2>&1
  done
done
# (a table of SFQ's and compaction's kernel ms from the four JSON records, then:)
timeout 130 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -2
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/queues_cuda -k sfq 2>&1 | tail -2   # cut by its timeout: run 288

# ---- run 288 (bash probe.sh 21ae819)
export GQ_COMMIT=$1 GQ_DIRTY=0 GQ_RESULTS_DIR=$OUT
timeout 500 python3 -m pytest -v -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py tests/queues_cuda/test_fifo_slots.py -k sfq > $OUT/sfq-gpu-tests.log 2>&1

# ---- run 289
G=/tmp/g
PYTHONPATH=$R python3 runs/bfs_time.py gen $G 2>&1 | tail -4
for r in 1 2; do
  for t in base B S BS; do
    d=$R/runs/t/$t
    (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t timeout 100 python3 $R/runs/bfs_time.py time $d $t $G $OUT/bfs.jsonl) > $OUT/$t-$r.log 2>&1 || tail -3 $OUT/$t-$r.log
  done
done
# (the console table in README.md's section for runs 280-290)

# ---- run 290 (bash probe.sh 9f44082)
GQ_COMMIT=$1 GQ_DIRTY=0 GQ_STAGES="bfs barrier-probe" bash tools/gpu-suite.sh > $OUT/suite.txt 2>&1
