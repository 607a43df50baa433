#!/usr/bin/env bash
# Run 394, prepared 2026-12-07 (not run yet). Runs 390-393: every first item of a road level is
# held at the barrier, yet the last of them comes about 0.2 us after compaction's last first item,
# which still has to read its frontier after its block's release. Compaction's small levels put
# their items in the lowest ranks, blocks 0-3, at every level; the queue form's runs sit in other
# blocks. If the order in which the blocks see the barrier's flip is the same at every level (where
# each SM sits relative to the barrier word's L2 slice, say) and blocks 0-3 are among the first,
# that alone would explain the gap. Run 392's rank-ordered runs did not help, but they put a
# level's runs in whichever blocks come next in rank, not in the early ones.
# Per-level stamps with STAMPS_AT=order (2026-12-07-next-bfs-barrier-stamps.py): each block's
# release time for the first 1024 levels, both forms, road-24M, road-2M and Delaunay-21. Prints
# each form's mean release offset of blocks 0-3 against all blocks, the earliest and latest
# blocks, and how well the two halves of the levels agree on the blocks' order.
# What would follow: if the order is stable and 0-3 are early, hand a small level's runs to the
# early blocks (the redraw could go to warps by a fixed order of blocks); if not, look elsewhere.
# About 1.5 minutes warm. $OUT/order.tgz.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-release-order.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; S=$B/2026-12-07-next-bfs-barrier-stamps.py
mkdir -p "$OUT/o"
PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/o/gen.log" 2>&1
rm -rf /tmp/t && STAMPS_AT=order python3 $S $R /tmp/t/st-head || echo "STAMP STRINGS FAILED"
(cd /tmp/t/st-head && STAMPS_AT=order PYTHONPATH=/tmp/t/st-head timeout 200 python3 $S run /tmp/t/st-head /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/o/stamps-order.log")
tar -czf "$OUT/order.tgz" -C "$OUT" o
