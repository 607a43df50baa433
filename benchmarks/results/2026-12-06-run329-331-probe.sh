#!/usr/bin/env bash
# Runs 329-331 (2026-12-06): G-WFQ parking A/B, one card a call. The probe as run 331 ran it.
# Trees: old = git archive 5b6881e, park = git archive bfdc9bd, byte = the working tree (the change);
# bools = the change with two flags (aq_dry, aq_burnt) in place of the counter. Run 329 ran bools alone
# (old and park were archived without raytrace/ and failed to import) with GQ_SUITE="histories wfq";
# run 330 ran old, park, bools with GQ_SUITE=queue-bench; run 331 old, park, byte with
# GQ_SUITE="histories wfq queue-bench" (GQ_HISTORY_QUEUES=gwfq GQ_BENCH_QUEUES=glfq,gwfq,ideal).
# Runs 329-330 timed balanced at 2^17 and 2^18 only. Device call: carry ["runs/ab", "probe.sh"]; collected by hand into 2026-12-06-run329-331-park-ab.json.
set -u
export PYTHONUNBUFFERED=1 GQ_COMMIT=${GQ_COMMIT:-x} GQ_DIRTY=1 GQ_CACHE_DIR=/tmp/gq-cache
R=$PWD
nvidia-smi --query-gpu=name,clocks.sm --format=csv | tee $OUT/machine.txt
ab() {  # ab VARIANT DIR REP
  local v=$1 d=$2 rep=$3
  ( cd $d && timeout 120 python3 -m gq bench queues --queue gwfq --kernel split --producers 25,75 \
      --threads 2^16..2^18 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/$v-split-$rep.json --chart $OUT/c.png \
      > $OUT/$v-split-$rep.log 2>&1; echo "$v split rep $rep rc=$?" ; grep -E "^gwfq" $OUT/$v-split-$rep.log )
  ( cd $d && timeout 60 python3 -m gq bench queues --queue gwfq --kernel balanced \
      --threads 2^16..2^18 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/$v-bal-$rep.json --chart $OUT/c.png \
      > $OUT/$v-bal-$rep.log 2>&1; echo "$v balanced rep $rep rc=$?"; grep -E "^gwfq" $OUT/$v-bal-$rep.log )
}
ab old runs/ab/old 1; ab park runs/ab/park 1; ab byte . 1
ab byte . 2; ab park runs/ab/park 2; ab old runs/ab/old 2
( timeout 60 python3 -m gq bench queues --queue gwfq --kernel split --producers 25,75 --threads 2^16..2^18 \
    --duration 0.04 --warmup 0.01 --runs 1 --stats --json $OUT/byte-stats.json --chart $OUT/c.png > $OUT/byte-stats.log 2>&1; echo "stats rc=$?"; grep -iE "blind|steps" $OUT/byte-stats.log | tail -8 )
if [ -n "${GQ_SUITE:-}" ]; then
  GQ_STAGES="$GQ_SUITE" bash tools/gpu-suite.sh 2>&1 | tail -30
fi
cd $OUT && tar -czf /tmp/all.tgz . && rm -rf $OUT/* && mv /tmp/all.tgz $OUT/
