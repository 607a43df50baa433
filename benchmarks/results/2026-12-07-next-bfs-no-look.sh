#!/usr/bin/env bash
# Run 389, 2026-12-07, on main with run 388's waiter warp (warp 0 of each blocking queue form's
# block holds no tickets and only waits at the grid barrier). Two trees against it:
#   nl = head + 2026-12-07-next-bfs-no-look.patch: run 380's look and settle taken out of
#        Grid::sync_read and TicketsAhead. With the waiter warp, warp 0 never has a slot to look
#        at on the GPU, so they only cost a warp barrier and a branch. Predicted: even; shipped as
#        a simplification if nothing loses.
#   dr = head + 2026-12-07-next-bfs-deferred-redraw.patch (run 383's): a warp's last redraw of a
#        level finishes a level later when the level's tickets are all drawn. Runs 383 and 385 had
#        its turn end 0.09 us sooner and its first item about as much later, in trees where warp 0
#        could not poll. Predicted: up to 0.1 us a road level (road-2M 0.2 ms) if the later first
#        item was warp 0's; even otherwise.
# Rounds head nl dr dr nl head of run 376's probe, the BFS GPU tests on nl and dr, then the
# per-level stamps (2026-12-07-next-bfs-barrier-stamps.py) on head and dr (STAMPS=0 skips them).
# $OUT/nd.tgz after every step. About 3.5 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-no-look.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
for t in nl dr; do
  mkdir -p /tmp/t/$t && cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$t/
done
(cd /tmp/t/nl && patch -s -p1 < "$B/2026-12-07-next-bfs-no-look.patch") || echo "PATCH FAILED (nl)"
(cd /tmp/t/dr && patch -s -p1 < "$B/2026-12-07-next-bfs-deferred-redraw.patch") || echo "PATCH FAILED (dr)"
pack() { tar -czf "$OUT/nd.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head nl dr; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head nl dr dr nl head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
for t in nl dr; do
  (cd /tmp/t/$t && PYTHONPATH=/tmp/t/$t timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/$t: /" | tee -a "$OUT/x/gpu-tests.log")
done
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head dr; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
