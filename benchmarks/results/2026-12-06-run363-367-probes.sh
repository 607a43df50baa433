# Runs 363-367 (2026-12-06, seventh session; an NVIDIA H100 80GB HBM3 each time). What each device
# call ran, in the repository root of the commit named. The device's copy kept the session's first
# HEAD (622dfd3) in its git metadata, so `git rev-parse` there named that; the suite runs say the
# commit through GQ_COMMIT (but run 366 took its GQ_COMMIT from git too: 622dfd3). runs/p364/ymc_bfs_probe.py and ymc_bfs_stats.py are
# 2026-12-06-run364-ymc-bfs-probe.py and 2026-12-06-run365-366-ymc-bfs-stats.py here (tidied after the
# runs: names, imports, files closed; the same computation).

# run 363 (fa44c57), the H200 kind named
GQ_COMMIT=fa44c57 GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_STAGES="ymc queue-bench queue-ncu" bash tools/gpu-suite.sh 2>&1 | tail -45

# run 364 (fa44c57), carry runs/p364 (2026-12-06-run364-ymc-bfs-probe.py)
PYTHONPATH=$PWD timeout 280 python3 runs/p364/ymc_bfs_probe.py 2>&1 | tail -25

# run 365 (fa44c57): 2026-12-06-run365-366-ymc-bfs-stats.py as first written: one build, with
# ("GQ_QUEUE_STATS",) only, and no loop over patience
PYTHONPATH=$PWD timeout 200 python3 runs/p364/ymc_bfs_stats.py 2>&1 | tail -12

# run 366 (a793291), carry runs/p364 and .whl: runs/p364/call.sh
set -u
C=$(git rev-parse --short HEAD)
GQ_COMMIT=$C GQ_DIRTY=0 GQ_STAGES="ymc" bash tools/gpu-suite.sh 2>&1 | tail -4
PYTHONPATH=$PWD timeout 120 python3 runs/p364/ymc_bfs_stats.py 2>&1 | tail -4
PYTHONPATH=$PWD timeout 120 python3 -m gq bfs --generate kron --scale 21 --queue ymc --bench 2>&1 | tail -7
PYTHONPATH=$PWD timeout 100 python3 -m gq bfs --generate road --vertices 2000000 --queue ymc --bench 2>&1 | tail -7
mkdir -p $OUT/qb && OUT=$OUT/qb GQ_COMMIT=$C GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_STAGES="queue-bench" bash tools/gpu-suite.sh 2>&1 | grep -E "^ymc +(balanced|split) .*(4096|262144) "
python3 -m pip install -q --no-index --find-links .whl trimesh
PYTHONPATH=$PWD timeout 150 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml --width 1920 --height 1080 \
  --spp 4 --backend cuda --accel bvh --queue ymc --json $OUT/render-ymc.json --chart /tmp/x.png 2>&1 | tail -8

# run 367 (8ed1bd0), carry runs/p364 and .whl: runs/p364/call2.sh
set -u
C=8ed1bd0
GQ_COMMIT=$C GQ_DIRTY=0 GQ_STAGES="ymc" bash tools/gpu-suite.sh 2>&1 | tail -4
mkdir -p $OUT/qb && OUT=$OUT/qb GQ_COMMIT=$C GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_STAGES="queue-bench" bash tools/gpu-suite.sh 2>&1 | tail -3
grep -E "^ymc +split +25 +(65536|131072|262144) " $OUT/qb/w/queue-bench.log 2>/dev/null || (cd $OUT/qb && tar -xzf 0-suite.tgz queue-bench.log -O | grep -E "^ymc +split +25 +(65536|131072|262144) ")
PYTHONPATH=$PWD timeout 100 python3 -m gq bfs --generate kron --scale 21 --queue ymc --bench 2>&1 | tail -7
python3 -m pip install -q --no-index --find-links .whl trimesh
PYTHONPATH=$PWD timeout 120 python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml --width 1920 --height 1080 \
  --spp 4 --backend cuda --accel bvh --queue ymc --json $OUT/render-ymc.json --chart /tmp/x.png 2>&1 | tail -6
