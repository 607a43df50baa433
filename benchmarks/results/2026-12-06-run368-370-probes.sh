# Runs 368-370 (2026-12-06, eighth session; an NVIDIA H100 80GB HBM3 each time). The H200 kind was
# named for runs 368 and 370 and an H100 came; a first try of run 369 and one of run 370 got no
# machine. Five later calls for an H200 (runs/ab368/call4.sh twice, then
# 2026-12-06-next-ymc-h200.sh three times): three got H100s and ran nothing, two got no machine. Run 371's one suite line is in its record. What each device call ran, in the
# repository root. runs/ab368/{lane,none,slow} were `git archive 4bfe742` trees, `none` with
# Ymc::catchup's body removed and `slow` without the fast path's call of it; `agg` was the root,
# d28c99e. runs/ab368/bfs_time.py is 2026-12-06-run368-ymc-bfs-time.py here (tidied after the run:
# the same computation); runs/ab368/summary.py printed 2026-12-06-h100-run368-ymc-catchup-ab.txt
# (its labels tidied after the run).

# run 368 (d28c99e), carry runs/ab368: runs/ab368/call1.sh
set -u
C=d28c99e
mkdir -p $OUT/x
GQ_COMMIT=$C GQ_DIRTY=0 GQ_STAGES="ymc" bash tools/gpu-suite.sh 2>&1 | tail -4
dir() { [ $1 = agg ] && echo . || echo runs/ab368/$1; }
for r in agg lane none slow agg lane none slow; do
  n=$RANDOM
  (cd $(dir $r) && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 70 python3 -m gq bench queues --queue ymc \
    --kernel split --producers 25 --threads 2^16..2^18 --duration 0.04 --warmup 0.01 --runs 5 \
    --json $OUT/x/qb-$r-$n.json --chart /tmp/x.png > $OUT/x/qb-$r-$n.log 2>&1; echo "qb $r rc=$?")
done
for r in agg lane none; do
  (cd $(dir $r) && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 70 python3 -m gq bench queues --queue ymc \
    --kernel split --producers 25 --threads 2^17,2^18 --duration 0.04 --warmup 0.01 --runs 1 --stats \
    --json $OUT/x/st-$r.json --chart /tmp/x.png > $OUT/x/st-$r.log 2>&1; echo "stats $r rc=$?")
done
for r in agg lane none slow; do
  (cd $(dir $r) && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 90 python3 $OLDPWD/runs/ab368/bfs_time.py $r $OUT/x/bfs-$r.json 2>&1 | tail -5)
done
for r in agg lane; do
  (cd $(dir $r) && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 60 python3 -m gq bench queues --queue ymc \
    --kernel both --producers 50,75 --threads 2^18 --duration 0.04 --warmup 0.01 --runs 5 \
    --json $OUT/x/qo-$r.json --chart /tmp/x.png > $OUT/x/qo-$r.log 2>&1; echo "other $r rc=$?")
done
python3 runs/ab368/summary.py $OUT/x
tar -czf $OUT/call1.tgz -C $OUT x && rm -rf $OUT/x

# runs/ab368/summary.py
# # The A/B's table: YMC's 25 % split (G ops/s, median of 5, each variant twice), the counters, the BFS.
# import glob, json, os, sys
# from collections import defaultdict
# d = sys.argv[1]
# ops = defaultdict(list)
# for f in sorted(glob.glob(d + "/q[bo]-*.json")):
#     v = os.path.basename(f)[:-5].split("-")[1]
#     for r in json.load(open(f))["rows"]:
#         key = (r["kernel"], r.get("producers_pct"), r["threads"])
#         ops[key].append((v, r["ops_per_s_median"], r.get("stalls"), r.get("empty_per_op")))
# for key in sorted(ops, key=str):
#     print(*key, "  ".join((f"{v} {o/1e9:.2f}G e{e:.2f}" if o is not None else f"{v} no figure (its first two runs over budget)")
#                           + (f" s{s}" if s else "") for v, o, s, e in ops[key]))
# for f in sorted(glob.glob(d + "/st-*.json")):
#     v = os.path.basename(f)[3:-5]
#     for s in json.load(open(f)).get("stats", []):
#         print("stats", v, s["threads_run"], {k: (round(s[k], 4) if isinstance(s[k], float) else s[k])
#                                              for k in ("slow_per_op", "helps_per_op", "completed_per_op", "retries_per_op", "max_steps")})
# for f in sorted(glob.glob(d + "/bfs-*.json")):
#     for r in json.load(open(f)):
#         print("bfs", r.get("variant"), r.get("graph"), r.get("blocks_per_sm"),
#               r.get("error") or f"{r['ms']:.2f} ms (max {r['ms_max']:.2f}, kernel {r['kernel_ms']:.2f})")

# run 369 (d28c99e), carry runs/ab368 and .whl: runs/ab368/call2.sh
set -u
C=d28c99e
GQ_COMMIT=$C GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_RENDER_QUEUES=ymc GQ_RENDER_ACCELS=bvh GQ_RENDER_TESTS_K=ymc \
  GQ_STAGES="queue-bench render-tests render-bench" bash tools/gpu-suite.sh 2>&1 | grep -E "rc=|^ymc +(balanced|split) .*(65536|131072|262144) " | tail -30
tar -xzf $OUT/0-suite.tgz -O render-bench-bvh.log 2>/dev/null | tail -8
tar -xzf $OUT/0-suite.tgz -O render-tests.log 2>/dev/null | grep -E "passed|failed" | tail -2

# run 370 (006fca5), the H200 kind named, an H100 came, so the script's second branch ran; carry
# runs/ab368 and .whl: runs/ab368/call3.sh
set -u
C=006fca5
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
mkdir -p $OUT/x
if echo "$card" | grep -q H200; then
  GQ_COMMIT=$C GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_RENDER_QUEUES=ymc GQ_RENDER_ACCELS=bvh \
    GQ_STAGES="ymc queue-bench render-bench" bash tools/gpu-suite.sh 2>&1 | grep -E "rc=" | tail -8
  tar -xzf $OUT/0-suite.tgz -O render-bench-bvh.log 2>/dev/null | tail -7
  tar -xzf $OUT/0-suite.tgz -O queue-bench.log 2>/dev/null | grep -E "^ymc +(balanced|split) .* 262144 "
  PYTHONPATH=$PWD timeout 100 python3 runs/ab368/bfs_time.py agg $OUT/x/bfs-agg.json 2>&1 | tail -4
  PYTHONPATH=$PWD timeout 150 python3 -m gq bfs --generate kron --scale 21 --bench --json $OUT/x/bfs-kron21.json --chart /tmp/x.png 2>&1 | tail -8
else
  # An H100 came: settle run 368's 2^18 row of the 25 % split with 0.5 s windows, agg against none.
  for r in agg none agg none; do
    d=.; [ $r = none ] && d=runs/ab368/none
    (cd $d && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 60 python3 -m gq bench queues --queue ymc \
      --kernel split --producers 25 --threads 2^18 --duration 0.5 --warmup 0.01 --runs 5 \
      --json $OUT/x/qb-$r-$RANDOM.json --chart /tmp/x.png 2>&1 | grep -E "^ymc|stalled"; echo "qb $r rc=$?")
  done
fi
tar -czf $OUT/call3.tgz -C $OUT x && rm -rf $OUT/x
