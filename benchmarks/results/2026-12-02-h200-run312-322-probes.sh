#!/usr/bin/env bash
# The device calls of runs 312-319 (H200), as run from the repository root with runs/ carried.
# runs/blind_probe.py is 2026-12-02-h200-run307-311-blind-probe.py; runs/diag.py is
# 2026-12-02-h200-run314-317-diag.py. Trees:
#   runs/t/head   git archive c44b123 queues_cuda gq pyproject.toml
#   runs/t/blind  the same, patched with 2026-12-02-next-gwfq-blind.patch (blind tickets only)
#   working tree  c44b123 + blind tickets + packed help cursors (+ from run 317 the slow path's EMPTY at Tail;
#                 committed as 611b5b1)
#   runs/t/diag   the working tree + 2026-12-02-h200-run314-317-diag.patch (runs 314-316 before the
#                 slow-path change, run 317 with it)

run312() {  # head / blind / blind + packed cursors (both) / + help delay 64; G-WFQ histories recorded
  export PYTHONUNBUFFERED=1 RUNS=3 QUEUE=gwfq SIZES=14,16,17,18
  (cd runs/t/head && PYTHONPATH=$PWD GQ_DIRTY=0 VARIANTS="head=" python3 ../../blind_probe.py $OUT 1 r)
  (cd runs/t/blind && PYTHONPATH=$PWD GQ_DIRTY=1 VARIANTS="blind=" python3 ../../blind_probe.py $OUT 1 r)
  PYTHONPATH=$PWD GQ_DIRTY=1 VARIANTS="both=,d64=GQ_WFQ_HELP_DELAY=64" python3 runs/blind_probe.py $OUT 1 r
  GQ_COMMIT=c44b123 GQ_DIRTY=1 GQ_HISTORY_QUEUES=gwfq GQ_STAGES="histories" bash tools/gpu-suite.sh
  # (these histories were of the tree before the slow-path change; run 317 recorded the final tree's)
}
run313() {  # both's 25 % split stalled at 2^18: counters (the blind tree's call failed: no raytrace in it), variants
  export PYTHONUNBUFFERED=1
  python3 -m gq bench queues --queue gwfq --kernel split --producers 25,75 --threads 2^17,2^18 --runs 1 \
    --duration 0.1 --stats --json $OUT/stats-both.json --chart $OUT/stats-both.png
  PYTHONPATH=$PWD GQ_DIRTY=1 RUNS=3 QUEUE=gwfq SIZES=18 \
    VARIANTS="both=,burn256=GQ_BURN_WAIT=256u,burn16=GQ_BURN_WAIT=16u,aq1=GQ_GWFQ_AQ_PLENTY_SHARE=1,d64=GQ_WFQ_HELP_DELAY=64,p4=GQ_WFQ_PATIENCE=4" \
    python3 runs/blind_probe.py $OUT 1 r
}
run314() {  # where the stalled run's seconds go
  (cd runs/t/diag && PYTHONPATH=$PWD RUNS=5 THREADS=262144 PCTS=25 \
     VARIANTS="both=,p4=GQ_WFQ_PATIENCE=4,aq1=GQ_GWFQ_AQ_PLENTY_SHARE=1" python3 ../../diag.py $OUT)
}
run315() {  # candidates
  V="both=,hint=GQ_PROBE_AQ_HINT,p8=GQ_WFQ_PATIENCE=8,lc16=GQ_WFQ_LOST_CLAIMS=16,aq4=GQ_GWFQ_AQ_PLENTY_SHARE=4"
  (cd runs/t/diag && PYTHONPATH=$PWD RUNS=4 THREADS=262144 PCTS=25 VARIANTS="$V" python3 ../../diag.py $OUT)
  (cd runs/t/diag && PYTHONPATH=$PWD RUNS=3 QUEUE=gwfq SIZES=16,17,18 VARIANTS="$V" python3 ../../blind_probe.py $OUT 1 r)
}
run316() {  # which loop: small budgets raise the flag with its site; the counter build
  V="cb=GQ_CLAIM_BUDGET=16384u,sb=GQ_SPIN_BUDGET=16384u,st=GQ_QUEUE_STATS,cbst=GQ_CLAIM_BUDGET=16384u+GQ_QUEUE_STATS"
  (cd runs/t/diag && PYTHONPATH=$PWD RUNS=4 THREADS=262144 PCTS=25 VARIANTS="$V" python3 ../../diag.py $OUT)
}
run317() {  # with the slow path's EMPTY at Tail: aq's bar 16 against 4; G-WFQ's GPU tests and histories
  (cd runs/t/diag && PYTHONPATH=$PWD RUNS=4 THREADS=262144 PCTS=25 \
     VARIANTS="a16=,a16st=GQ_QUEUE_STATS,a4=GQ_GWFQ_AQ_PLENTY_SHARE=4" python3 ../../diag.py $OUT)
  PYTHONPATH=$PWD RUNS=3 QUEUE=gwfq SIZES=14,16,17,18 VARIANTS="a16=,a4=GQ_GWFQ_AQ_PLENTY_SHARE=4" \
    python3 runs/blind_probe.py $OUT 1 r
  GQ_COMMIT=c44b123 GQ_DIRTY=1 GQ_HISTORY_QUEUES=gwfq GQ_STAGES="histories" bash tools/gpu-suite.sh
  python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k gwfq > $OUT/gwfq-tests.log 2>&1
  # then, here: python3 tools/check_saved_histories.py histories-gwfq.npz --out histories-verdicts.json
}
run318() {  # 611b5b1: G-WFQ's sweep, the benchmark's GPU tests, the counters
  export GQ_COMMIT=611b5b1 GQ_DIRTY=0
  GQ_BENCH_QUEUES=gwfq GQ_STAGES="queue-bench bench-tests" bash tools/gpu-suite.sh
  python3 -m gq bench queues --queue gwfq --kernel both --threads 2^16,2^18 --runs 1 --stats \
    --json $OUT/queue-stats.json --chart $OUT/queue-stats.png
}
run319() {  # 611b5b1: G-WFQ's render tests, the render bench (trimesh's wheel carried in .whl)
  GQ_COMMIT=611b5b1 GQ_DIRTY=0 GQ_RENDER_TESTS_S=240 GQ_RENDER_TESTS_K=gwfq GQ_RENDER_QUEUES=gwfq,glfq \
    GQ_RENDER_ACCELS=bvh GQ_STAGES="render-tests render-bench" bash tools/gpu-suite.sh
}

# Runs 320-321 (the render A/B): runs/t/rhead = git archive c44b123 queues_cuda raytrace gq scenes pyproject.toml;
# runs/t/rnb = 611b5b1's archive with G-WFQ's operate passing no plenty and no blind flag (a hand edit).
run320() {
  for round in 1 2; do for t in rhead new rnb; do
    if [ $t = new ]; then d=.; else d=runs/t/$t; fi
    (cd $d && PYTHONPATH=$PWD GQ_DIRTY=1 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml \
      --width 1920 --height 1080 --spp 4 --backend cuda --accel bvh --queue gwfq --json $OUT/render-$t-$round.json)
  done; done
}
run321() {  # bfda7d2 (new) against c44b123, G-WFQ and G-LFQ; then the render tests of both queues
  for round in 1 2; do for t in rhead new; do
    if [ $t = new ]; then d=.; else d=runs/t/$t; fi
    (cd $d && PYTHONPATH=$PWD GQ_COMMIT=bfda7d2 GQ_DIRTY=0 python3 -m gq bench render --scene scenes/spheres100.toml \
      --scene scenes/cornell.toml --width 1920 --height 1080 --spp 4 --backend cuda --accel bvh --queue gwfq,glfq \
      --json $OUT/render-$t-$round.json)
  done; done
  GQ_COMMIT=bfda7d2 GQ_DIRTY=0 GQ_RENDER_TESTS_K="glfq or gwfq" GQ_STAGES="render-tests" bash tools/gpu-suite.sh
}
run322() {  # 2df661b: the BFS GPU tests (every queue kind), gq bfs --bench on Kron-21 and a 2 M-vertex road grid
  export GQ_COMMIT=2df661b GQ_DIRTY=0
  python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py > $OUT/bfs-tests.log 2>&1
  python3 -m gq bfs --generate kron --scale 21 --bench --repeats 5 --json $OUT/bfs-kron21.json
  python3 -m gq bfs --generate road --vertices 2000000 --bench --repeats 5 --json $OUT/bfs-road2m.json
}
"${1:-run322}"
