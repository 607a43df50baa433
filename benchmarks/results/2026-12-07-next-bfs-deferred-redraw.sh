#!/usr/bin/env bash
# Run 383, 2026-12-07. Run 382's barrier stamps put compaction's and the queue form's barriers
# within 0.03 us of each other; what the queue still loses a road level is its first item and
# its last turn's end: 0.22 us from the last expansion to the drain's end against compaction's
# 0.10, in every tree since run 379. After a warp's last expansion the one long wait left is its
# redraw's result (wave_faa_finish, sm_90 SASS). dr = head + 2026-12-07-next-bfs-deferred-redraw.patch:
# when the level's queue's Head is already at or past the level's end (read by thread 0 a level
# early, handed on through shared memory), every redraw of the level brings tickets past the end,
# so a warp leaves after its turn and finishes the redraw a level later.
# Predicted: up to 0.12 us a small level (road-2M up to 0.27 ms, road-24M up to 1 ms); Kron-21's
# big levels have runs left to draw: nothing there.
# Rounds head dr dr head of run 376's probe, the BFS GPU tests on dr, then the barrier stamps
# (2026-12-07-next-bfs-barrier-stamps.py) on head and dr (STAMPS=0 skips them). $OUT/dr.tgz after
# every step. About 2 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-deferred-redraw.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/dr "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/dr/
(cd /tmp/t/dr && patch -s -p1 < "$B/2026-12-07-next-bfs-deferred-redraw.patch") || echo "PATCH FAILED (dr)"
pack() { tar -czf "$OUT/dr.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head dr; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head dr dr head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/dr && PYTHONPATH=/tmp/t/dr timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/dr: /" | tee -a "$OUT/x/bfs-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head dr; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
