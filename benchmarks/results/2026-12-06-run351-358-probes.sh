# Runs 351-358 (2026-12-06, an NVIDIA H100 80GB HBM3 each time; only run 357 named a card, the H200
# kind). What each device call ran, in the repository root of the commit named. runs/ab351/{old,new}
# were `git archive da33b5b` and `git archive 675a248` with benchmarks/ and tests/ removed, carried.

# run 351 (da33b5b): SFQ's and YMC's sweep, a point that stalls with 0.04 s windows measured again with 0.5 s ones
GQ_COMMIT=da33b5b GQ_DIRTY=0 GQ_BENCH_QUEUES=sfq,ymc GQ_STAGES="queue-bench" bash tools/gpu-suite.sh

# run 352 (675a248: the warp's hazard scan): the A/B below found no runs/ab351 (not carried), then
GQ_COMMIT=675a248 GQ_DIRTY=0 GQ_STAGES="ymc" bash tools/gpu-suite.sh   # 1,000 histories; YMC's GPU tests

# run 353 (acd5278: the late-enqueue hook at 2 us), carry runs/ab351
for r in old new new old; do (cd runs/ab351/$r && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 150 \
  python3 -m gq bench queues --queue ymc --kernel both --producers 50 --threads 2^12..2^16 --duration 0.04 \
  --warmup 0.01 --runs 3 --json $OUT/ab351-$r-$RANDOM.json); done
GQ_COMMIT=acd5278 GQ_DIRTY=0 GQ_STAGES="ymc" bash tools/gpu-suite.sh

# run 354 (b6cbf00: the hook at 200 us), carry .whl
PYTHONPATH=$PWD python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k "forced_slow_path and ymc"
GQ_COMMIT=b6cbf00 GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_RENDER_ACCELS=bvh GQ_RENDER_QUEUES=glfq,ymc \
  GQ_STAGES="render-bench queue-bench" bash tools/gpu-suite.sh

# run 355 (b6cbf00), carry .whl
GQ_COMMIT=b6cbf00 GQ_DIRTY=0 GQ_RENDER_TESTS_K=ymc GQ_STAGES="render-tests bfs" GQ_BFS_S=200 bash tools/gpu-suite.sh

# run 356 (the trees of run 353), carry runs/ab351 and .whl
python3 -m pip install -q --no-index --find-links .whl trimesh
for r in old new new old; do (cd runs/ab351/$r && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 200 \
  python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml --width 1920 --height 1080 \
  --spp 4 --backend cuda --accel bvh --queue ymc --json $OUT/render-$r-$RANDOM.json --chart /tmp/x.png); done

# run 357 (b525c18), kind nvidia-h200 named (an H100 came)
GQ_COMMIT=b525c18 GQ_DIRTY=0 GQ_STAGES="queue-bench" bash tools/gpu-suite.sh

# run 358 (258a3f7), the suite's new queue-ncu line for YMC alone
PYTHONPATH=$PWD timeout 200 python3 -m gq bench queues --kernel balanced --queue ymc --threads 2^18 --runs 1 \
  --duration 0.02 --warmup 0.005 --hw-counters --json $OUT/run358-ymc-ncu.json
