#!/usr/bin/env bash
# Run 381, 2026-12-07: after run 380 (warp 0 looks once the barrier is over, on main since 10f1fd9)
# the grid's last first item of a road level still came 0.67 us after the first release (road-2M
# stamps; compaction's 0.45): warp 0's look leaves its row's read (indptr) after the release.
# fw = head + 2026-12-07-next-bfs-free-waiter.patch: a block's waiter at the grid barrier is its
# first warp with no slot to look at (a byte a warp in shared memory, written before the block's
# barrier), so a warp with tickets polls through the barrier and starts with element and row.
# fl = fw + 2026-12-07-next-bfs-last-look.patch: every poller also looks once more after it
# leaves its loop, in flight with the waiter's reads of the level's words.
# Predicted: fw up to a round trip (about 0.2 us, the first item's gap) a small level, road-2M up
# to about 0.45 ms; fl a little more where an element lands after a lane's last step; Kron-21
# nothing either way. Rounds head fw fl fl fw head of run 376's probe, the BFS GPU tests on fw and
# fl, then run 379's red per-level stamps on all three (STAMPS=0 skips them). $OUT/fw.tgz after
# every step. About 4 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-free-waiter.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py; S=/tmp/t/stamps.py; B=$R/benchmarks/results
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/fw /tmp/t/fl "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
for t in fw fl; do cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$t/; done
(cd /tmp/t/fw && patch -s -p1 < "$B/2026-12-07-next-bfs-free-waiter.patch") || echo "PATCH FAILED (fw)"
(cd /tmp/t/fl && patch -s -p1 < "$B/2026-12-07-next-bfs-free-waiter.patch" && patch -s -p1 < "$B/2026-12-07-next-bfs-last-look.patch") || echo "PATCH FAILED (fl)"
cp "$B/2026-12-02-h200-run293-297-bfs-stamps.py" $S
patch -s $S < "$B/2026-12-02-next-bfs-stamps-red.patch" || echo "STAMPS PATCH FAILED"
sed -i 's/expand(g, s, u, got, level + 1, look/expand_row(g, s, u, got, begin, row_end, level + 1, look/g' $S
pack() { tar -czf "$OUT/fw.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head fw fl; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head fw fl fl fw head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
for t in fw fl; do
  (cd /tmp/t/$t && PYTHONPATH=/tmp/t/$t timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/$t: /" | tee -a "$OUT/x/bfs-tests.log")
  pack
done
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head fw fl; do
  T=/tmp/t/$t
  python3 $S $T /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
