#!/usr/bin/env bash
# Run 382, 2026-12-07. Every tree since run 379 spends longer than compaction from a level's last
# drain to the next release (road-2M, red stamps: 1.41-1.47 us against 1.31-1.34), and did before
# the barrier polled anything (run 379's head). Two things here:
# 1. Where in the barrier: 2026-12-07-next-bfs-barrier-stamps.py adds three stamps of each
#    block's waiter to run 379's red stamps (before its arrival, flip seen, the level's words in
#    hand), so the barrier splits into drain -> last arrival -> first flip seen -> first words in
#    hand -> first release, for compaction and the queue form alike.
# 2. One candidate: the queue form reads its next count off its Tail, a line of the queue's own,
#    where compaction's count is in the control words beside the chunk count and the barrier
#    word. ct = head + 2026-12-07-next-bfs-counted-frontier.patch: the emits also add their count
#    to C (one fetch-add a warp and batch more), and the barrier reads C.
# Predicted (ct): if the Tail's line costs the queue's barrier its extra, up to about 0.1 us a
# level back (road-2M up to 0.2 ms), less what the extra adds cost; Kron-21 nothing either way.
# Rounds head ct ct head of run 376's probe, the BFS GPU tests on ct, then the barrier stamps on
# head and ct (STAMPS=0 skips them). $OUT/bp.tgz after every step. About 3 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-barrier-parts.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/ct "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/ct/
(cd /tmp/t/ct && patch -s -p1 < "$B/2026-12-07-next-bfs-counted-frontier.patch") || echo "PATCH FAILED (ct)"
pack() { tar -czf "$OUT/bp.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head ct; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head ct ct head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/ct && PYTHONPATH=/tmp/t/ct timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/ct: /" | tee -a "$OUT/x/bfs-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head ct; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
