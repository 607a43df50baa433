#!/usr/bin/env bash
# Run 390, 2026-12-07, on main after runs 388-389 (the waiter warp, no look). Two things in one call:
# 1. tools/gpu-suite.sh's bfs stage: the BFS GPU tests, then tools/gpu_bfs_bench.py (every queue
#    and compaction on the four stand-ins at the default blocks an SM), for README's table.
# 2. Per-level stamps with STAMPS_AT=held (2026-12-07-next-bfs-barrier-stamps.py): the grid's last
#    first item (0.61 us after the first release on road-2M in run 388, compaction's 0.45) split by
#    whether its turn took an element from its slot (no lane had seen it at the barrier) or held
#    every element, and how many turns a level took. If the last item is mostly a taken one, the
#    next step is why those slots were not seen; if a held one, the wait is in the level's start.
# Writes $OUT/0-suite.tgz (the suite's) and $OUT/held.tgz. About 4 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-held-stamps.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
R=$PWD; B=$R/benchmarks/results; S=$B/2026-12-07-next-bfs-barrier-stamps.py
mkdir -p "$OUT/h"
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/h/gen.log" 2>&1 ) &
GQ_STAGES=bfs bash tools/gpu-suite.sh
wait
rm -rf /tmp/t && STAMPS_AT=held python3 $S $R /tmp/t/st-head || echo "STAMP STRINGS FAILED"
(cd /tmp/t/st-head && STAMPS_AT=held PYTHONPATH=/tmp/t/st-head timeout 150 python3 $S run /tmp/t/st-head /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/h/stamps-held.log")
tar -czf "$OUT/held.tgz" -C "$OUT" h
