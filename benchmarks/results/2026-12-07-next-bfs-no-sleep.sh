#!/usr/bin/env bash
# Run 393, 2026-12-07. Runs 390-392: every first item of a road level is held at the barrier, and
# the last of them still comes about 0.2 us after compaction's last first item, whichever blocks
# hold them. A poller whose element is held (or whose ticket is outside the window) steps by
# __nanosleep(64), and the block's barrier after the wait waits for every warp: if a sleep lasts
# longer than asked, the held warps see the release late and hold their block back with them.
# nb = head + 2026-12-07-next-bfs-no-sleep.patch: such a step does nothing, so the warp re-reads
# the shared word at once (a loop of shared loads). Predicted: if the sleeps are what is late, the
# last first item near compaction's, up to 0.2 us a road level (road-2M up to 0.45 ms); else even.
# Rounds head nb nb head of run 376's probe, the BFS GPU tests on nb, then the per-level stamps
# (STAMPS_AT=held) on head and nb. $OUT/nb.tgz after every step. About 2.5 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-no-sleep.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/nb "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/nb/
(cd /tmp/t/nb && patch -s -p1 < "$B/2026-12-07-next-bfs-no-sleep.patch") || echo "PATCH FAILED (nb)"
pack() { tar -czf "$OUT/nb.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head nb; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head nb nb head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/nb && PYTHONPATH=/tmp/t/nb timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/nb: /" | tee -a "$OUT/x/gpu-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head nb; do
  STAMPS_AT=held python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t STAMPS_AT=held timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
