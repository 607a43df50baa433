#!/usr/bin/env bash
# Run 379, 2026-12-07: SFQ's queue BFS with its next level's dequeuers looking at their slots while
# they wait at the level's barrier (2026-12-07-next-bfs-barrier-peek.patch: Grid::sync_read with a
# Poll, TicketsAhead::step, Sfq::peek and Sfq::hand_back). Counted first (sm_90 SASS of main's
# bfs_queue): after the barrier a level's first item costs thread 0's read of the level's words
# (one round trip), the block barrier, then the take's slot read (a second round trip) before the
# row's indptr reads; compaction's chain is the same length, with its frontier read for the take.
# The slot read is the one a queue can start early: a lane holds its ticket on the next level's
# queue all through the level, and a slot's turn says whether its element is there, where an array
# entry cannot say it has been written this level. The emits end at least a barrier (1.25 us)
# before the next level starts, so by the release most peeks have found their element.
# Predicted: up to one round trip (0.5-0.6 us) off each small level's start, road-2M's 2,251 levels
# about 1.2 ms of its 1.04 ms gap to compaction, road-24M up to 4-5 ms; the pollers' reads (warps
# with tickets within 8,192 of the end, from their block's arrival to the release) should cost
# the working blocks nothing that shows. Kron-21: nothing either way. The row tree
# (2026-12-07-next-bfs-barrier-peek-row.patch: the same, and a lane that sees its element reads its
# row's bounds too, expand_row) may take a second round trip: up to twice that.
# Trees: head = the commit given; pk and row = head with each patch. SFQ's queue BFS and compaction
# in rounds head-pk-row-row-pk-head (run 376's probe), the BFS GPU tests on row and pk, then the
# per-level stamps of runs 293-306 (as red, 2026-12-02-next-bfs-stamps-red.patch) on head and pk.
# $OUT/peek.tgz is rewritten after every step. About 6 minutes warm, any card.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-barrier-peek.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py; H=/tmp/t/head; S=/tmp/t/stamps.py
rm -rf /tmp/t && mkdir -p $H "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml $H/
for v in pk row; do
  mkdir -p /tmp/t/$v && cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$v/
  f=2026-12-07-next-bfs-barrier-peek.patch; [ $v = row ] && f=2026-12-07-next-bfs-barrier-peek-row.patch
  (cd /tmp/t/$v && patch -s -p1 < "$R/benchmarks/results/$f") || echo "PATCH FAILED ($v)"
done
cp benchmarks/results/2026-12-02-h200-run293-297-bfs-stamps.py $S
patch -s $S < "$R/benchmarks/results/2026-12-02-next-bfs-stamps-red.patch" || echo "STAMPS PATCH FAILED"
pack() { tar -czf "$OUT/peek.tgz" -C "$OUT" x; }
t0=$(date +%s)
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for v in pk row; do ( cd /tmp/t/$v && QUEUES=sfq PYTHONPATH=/tmp/t/$v python3 "$P" build > "$OUT/x/build-$v.log" 2>&1 ) & done
( QUEUES=sfq PYTHONPATH=$R python3 "$P" build > "$OUT/x/build-head.log" 2>&1 ) &
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for tree in ${ROUNDS:-head pk row row pk head}; do  # ROUNDS="head row row head": a shorter call
  T=$R; [ $tree != head ] && T=/tmp/t/$tree
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
for v in row pk; do
  case " ${ROUNDS:-pk row} " in *" $v "*) ;; *) continue ;; esac
  (cd /tmp/t/$v && PYTHONPATH=/tmp/t/$v timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-tests-$v.log")
  pack
done
[ "${STAMPS:-1}" = 1 ] || exit 0  # STAMPS=0: the A/B and tests only (about 4 minutes)
for tree in head pk; do
  T=$H; [ $tree = pk ] && T=/tmp/t/pk
  python3 $S $T /tmp/t/st-$tree || echo "STAMP STRINGS FAILED ($tree)"
  (cd /tmp/t/st-$tree && PYTHONPATH=/tmp/t/st-$tree timeout 150 python3 $S run /tmp/t/st-$tree /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$tree.log")
  pack
done
