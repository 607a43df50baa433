#!/usr/bin/env bash
# run 270: every atomic of arch.cuh spelt with .global (no generic-address fallback code: G-LFQ's
# bench kernel 5,544 -> 4,480 SASS instructions, rt_tiles 6,536 -> 6,320 by NVRTC 13.0.88) against
# the working tree (4cf099c+): G-LFQ and G-WFQ balanced at 2^14-2^18 and the render bench (G-LFQ,
# both scenes), alternating. A probe only: the hacked tree is not safe for kernels with atomics on
# shared memory (the BFS and heaps are not run).
# runs/tglob.tar was made here by:
#   git archive 4cf099c queues_cuda raytrace sssp_demo gq pyproject.toml | tar x -C tree
#   sed -i 's/atom\.\(relaxed\|acquire\|release\|acq_rel\)\.gpu\./atom.\1.gpu.global./g' tree/queues_cuda/include/gq/arch.cuh
#   tar cf runs/tglob.tar -C tree .
# The render rows of this script found no scenes/ in the hacked tree; they were run again in a
# second call with the scenes' absolute paths:
#   for round in 1 2; do for tree in base glob; do ... python3 -m gq bench render --scene $R/scenes/spheres100.toml
#     --scene $R/scenes/cornell.toml --width 1920 --height 1080 --queue glfq --json $OUT/r-$tree-$round.json; done; done
set -u
R=$PWD
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --find-links .whl trimesh > /dev/null 2>&1
mkdir -p /tmp/glob && tar xf runs/tglob.tar -C /tmp/glob
for round in 1 2; do
  for tree in base glob; do
    d=$R; [ $tree = glob ] && d=/tmp/glob
    (cd $d && GQ_CACHE_DIR=/tmp/gq-cache-$tree PYTHONPATH=$d timeout 150 python3 -m gq bench queues --kernel balanced \
      --threads 2^14..2^18 --queue glfq,gwfq --runs 7 --json $OUT/q-$tree-$round.json --chart $OUT/q-$tree-$round.png 2>&1 \
      | grep -E "^(glfq|gwfq) " | sed "s/^/$tree $round /")
    (cd $d && GQ_CACHE_DIR=/tmp/gq-cache-$tree PYTHONPATH=$d timeout 150 python3 -m gq bench render --scene scenes/spheres100.toml \
      --scene scenes/cornell.toml --width 1920 --height 1080 --queue glfq --json $OUT/r-$tree-$round.json 2>&1 \
      | grep -E "compaction|queue" | grep -v measuring | sed "s/^/$tree $round /")
  done
done
