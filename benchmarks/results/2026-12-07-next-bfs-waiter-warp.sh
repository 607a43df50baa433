#!/usr/bin/env bash
# Run 388, 2026-12-07. Since run 380, a block's warp 0 looks at its next slot only after the
# release (its thread 0 is the one that waits at the grid barrier), so a warp 0 with tickets in a
# level gets its element a round trip after the release and its row one more; run 381's free
# waiter (the waiter moved to a warp with no slot to look at, chosen at each barrier through shared
# bytes) brought the grid's last first item 0.74 -> 0.58 us after the first release but lengthened
# the barrier by about as much. ww = head + 2026-12-07-next-bfs-waiter-warp.patch: the blocking
# queue form's blocks get a ninth warp (288 threads), warp 0, which holds no tickets and only waits
# at the grid barrier; the eight warps with tickets all poll. No choice at the barrier, so nothing
# new on the arrival's path. Compaction unchanged.
# Predicted: road-2M up to 0.16 us a level (0.35 ms), road-24M up to 1.4 ms, if the barrier keeps
# its length; Kron-21 and Delaunay-21 about even (the same eight warps work).
# Rounds head ww ww head of run 376's probe, the BFS GPU tests on ww, then the per-level stamps
# (2026-12-07-next-bfs-barrier-stamps.py) on head and ww (STAMPS=0 skips them). $OUT/ww.tgz after
# every step. About 3 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-waiter-warp.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/ww "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/ww/
(cd /tmp/t/ww && patch -s -p1 < "$B/2026-12-07-next-bfs-waiter-warp.patch") || echo "PATCH FAILED (ww)"
pack() { tar -czf "$OUT/ww.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head ww; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head ww ww head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/ww && PYTHONPATH=/tmp/t/ww timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/ww: /" | tee -a "$OUT/x/gpu-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head ww; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
