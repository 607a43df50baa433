#!/usr/bin/env bash
# Run 413, prepared 2026-12-07 (twenty-second session): the BFS level stamps of run 412 (an H100
# came for them) on an H200, where run 411 had compaction's road-2M run 11 % faster than on an H100
# and SFQ's the same (4.43 against 4.52 us a level). The prediction is run 412's script's: the H200's
# gain is in compaction's expansion (item -> expansion done, 3.26 us on the H100 in run 412), about
# 2.6 us here, with the barrier (drain done -> next release, 1.31) unchanged, and SFQ's expansion
# (2.37) gaining less. On any other card it stops at once. About 3 minutes from a cold start.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-s22-h200-stamps.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 GQ_CACHE_DIR=/tmp/gq-cache
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$CARD"
echo "$CARD" | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
R=$PWD; B=$R/benchmarks/results; S=$B/2026-12-07-next-bfs-barrier-stamps.py
mkdir -p "$OUT/h"
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/h/gen.log" 2>&1 ) &
rm -rf /tmp/t && STAMPS_AT=held python3 $S $R /tmp/t/st-head || echo "STAMP STRINGS FAILED"
wait
(cd /tmp/t/st-head && STAMPS_AT=held PYTHONPATH=/tmp/t/st-head timeout 200 python3 $S run /tmp/t/st-head /tmp/g 2>&1 \
  | grep -v -i warn | tee "$OUT/h/stamps-held.log" | grep -E "kernel ms|item in hand|expansion|drain done|level \(")
