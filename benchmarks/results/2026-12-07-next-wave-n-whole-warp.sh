#!/usr/bin/env bash
# Run 378, prepared 2026-12-07 after run 377 and not run (the session's device time ran out):
# SFQ's queue BFS with its emits' wave_faa_n over the whole warp, without the lane grouping's
# __match_any_sync (2026-12-07-next-wave-n-whole-warp.patch: wave_faa_n<..., kWholeWarp> and
# Sfq::enqueue_batch<..., kWholeWarp>, which BatchEmit asks for).
# Counted first (NVRTC 13.5, sm_90, nvdisasm, SFQ's bfs_queue): each batch of emits (BatchEmit ->
# Sfq::enqueue_batch -> wave_faa_n) runs MATCH.ANY.U64 on Tail's address (peers), then a MATCH.ANY
# and a REDUX.OR that check the computed mask before its ballots and shuffle: three such sites
# inside a level, where compaction's appends (push_vertices) have none. BatchEmit calls it after a
# kFullWarp ballot, so the whole warp is there and every lane names the same queue's Tail: the
# grouping finds nothing. With the patch no MATCH or REDUX is left inside a level (those of the
# kernel's first draws remain); every other module is unchanged (the flag defaults to false).
# Predicted: a few tenths of a microsecond a level at most against road-2M's gap to compaction of
# about 1.1 us a level (2,251 levels), so up to a few per cent on the road graphs, none on Kron-21.
# Trees: head = the commit given; fw = head with the patch. SFQ's queue BFS and compaction in
# rounds head-fw-fw-head (run 376's probe), then the BFS GPU tests on fw. $OUT/wave-n.tgz is
# rewritten after every step. About 2 minutes warm, any card.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-wave-n-whole-warp.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py; X=/tmp/t/fw
rm -rf /tmp/t && mkdir -p $X "$OUT/x"
cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml $X/
(cd $X && patch -s -p1 < "$R/benchmarks/results/2026-12-07-next-wave-n-whole-warp.patch") || echo "PATCH FAILED"
pack() { tar -czf "$OUT/wave-n.tgz" -C "$OUT" x; }
t0=$(date +%s)
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
( cd $X && QUEUES=sfq PYTHONPATH=$X python3 "$P" build > "$OUT/x/build-fw.log" 2>&1 ) &
( QUEUES=sfq PYTHONPATH=$R python3 "$P" build > "$OUT/x/build-head.log" 2>&1 ) &
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for tree in head fw fw head; do
  T=$R; [ $tree = fw ] && T=$X
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
(cd $X && PYTHONPATH=$X timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-tests-fw.log")
pack
