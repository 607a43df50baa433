#!/usr/bin/env bash
# Run 391, 2026-12-07. Run 390's stamps (STAMPS_AT=held) show that on the road graphs every first
# item of a level is held at the barrier (no turn takes from its slot), and still the grid's last
# first item comes 0.61-0.67 us after the first release, where compaction's comes 0.45-0.48. A held
# warp starts with no memory access, so it waits for its block's release; the release spreads over
# 0.35-0.42 us from the first block to the last, about one poll of the barrier word. The queue
# form's items sit in about 29 blocks on road-2M, compaction's in the lowest 4, so the queue form
# waits for a later block's release. sp = head + 2026-12-07-next-grid-staggered-polls.patch: a
# waiter keeps two polls of the barrier word in flight, half a round trip apart (its first poll's
# round trip by clock64), for its hot polls; both forms and every grid kernel get it.
# Predicted: the release's spread about halves (0.38 -> 0.2 us); both forms' road levels shorter,
# the queue form's more (its last release is the max over more blocks): road-2M up to 0.2 us a
# level. Kron-21 about even.
# Rounds head sp sp head of run 376's probe, the GPU tests of the BFS and the grid barrier on sp,
# then the per-level stamps (STAMPS_AT=held) on head and sp. $OUT/sp.tgz after every step. About
# 3 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-grid-staggered-polls.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/sp "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/sp/
(cd /tmp/t/sp && patch -s -p1 < "$B/2026-12-07-next-grid-staggered-polls.patch") || echo "PATCH FAILED (sp)"
pack() { tar -czf "$OUT/sp.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head sp; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head sp sp head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/sp && PYTHONPATH=/tmp/t/sp timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py tests/sssp_demo/test_grid_barrier.py 2>&1 | tail -1 | sed "s/^/sp: /" | tee -a "$OUT/x/gpu-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head sp; do
  STAMPS_AT=held python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t STAMPS_AT=held timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
