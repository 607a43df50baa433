#!/usr/bin/env bash
# Run 387, 2026-12-07. Run 386 (ns: the pollers kept polling through the words' round trip, with
# no block barrier after it) made every road level slower by about 0.4 us, its release and first
# item both later. So slot polls around the release may cost the critical path. Most of them are
# futile on a road graph: a lane looks while its ticket is within kPollWindow = 8192 of the end,
# and a road level fills about 900 of those slots, so about 230 warps keep peeking slots that stay
# empty. Two windows (patches of bfs_queue.h's TicketsAhead):
#   wa = 2026-12-07-next-bfs-poll-window-adaptive.patch: twice the level just drained plus two
#        warps' runs, at most 8192 (a road level's next frontier is about as large as its own);
#   w1 = 2026-12-07-next-bfs-poll-window-1k.patch: 1024.
# Predicted: if futile polls cost, road-2M and road-24M faster in both (w1 may lose looks on the
# larger levels); Kron-21 and Delaunay-21 about even. If not, all even.
# Rounds head wa w1 w1 wa head of run 376's probe, the BFS GPU tests on wa, then the per-level
# stamps (2026-12-07-next-bfs-barrier-stamps.py) on head and wa (STAMPS=0 skips them).
# $OUT/pw.tgz after every step. About 3 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-poll-window.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
for t in wa w1; do
  mkdir -p /tmp/t/$t && cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$t/
done
(cd /tmp/t/wa && patch -s -p1 < "$B/2026-12-07-next-bfs-poll-window-adaptive.patch") || echo "PATCH FAILED (wa)"
(cd /tmp/t/w1 && patch -s -p1 < "$B/2026-12-07-next-bfs-poll-window-1k.patch") || echo "PATCH FAILED (w1)"
pack() { tar -czf "$OUT/pw.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head wa w1; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head wa w1 w1 wa head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/wa && PYTHONPATH=/tmp/t/wa timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/wa: /" | tee -a "$OUT/x/gpu-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head wa; do
  python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
