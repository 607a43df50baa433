#!/usr/bin/env bash
# Every GPU test and the measurements the open issues ask for, in ONE call on the device machine.
#   device run:  GQ_COMMIT=<sha> GQ_DIRTY=<0|1> bash tools/gpu-suite.sh
# Full logs and JSON records go under $OUT (the device tool brings them back); a short table
# is printed last. The 1,000 histories per queue are saved (histories-*.npz) and checked off the
# device: python3 tools/check_saved_histories.py OUT/histories-*.npz --out verdicts.json
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gq-out}
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 GQ_RESULTS_DIR=$OUT
export GQ_CACHE_DIR=${GQ_CACHE_DIR:-/tmp/gq-cache}

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  python3 -m gq info
} 2>&1 | tee "$OUT/machine.txt"

python3 tools/gpu_record_histories.py "$OUT" 2>&1 | tee "$OUT/record.log"
python3 -c 'import json; from queues_cuda.provenance import provenance; print(json.dumps(provenance()))' \
  > "$OUT/recorded-provenance.json"

python3 -m pytest -v -s -m gpu -p no:cacheprovider tests 2>&1 | tee "$OUT/pytest-gpu.log"
status=${PIPESTATUS[0]}

python3 tools/summarize_gpu_results.py "$OUT/queue-check-gpu.json" 2>&1 | tee "$OUT/summary.txt"
exit "$status"
