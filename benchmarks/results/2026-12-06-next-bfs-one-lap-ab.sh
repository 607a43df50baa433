#!/usr/bin/env bash
# Prepared in the ninth session of 2026-12-06, when the device time ran out (run 374 could not
# start): two more steps for SFQ's queue BFS after the one-lap view (55d23d9, run 373), each
# CPU-tested, neither measured:
#   nohb = the one-lap take without its hand-back store (2026-12-06-next-sfq-one-lap-no-handback.patch,
#          committed as 3c2042b and reverted unmeasured in 181e063): no enqueuer of a later lap waits
#          for one, so the store is dead; one store an element fewer before the level's barrier.
#   lb1  = bfs_queue's and bfs_compaction's __launch_bounds__(256, 1). With (256) alone ptxas gives
#          the one-lap queue kernel 64 registers and 40 B of spill stores (the old kernel had 80
#          and none) and compaction 48 registers and 20 B; with (256, 1) 80 and 64, no spills
#          (ptxas -v, NVRTC of cuda-bindings). Compaction gets it too: the baseline keeps its best.
# Trees are copies of the working tree (main's code) with the patch or the sed; run 289's probe
# times SFQ's queue form and compaction in each, rounds head-nohb-lb1-both-both-lb1-nohb-head, then
# the BFS GPU tests run on each changed tree. About 5 minutes warm on any card.
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-06-next-bfs-one-lap-ab.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=$PWD; P=$R/benchmarks/results/2026-12-02-h200-run289-bfs-time.py
rm -rf /tmp/t && mkdir -p /tmp/t
for tree in nohb lb1 both; do
  mkdir -p /tmp/t/$tree && cp -r queues_cuda sssp_demo gq raytrace tests pyproject.toml /tmp/t/$tree/
  case $tree in nohb|both) (cd /tmp/t/$tree && { patch -s -p1 < "$R/benchmarks/results/2026-12-06-next-sfq-one-lap-no-handback.patch" || git apply "$R/benchmarks/results/2026-12-06-next-sfq-one-lap-no-handback.patch"; });; esac
  case $tree in lb1|both) sed -i 's/^extern "C" __global__ void __launch_bounds__(256)$/extern "C" __global__ void __launch_bounds__(256, 1)/' /tmp/t/$tree/sssp_demo/kernels/bfs.cu;; esac
done
mkdir -p "$OUT/x"
( time PYTHONPATH=$R python3 "$P" gen /tmp/g ) 2>&1 | tail -3
tree_of() { [ "$1" = head ] && echo "$R" || echo "/tmp/t/$1"; }
for tree in head nohb lb1 both both lb1 nohb head; do
  T=$(tree_of $tree)
  GQ_CACHE_DIR=/tmp/cache-$tree PYTHONPATH=$T timeout 150 python3 "$P" time "$T" $tree /tmp/g "$OUT/x/ab.jsonl" 2>&1 | grep -v -i warn | tail -2
  echo "timed $tree"
done
python3 benchmarks/results/2026-12-06-run373-summary.py "$OUT/x"
for tree in nohb lb1 both; do
  T=$(tree_of $tree)
  (cd "$T" && GQ_CACHE_DIR=/tmp/cache-$tree PYTHONPATH=$T timeout 120 python3 -m pytest -q -m gpu tests/sssp_demo/test_bfs_gpu.py 2>&1 | tail -1 | tee "$OUT/x/bfs-gpu-tests-$tree.log")
done
tar -czf "$OUT/next-bfs-one-lap-ab.tgz" -C "$OUT" x && rm -rf "$OUT/x"
