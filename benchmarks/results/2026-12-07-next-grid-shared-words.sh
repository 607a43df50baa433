#!/usr/bin/env bash
# Run 384, 2026-12-07. Runs 381 and 383 each added one read of the block's shared words
# (Grid::verdict) on a level's critical path (fw: the warps' bytes before the arrival; dr: the
# handed-on Head at the drain's start), and each path grew by 0.1-0.16 us (the barrier; the first
# item), as much as a round trip to L2. Those words are read and written with the queues'
# relaxed device-scope accesses, which on a generic pointer compile to LD.E.STRONG.GPU and
# ST.E.STRONG.GPU. vs = head + 2026-12-07-next-grid-shared-words.patch: Grid's own accesses of
# its words as plain volatile ones, LDS and STS in sm_90 SASS (every grid kernel, both BFS forms).
# Predicted: if such a generic access costs about 0.1 us, the barrier's tail (the first words in
# hand -> the first release, 0.29 us in run 382 in both forms) shrinks in both forms, and the
# queue's pollers (a generic load a poll) leave sooner; road-2M up to 0.3 ms a form.
# Rounds head vs vs head of run 376's probe, the BFS and grid barrier GPU tests and (90 s at most)
# the SSSP GPU tests on vs, then the barrier stamps on head and vs (STAMPS=0 skips them).
# $OUT/vs.tgz after every step. About 4 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-grid-shared-words.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/vs "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/vs/
(cd /tmp/t/vs && patch -s -p1 < "$B/2026-12-07-next-grid-shared-words.patch") || echo "PATCH FAILED (vs)"
pack() { tar -czf "$OUT/vs.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head vs; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head vs vs head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
for f in test_bfs_gpu.py test_grid_barrier.py; do
  (cd /tmp/t/vs && PYTHONPATH=/tmp/t/vs timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/$f 2>&1 | tail -1 | sed "s/^/vs $f: /" | tee -a "$OUT/x/tests.log")
  pack
done
(cd /tmp/t/vs && PYTHONPATH=/tmp/t/vs timeout 90 python3 -m pytest -v -m gpu -p no:cacheprovider tests/sssp_demo/test_sssp_gpu.py > "$OUT/x/sssp-tests.log" 2>&1; echo "rc $?" >> "$OUT/x/sssp-tests.log")
echo "vs test_sssp_gpu.py (90 s at most): $(grep -c PASSED "$OUT/x/sssp-tests.log") passed, $(grep -c -E 'FAILED|ERROR' "$OUT/x/sssp-tests.log") failed, $(tail -1 "$OUT/x/sssp-tests.log")" | tee -a "$OUT/x/tests.log"
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head vs; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
