#!/usr/bin/env bash
# Run 392, 2026-12-07. Run 391 (two barrier polls in flight) left the release's spread as it was
# (0.38 -> 0.42 us), so the spread is not the poll's period. Compaction's last first item comes
# 0.45 us after the first release although it needs a frontier read after its block's release: its
# small levels' items sit in the lowest ranks, blocks 0-3, which the release reaches early. The
# queue form's runs of tickets were drawn by fetch-add at the kernel's start, in whatever order the
# warps came, so a road level's ~29 runs sit in ~29 blocks, and its last first item waits for the
# latest of them (0.61-0.67 us; every one held at the barrier, run 390). co = head +
# 2026-12-07-next-bfs-rank-runs.patch: every working warp's first run on each queue by rank (a
# block's warps together), the leader moving both Heads past them; the warps that redraw then keep
# a level's runs in the blocks that had them.
# Predicted: if the blocks' release order is stable, road-2M's last first item near compaction's
# (0.45 us), up to 0.2 us a level; if not, even. Kron-21 even.
# Rounds head co co head of run 376's probe, the BFS GPU tests on co, then the per-level stamps
# (STAMPS_AT=held) on head and co. $OUT/co.tgz after every step. About 3 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-bfs-rank-runs.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; B=$R/benchmarks/results; P=$B/2026-12-06-run376-bfs-time.py; S=$B/2026-12-07-next-bfs-barrier-stamps.py
rm -rf /tmp/t && mkdir -p /tmp/t/head /tmp/t/co "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace pyproject.toml /tmp/t/head/  # the stamps' copy of head
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/co/
(cd /tmp/t/co && patch -s -p1 < "$B/2026-12-07-next-bfs-rank-runs.patch") || echo "PATCH FAILED (co)"
pack() { tar -czf "$OUT/co.tgz" -C "$OUT" x; }
tree_of() { [ $1 = head ] && echo $R || echo /tmp/t/$1; }
t0=$(date +%s)
( PYTHONPATH=$R python3 "$B/2026-12-02-h200-run289-bfs-time.py" gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for t in head co; do ( cd $(tree_of $t) && QUEUES=sfq PYTHONPATH=$(tree_of $t) python3 "$P" build > "$OUT/x/build-$t.log" 2>&1 ) & done
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for t in ${ROUNDS:-head co co head}; do
  T=$(tree_of $t)
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $t /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 "$B/2026-12-06-run376-summary.py" "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd /tmp/t/co && PYTHONPATH=/tmp/t/co timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | sed "s/^/co: /" | tee -a "$OUT/x/gpu-tests.log")
pack
[ "${STAMPS:-1}" = 1 ] || exit 0
for t in head co; do
  STAMPS_AT=held python3 $S /tmp/t/$t /tmp/t/st-$t || { echo "STAMP STRINGS FAILED ($t)"; continue; }
  (cd /tmp/t/st-$t && PYTHONPATH=/tmp/t/st-$t STAMPS_AT=held timeout 150 python3 $S run /tmp/t/st-$t /tmp/g 2>&1 | grep -v -i warn | tee "$OUT/x/stamps-$t.log")
  pack
done
