#!/usr/bin/env bash
# Run 380, 2026-12-07: after run 379 (the row tree, on main since 111cc45) the grid's last first
# item of a road level still came 0.74 us after the release (stamps, head and pk), and warp 0 of a
# block never looks during the barrier (its thread 0 is the one waiting). Here warp 0's threads
# read their next slot once the barrier is over, with thread 0's reads of the level's words, so
# a warp 0 with tickets in the level starts with its element and one round trip (indptr) to go
# instead of two (2026-12-07-next-bfs-warp0-look.patch). Predicted: up to one round trip (about
# 0.5 us) a small level if warp 0 sets the pace, road-2M up to about 1 ms; nothing on Kron-21.
# Trees: head = the commit given; w0 = head with the patch. Rounds head w0 w0 head of run 376's
# probe, then the BFS GPU tests on w0, then the red per-level stamps of run 379 on head and w0
# (their strings moved to main's expand_row call; STAMPS=0 skips them). $OUT/w0.tgz after every
# step. About 3 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-warp0-look.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py; W=/tmp/t/w0; S=/tmp/t/stamps.py
H=/tmp/t/head; rm -rf /tmp/t && mkdir -p $W $H "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml $W/
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml $H/  # the stamps' copy of head
(cd $W && patch -s -p1 < "$R/benchmarks/results/2026-12-07-next-bfs-warp0-look.patch") || echo "PATCH FAILED"
cp benchmarks/results/2026-12-02-h200-run293-297-bfs-stamps.py $S
patch -s $S < "$R/benchmarks/results/2026-12-02-next-bfs-stamps-red.patch" || echo "STAMPS PATCH FAILED"
sed -i 's/expand(g, s, u, got, level + 1, look/expand_row(g, s, u, got, begin, row_end, level + 1, look/g' $S
pack() { tar -czf "$OUT/w0.tgz" -C "$OUT" x; }
t0=$(date +%s)
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
( cd $W && QUEUES=sfq PYTHONPATH=$W python3 "$P" build > "$OUT/x/build-w0.log" 2>&1 ) &
( QUEUES=sfq PYTHONPATH=$R python3 "$P" build > "$OUT/x/build-head.log" 2>&1 ) &
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for tree in ${ROUNDS:-head w0 w0 head}; do
  T=$R; [ $tree != head ] && T=$W
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd $W && PYTHONPATH=$W timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-tests-w0.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for tree in head w0; do
  T=$H; [ $tree = w0 ] && T=$W
  python3 $S $T /tmp/t/st-$tree || { echo "STAMP STRINGS FAILED ($tree)"; continue; }
  (cd /tmp/t/st-$tree && PYTHONPATH=/tmp/t/st-$tree timeout 150 python3 $S run /tmp/t/st-$tree /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$tree.log")
  pack
done
