#!/usr/bin/env bash
# Run 379, 2026-12-07 (after run 378 shipped the emits' whole-warp draw): where a road level's time
# goes now, for SFQ's queue BFS and compaction, with the stamps of runs 293-306 as a `red` (no
# result, so no scoreboard that the timed code's own waits share; run 306 found the atomicMax
# stamps' round trip inside the queue form's "expansion -> drain done"). What it runs:
# 2026-12-02-h200-run293-297-bfs-stamps.py with 2026-12-02-next-bfs-stamps-red.patch, on a copy of
# the given commit's tree (its patch strings still match main's bfs_levels.h, bfs_queue.h and
# bfs_compaction.h at 1ea27f4). Per level, the largest over the warps that work: release spread,
# first release -> last item in hand, item -> expansion done, expansion -> drain done, drain done
# -> next release; road-24M, road-2M and Delaunay-21 at one block an SM. About 2 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-stamps-red.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; S=/tmp/st/stamps.py
rm -rf /tmp/st /tmp/src0 /tmp/stamps && mkdir -p /tmp/st /tmp/src0 "$OUT/x"
cp benchmarks/results/2026-12-02-h200-run293-297-bfs-stamps.py $S
(cd /tmp/st && patch -s -p1 "$S" < "$R/benchmarks/results/2026-12-02-next-bfs-stamps-red.patch") || echo "PATCH FAILED"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/src0/
python3 $S /tmp/src0 /tmp/stamps || echo "STAMP PATCH FAILED"
t0=$(date +%s)
PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1
echo "graphs: $(( $(date +%s) - t0 )) s"
(cd /tmp/stamps && PYTHONPATH=/tmp/stamps timeout 400 python3 $S run /tmp/stamps /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps.log")
tar -czf "$OUT/stamps.tgz" -C "$OUT" x
