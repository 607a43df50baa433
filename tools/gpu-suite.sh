#!/usr/bin/env bash
# Every GPU test and the measurements the open issues ask for, in ONE call on the device machine.
#   device run:  GQ_COMMIT=<sha> GQ_DIRTY=<0|1> [GQ_SUITE=quick|full] bash tools/gpu-suite.sh
# Stages run in order of what a short device budget should buy first; each has its own time
# limit so one slow stage cannot eat the others. Full logs and JSON records go under $OUT (the
# device tool brings them back); the stage table is printed last.
#   quick: renderer tests and benchmark (BVH and every-primitive), the histories (checked off the
#          device later with tools/check_saved_histories.py), the warp-only checks (several
#          queues per warp; the planted broadcast fault).
#   full:  adds every queue GPU test (histories checked on the device, FIFO on >1e8 tokens).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gq-out}
SUITE=${GQ_SUITE:-quick}
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 GQ_RESULTS_DIR=$OUT
export GQ_CACHE_DIR=${GQ_CACHE_DIR:-/tmp/gq-cache}
: > "$OUT/stages.txt"

stage() {  # stage NAME SECONDS COMMAND...
  local name=$1 limit=$2 started=$SECONDS
  shift 2
  echo "== $name (limit ${limit} s)"
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$OUT/$name.log"
  printf '%-16s rc=%-4s %4d s\n' "$name" "$rc" "$((SECONDS - started))" >> "$OUT/stages.txt"
}

stage machine 30 bash -c 'nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; python3 -m gq info'
cp "$OUT/machine.log" "$OUT/machine.txt"
stage kernels 60 python3 tools/gpu_kernel_report.py
stage render-tests 90 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/raytrace
for accel in bvh none; do
  stage "render-bench-$accel" 90 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml \
    --width 1920 --height 1080 --spp 4 --backend cuda --accel "$accel" \
    --json "$OUT/render-bench-$accel.json" --chart "$OUT/render-bench-$accel.png"
done
stage histories 60 python3 tools/gpu_record_histories.py "$OUT"
python3 -c 'import json; from queues_cuda.provenance import provenance; print(json.dumps(provenance()))' \
  > "$OUT/recorded-provenance.json"
stage warp-checks 90 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
  -k "several_queues or broadcast"
if [ "$SUITE" = full ]; then
  stage queue-tests 420 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda
  python3 tools/summarize_gpu_results.py "$OUT/queue-check-gpu.json" 2>&1 | tee "$OUT/summary.txt"
fi
echo "== stages ($SUITE)"
cat "$OUT/stages.txt"
! grep -qv 'rc=0 ' "$OUT/stages.txt"
