#!/usr/bin/env bash
# Run 378 (prepared 2026-12-07 after run 377): SFQ's queue BFS with its emits' wave_faa_n over the
# whole warp, without the lane-grouping __match_any_sync. Counted first (NVRTC 13.5, sm_90,
# nvdisasm, SFQ's bfs_queue): every batch of emits (BatchEmit -> Sfq::enqueue_batch -> wave_faa_n)
# runs MATCH.ANY.U64 on Tail's address (peers), then a MATCH.ANY and REDUX.OR that check the
# shuffle's computed mask; three such sites inside a level, where compaction's push_vertices has
# none. BatchEmit calls it after a kFullWarp ballot, so the warp is whole and every lane's word is
# the same queue's Tail: the grouping answers nothing there.
# Trees (copies of the working tree with a macro, the SFQ build of bfs.cu only):
#   head = the commit given;  fw = wave_faa_n's mask the constant full warp (every MATCH and
#   REDUX of the level gone). (am, the active mask, drops only the MATCH.ANY.U64; built, not timed,
#   for want of device time.)
# Predicted: a few tenths of a microsecond a level at most; road-2M's gap to compaction is about
# 1.1 us a level (2,251 levels), so up to a few per cent on the road graphs, nothing on Kron-21.
# SFQ's queue BFS and compaction in rounds head-fw-fw-head (run 376's probe), then the BFS GPU
# tests on fw. $OUT/wave-n.tgz is rewritten after every step. About 2 minutes warm.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-wave-n-whole-warp.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-06-run376-bfs-time.py
rm -rf /tmp/t && mkdir -p "$OUT/x"
pack() { tar -czf "$OUT/wave-n.tgz" -C "$OUT" x; }
for v in am fw; do
  X=/tmp/t/$v; mkdir -p $X && cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml $X/
  m='active_mask()'; [ $v = fw ] && m='0xffffffffu'
  python3 - "$X" "$m" <<'PY' || echo "PATCH FAILED $v"
import sys
x, m = sys.argv[1], sys.argv[2]
p = f"{x}/queues_cuda/include/gq/wave_faa.cuh"
s = open(p).read()
old = "GQ_HD GQ_INLINE uint64_t wave_faa_n(uint64_t* counter, uint32_t n) {\n  const uint32_t mask = peers(active_mask(), counter);"
assert old in s
s = s.replace(old, old.replace("  const uint32_t mask = peers", "#if defined(GQ_WAVE_N_ONE_WORD) && GQ_DEVICE_BUILD\n  const uint32_t mask = %s;\n#else\n  const uint32_t mask = peers" % m) + "\n#endif")
open(p, "w").write(s)
p = f"{x}/sssp_demo/kernels/bfs.cu"
s = open(p).read()
old = "#define GQ_ATOMICS_GLOBAL 1"
assert old in s
open(p, "w").write(s.replace(old, "#if defined(GQ_QUEUE_KIND) && GQ_QUEUE_KIND == 2\n#define GQ_WAVE_N_ONE_WORD 1\n#endif\n" + old, 1))
PY
done
t0=$(date +%s)
( PYTHONPATH=$R python3 benchmarks/results/2026-12-02-h200-run289-bfs-time.py gen /tmp/g > "$OUT/x/gen.log" 2>&1 ) &
gen=$!
for v in fw; do ( cd /tmp/t/$v && QUEUES=sfq PYTHONPATH=/tmp/t/$v python3 "$P" build > "$OUT/x/build-$v.log" 2>&1 ) & done
( QUEUES=sfq PYTHONPATH=$R python3 "$P" build > "$OUT/x/build-head.log" 2>&1 ) &
wait $(jobs -p | grep -v "^$gen$")
echo "builds: $(( $(date +%s) - t0 )) s"
wait; echo "graphs: $(( $(date +%s) - t0 )) s"
for tree in head fw fw head; do
  T=$R; [ $tree != head ] && T=/tmp/t/$tree
  QUEUES=sfq PYTHONPATH=$T timeout 60 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  pack
done
python3 benchmarks/results/2026-12-06-run376-summary.py "$OUT/x/ab.jsonl" | tee "$OUT/x/summary.txt"; pack
for v in fw; do
  (cd /tmp/t/$v && PYTHONPATH=/tmp/t/$v timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-tests-$v.log")
  pack
done
