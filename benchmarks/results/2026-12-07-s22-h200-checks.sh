#!/usr/bin/env bash
# Run 412, prepared 2026-12-07 (twenty-second session), for an H200 (an H100 does as well for the
# tests). 1. The renderer's GPU tests at main's head with the launch gate on by default (run 409 ran
# 63 of them with GQ_LAUNCH_GATE=1; since e1f06c0 the gate is the default and wraps the per-wave and
# first-hit timings too), and the 1,000 GPU histories a queue, checked off the device.
# 2. Per-level stamps of the BFS forms on the road and Delaunay graphs (STAMPS_AT=held,
# 2026-12-07-next-bfs-barrier-stamps.py, as run 395 on an H100). Run 411 on an H200 had SFQ's road-2M
# run at 10.18 ms, as on the H100 (10.25-10.35, run 396), and compaction's 11 % faster than there
# (9.97 against 11.07-11.25): 4.43 against 4.52 us a level. Predicted: what compaction gained on
# the H200 is in its expansion (item -> expansion done; 3.20 us on the H100, a chain of row bounds,
# heads and CASes through memory), about 2.7 us here, while its barrier (drain done -> next release,
# 1.31 us on the H100) is the same; SFQ, whose pollers read the rows' bounds and heads before the
# release, gains less there (2.78 us on the H100). About 6 minutes from a cold start. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-s22-h200-checks.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
R=$PWD; B=$R/benchmarks/results; S=$B/2026-12-07-next-bfs-barrier-stamps.py
mkdir -p "$OUT/h"
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/h/gen.log" 2>&1 ) &
GQ_STAGES="render-tests histories" timeout 400 bash tools/gpu-suite.sh 2>&1 | tail -8
wait
rm -rf /tmp/t && STAMPS_AT=held python3 $S $R /tmp/t/st-head || echo "STAMP STRINGS FAILED"
(cd /tmp/t/st-head && STAMPS_AT=held PYTHONPATH=/tmp/t/st-head timeout 150 python3 $S run /tmp/t/st-head /tmp/g 2>&1 \
  | grep -v -i warn | tee "$OUT/h/stamps-held.log" | grep -E "kernel ms|item in hand|expansion|drain done|level \(")
tar -czf "$OUT/held.tgz" -C "$OUT" h
