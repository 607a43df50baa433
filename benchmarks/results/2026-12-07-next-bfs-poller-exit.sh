#!/usr/bin/env bash
# Run 386, 2026-12-07. Run 385's stamps (STAMPS_AT=start) put the queue form's drain start 0.48 us
# after the first release on road-2M, where compaction already has its last first item (0.45), and
# the queue form's release spread at 0.51 us against compaction's 0.35. A block's warps leave a
# level's barrier together, after Grid::sync_read's block_sync, which waits for the slowest slot
# poller's step: a peek whose element has not come is a device-memory round trip, and one that
# has is followed by its row's reads. ns = head + 2026-12-07-next-bfs-poller-exit.patch: no block
# barrier after the wait; thread 0 writes the values, fences the block (fence.acq_rel.cta), then
# the pollers' word, and each poller leaves when it sees the word (and fences). Pollers now poll
# through the words' round trip too. Compaction's barrier (no poll) is unchanged.
# Predicted: up to the spread's extra, about 0.15 us a road level (road-2M up to 0.35 ms,
# road-24M up to 1.3 ms); Kron-21 nothing either way.
# Rounds head ns ns head of run 376's probe, the BFS GPU tests on ns, then the barrier stamps
# (2026-12-07-next-bfs-barrier-stamps.py) on head and ns (STAMPS=0 skips them; a block's release
# stamp is thread 0's, which in ns no longer waits for the pollers: read the item rows). $OUT/ns.tgz
# after every step. About 2.5 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-poller-exit.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/ns "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/ns/
(cd /tmp/t/ns && patch -s -p1 < "$B/2026-12-07-next-bfs-poller-exit.patch") || echo "PATCH FAILED (ns)"
pack() { tar -czf "$OUT/ns.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head ns; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head ns ns head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/ns && PYTHONPATH=/tmp/t/ns timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py tests/sssp_demo/test_grid_barrier.py 2>&1 | tail -1 | sed "s/^/ns: /" | tee -a "$OUT/x/gpu-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head ns; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
