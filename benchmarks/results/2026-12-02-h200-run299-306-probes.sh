# The probe.sh of runs 299-306 as each ran on the device (carry: runs/ and probe.sh, both
# gitignored). runs/bfs_time.py is 2026-12-02-h200-run289-bfs-time.py (for runs 303 and 305 with one change:
# it also kept the median whole-run ms that CudaBfs.time returns, as "ms"); runs/init_time.py is
# 2026-12-02-h200-run299-init-time.py. Each tree runs/t/NAME came from
#   git archive 3ae1750 queues_cuda sssp_demo tools gq | tar -x -C runs/t/NAME
# (plus `tests pyproject.toml raytrace` for a tree whose GPU tests ran), then its patch:
#   draw, runs4   2026-12-02-next-ab-barrier-draw.patch, 2026-12-02-next-ab-ticket-runs4.patch (patch -p1)
#   crot, home48, want25, cold, crot2, draw1   their sections of 2026-12-02-h200-run300-305-variants.patch
#   home16        home48 with 16 blocks;  want2x   want25 with want_lanes = 2 * count + 256
#   new           git archive 9a32923 (no patch)
#
# ---- runs 299-302 and 305 (bash probe.sh <label>; TESTS = trees whose BFS GPU tests ran, TREES = trees timed)
#   299: TESTS="draw runs4" TREES="base draw runs4", and runs/init_time.py on the working tree (3ae1750)
#   300: TESTS="" TREES="base crot home16 home48"
#   301: TESTS="want25" TREES="base want25 want2x"
#   302: TESTS="cold" TREES="base cold"
set -u
R=$PWD
export GQ_COMMIT=$1 GQ_DIRTY=1
G=/tmp/g
(PYTHONPATH=$R python3 runs/bfs_time.py gen $G > $OUT/gen.log 2>&1) &
gen=$!
for t in $TESTS; do
  d=$R/runs/t/$t
  (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py) > $OUT/tests-$t.log 2>&1
done
wait $gen
(PYTHONPATH=$R GQ_CACHE_DIR=/tmp/c-base timeout 100 python3 runs/init_time.py $G) > $OUT/init.log 2>&1  # 299 only
for r in 1 2; do
  for t in $TREES; do
    d=$R/runs/t/$t
    (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t timeout 100 python3 $R/runs/bfs_time.py time $d $t $G $OUT/bfs.jsonl) > $OUT/$t-$r.log 2>&1
  done
done
# (a table of kernel ms, the best of the two rounds, by graph, algorithm, blocks an SM and tree)

# ---- run 303 (bash probe.sh 9a32923; TREES="base new"): the suite's bfs stage on the working tree
# (9a32923), then the two trees timed as above (kernel and whole-run ms)
GQ_COMMIT=$1 GQ_DIRTY=0 GQ_STAGES="bfs" bash tools/gpu-suite.sh > $OUT/suite.txt 2>&1

# ---- run 304 (bash probe.sh 3ae1750+stamps): stamped copies made here, before the call, by
#   python3 runs/bfs_stamps.py runs/t/NAME runs/st-NAME        for NAME in base crot2 want25
PYTHONPATH=$R python3 runs/bfs_time.py gen $G > $OUT/gen.log 2>&1
for t in base crot2 want25; do
  d=$R/runs/st-$t
  (cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-$t timeout 110 python3 $R/runs/bfs_stamps.py run $d $G) > $OUT/stamps-$t.log 2>&1
done

# ---- run 305 (bash probe.sh 3ae1750+draw1): as runs 299-302 with TESTS="draw1" TREES="base draw1"

# ---- run 306 (bash probe.sh 3ae1750+draw1-stamps): runs/st-draw1 made here by
#   python3 runs/bfs_stamps.py runs/t/draw1 runs/st-draw1
PYTHONPATH=$R python3 runs/bfs_time.py gen $G > $OUT/gen.log 2>&1
d=$R/runs/st-draw1
(cd $d && PYTHONPATH=$d GQ_CACHE_DIR=/tmp/c-st timeout 110 python3 $R/runs/bfs_stamps.py run $d $G) > $OUT/stamps-draw1.log 2>&1
