# The probe.sh of runs 291-298 as each ran on the device (carry: runs/ and probe.sh, both
# gitignored). runs/bfs_time.py is 2026-12-02-h200-run289-bfs-time.py; runs/bfs_stamps.py is
# 2026-12-02-h200-run293-297-bfs-stamps.py; each tree runs/t/NAME came from
#   git archive <commit> queues_cuda sssp_demo tools gq | tar -x -C runs/t/NAME      (base: 265702c)
# or a tar of the working tree at that step (ahead, size, run, reg, ord, peel: see README.md,
# section "runs 291-298"); runs/st was `python3 runs/bfs_stamps.py runs/t/NAME runs/st`.

# ---- runs 291, 292, 294, 295, 296, 297 (bash probe.sh <label>): TREES and whether the tests ran
# varied: 291 "base new" + barrier and BFS GPU tests; 292 "base ahead size" + BFS tests;
# 294 "base size run" + BFS tests + stamps of run; 295 "base run reg" + BFS tests + stamps of reg;
# 296 the same script as 295 with runs/t/run gone, the working tree (ord) under the tests and the
# stamps; 297 "reg peel" + stamps of peel, two rounds each (294-296 two rounds, 297 two rounds).
set -u
R=$PWD
export GQ_COMMIT=$1 GQ_DIRTY=1
G=/tmp/g
(PYTHONPATH=$R python3 runs/bfs_time.py gen $G > $OUT/gen.log 2>&1) &
gen=$!
timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_grid_barrier.py > $OUT/barrier-tests.log 2>&1  # 291 only
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py > $OUT/bfs-tests.log 2>&1
wait $gen
for r in 1 2; do
  for t in $TREES; do
    d=$R/runs/t/$t
    (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t timeout 100 python3 $R/runs/bfs_time.py time $d $t $G $OUT/bfs.jsonl) > $OUT/$t-$r.log 2>&1
  done
done
# (a table of kernel ms by graph, algorithm, blocks an SM and tree from bfs.jsonl, then:)
d=$R/runs/st
(cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-st timeout 200 python3 $R/runs/bfs_stamps.py run $d $G) > $OUT/stamps.log 2>&1

# ---- run 293 (stamps of the tree "size" alone)
PYTHONPATH=$R python3 runs/bfs_time.py gen $G > $OUT/gen.log 2>&1
d=$R/runs/st
(cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-st timeout 300 python3 $R/runs/bfs_stamps.py run $d $G) > $OUT/stamps.log 2>&1

# ---- run 298 (the tree at 7d54da5)
GQ_COMMIT=7d54da5 GQ_DIRTY=0 GQ_STAGES="bfs barrier-probe" bash tools/gpu-suite.sh > $OUT/suite.txt 2>&1
