#!/usr/bin/env bash
# The device calls of runs 307-311 (H200), as run from the repository root with runs/ carried.
# runs/blind_probe.py is 2026-12-02-h200-run307-311-blind-probe.py; runs/t/head was
#   git archive 1c60078 queues_cuda gq pyproject.toml | tar -x -C runs/t/head
# run 307's "both" tree was the same archive with glfq.cuh's "fq_plenty && !ScqRing::kBlindWave" made
# "fq_plenty" (blind wave tickets on fq too); run 308's variants were the working tree of the change
# (committed after run 311), its plenty shares set by defines.

run307() {  # variants head (1c60078), waveaq (GQ_STRESS_BLIND_WAVE: blind on aq), waveboth (both rings)
  export PYTHONUNBUFFERED=1 GQ_DIRTY=1   # POINTS then: balanced 2^14,2^16,2^17,2^18; splits at 2^16, 2^18; 5 runs
  for round in 1 2; do
    (PYTHONPATH=$PWD VARIANTS="head=,waveaq=GQ_STRESS_BLIND_WAVE" python3 runs/blind_probe.py $OUT 1 r$round)
    (cd runs/t/both && PYTHONPATH=$PWD VARIANTS="waveboth=GQ_STRESS_BLIND_WAVE" python3 ../../blind_probe.py $OUT 1 r$round)
  done
}
run308() {  # the working tree's blind tickets on both rings, fq's and aq's plenty shares apart
  export PYTHONUNBUFFERED=1 GQ_DIRTY=1 RUNS=3   # SIZES 12,14,16,17,18, both kernels
  for round in 1 2; do
    (cd runs/t/head && PYTHONPATH=$PWD VARIANTS="head=" python3 ../../blind_probe.py $OUT 1 r$round)
    PYTHONPATH=$PWD VARIANTS="b16=,f4=GQ_GLFQ_PLENTY_SHARE=4,f8=GQ_GLFQ_PLENTY_SHARE=8,f4a4=GQ_GLFQ_PLENTY_SHARE=4+GQ_GLFQ_AQ_PLENTY_SHARE=4" \
      python3 runs/blind_probe.py $OUT 1 r$round
  done
}
run309() {  # the proof, GQ_GLFQ_PLENTY_SHARE 4 (the shipped default)
  GQ_COMMIT=1c60078 GQ_DIRTY=1 GQ_HISTORY_QUEUES=glfq GQ_FIFO_QUEUES=glfq \
    GQ_STAGES="histories warp fifo bench-tests" bash tools/gpu-suite.sh
  # then, here: python3 tools/check_saved_histories.py histories-glfq.npz --out histories-verdicts.json
}
run310() {  # the record
  export PYTHONUNBUFFERED=1 RUNS=3
  (cd runs/t/head && PYTHONPATH=$PWD GQ_DIRTY=0 VARIANTS="head=" python3 ../../blind_probe.py $OUT 1 r)
  PYTHONPATH=$PWD GQ_DIRTY=1 VARIANTS="f4=" python3 runs/blind_probe.py $OUT 1 r
  GQ_COMMIT=1c60078 GQ_DIRTY=1 GQ_BENCH_QUEUES=glfq,ideal GQ_RENDER_QUEUES=glfq GQ_RENDER_ACCELS=bvh \
    GQ_STAGES="queue-bench bfs render-bench" bash tools/gpu-suite.sh
}
run311() {  # the counters per successful operation, a G-WFQ probe, the benchmark tests (b610f46)
  export PYTHONUNBUFFERED=1 GQ_COMMIT=b610f46 GQ_DIRTY=0
  python3 -m gq bench queues --queue glfq --kernel both --threads 2^16,2^18 --runs 1 --stats \
    --json $OUT/queue-stats.json --chart $OUT/queue-stats.png
  # runs/t/gwfq: git archive b610f46 queues_cuda gq pyproject.toml, patched with
  # 2026-12-02-next-gwfq-blind.patch; the head rows were a second call (the first lacked PYTHONPATH)
  (PYTHONPATH=$PWD QUEUE=gwfq RUNS=3 SIZES=14,16,17,18 VARIANTS="head=" python3 runs/blind_probe.py $OUT 1 r1)
  (cd runs/t/gwfq && PYTHONPATH=$PWD GQ_DIRTY=1 QUEUE=gwfq RUNS=3 SIZES=14,16,17,18 VARIANTS="blind=" \
    python3 ../../blind_probe.py $OUT 1 r1)
  GQ_STAGES="bench-tests" bash tools/gpu-suite.sh
}
"${1:-run311}"
