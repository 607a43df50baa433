#!/usr/bin/env bash
# Run 395, 2026-12-07 (eighteenth session). Runs 379-394: a road level's items are all held at the
# barrier, with their rows' bounds, and what is left after the release is the chain of the row's
# heads (a load), their CASes, the emit, and the barrier. Compaction cannot start that chain before
# the release; the queue form's pollers can also read the row's heads, which are graph data, not
# level state (the CASes must still wait for the barrier).
# rh = head + 2026-12-07-next-bfs-row-heads.patch: the poll step that sees its element reads the
# row's bounds and then the first kEdgeBatch (4) heads of a small row (RowHeads), and the level's
# first turn takes them instead of loading them. 80 registers, as head.
# rh8 = head + 2026-12-07-next-bfs-row-heads-8.patch: two batches' heads (8), for Delaunay-21's rows
# of about six edges; 90 registers.
# Predicted: one round trip off the chain of the level's last held item. Run 379's two round trips
# (element and bounds) gave road-2M 0.46 ms, about 0.1 us a level each: so road-2M about 0.2 ms,
# road-24M 0.9 ms, Delaunay-21 a little (rh8 more), Kron-21 nothing.
# Rounds head rh rh8 rh8 rh head of run 376's probe, the BFS GPU tests on rh and rh8, then the
# per-level stamps (STAMPS_AT=held) on head, rh and rh8. $OUT/rh.tgz after every step. About 4
# minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-row-heads.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/rh /tmp/t/rh8 "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
for t in rh rh8; do cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$t/; done
(cd /tmp/t/rh && patch -s -p1 < "$B/2026-12-07-next-bfs-row-heads.patch") || echo "PATCH FAILED (rh)"
(cd /tmp/t/rh8 && patch -s -p1 < "$B/2026-12-07-next-bfs-row-heads-8.patch") || echo "PATCH FAILED (rh8)"
pack() { tar -czf "$OUT/rh.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head rh rh8; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head rh rh8 rh8 rh head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
for t in rh rh8; do
  (cd /tmp/t/$t && PYTHONPATH=/tmp/t/$t timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/$t: /" | tee -a "$OUT/x/gpu-tests.log")
  pack
done
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head rh rh8; do
  STAMPS_AT=held python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t STAMPS_AT=held timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
