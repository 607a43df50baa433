# Runs 359-362 (2026-12-06, seventh session; an NVIDIA H100 80GB HBM3 each time, kind nvidia-h100-x1
# named after two calls for the H200 kind found no machine). What each device call ran, in the
# repository root of ec1b895. runs/ab359/{old,warp,seg} were `git archive 622dfd3` with none, the
# first, and both of 2026-12-06-next-ymc-{warp,segmented}-scan.patch applied (seg: the code of
# ec1b895), benchmarks/ and tests/ removed; carried with .whl (trimesh).

# run 359: runs/ab359/call1.sh
set -u
GQ_COMMIT=ec1b895 GQ_DIRTY=0 GQ_STAGES="ymc" bash tools/gpu-suite.sh
for r in seg old warp seg; do
  t="2^12..2^18"; [ $r = old ] && t="2^12..2^14"
  (cd runs/ab359/$r && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 80 python3 -m gq bench queues --queue ymc \
    --kernel both --producers 50 --threads $t --duration 0.04 --warmup 0.01 --runs 3 --json $OUT/ab-$r-$RANDOM.json \
    > $OUT/ab-$r-$RANDOM.log 2>&1; echo "ab $r rc=$?")
done
python3 - <<'PY'
import glob, json, os
for f in sorted(glob.glob(os.environ["OUT"] + "/ab-*.json")):
    d = json.load(open(f)); rows = d["rows"]
    for r in rows:
        print(os.path.basename(f), r.get("kernel"), r.get("threads"), round((r.get("ops_per_s_median") or 0)/1e6, 1), "Mops", "stalls", r.get("stalls"), "lin", r.get("linearizable"))
PY

# run 360: runs/ab359/call2.sh (each round's files were packed into one archive at the end)
set -u
mkdir -p $OUT/x
python3 -m pip install -q --no-index --find-links .whl trimesh
for r in old seg seg old; do
  (cd runs/ab359/$r && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 100 python3 -m gq bench render --scene scenes/spheres100.toml \
    --scene scenes/cornell.toml --width 1920 --height 1080 --spp 4 --backend cuda --accel bvh --queue ymc \
    --json $OUT/x/render-$r-$RANDOM.json --chart /tmp/x.png > $OUT/x/render-$r-$RANDOM.log 2>&1; echo "render $r rc=$?")
done
for r in old seg seg old; do
  n=$RANDOM; (cd runs/ab359/$r && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 80 python3 -m gq bfs --generate kron --scale 21 \
    --queue ymc --check > $OUT/x/bfs-$r-$n.log 2>&1; echo "bfs $r rc=$?"; tail -3 $OUT/x/bfs-$r-$n.log)
done
python3 - <<'PY'
import glob, json, os
for f in sorted(glob.glob(os.environ["OUT"] + "/x/render-*.json")):
    d = json.load(open(f))
    for r in d["rows"]:
        print(os.path.basename(f), r["scene"], r["renderer"], r.get("queue"), round(r["mrays_per_s"]["median"]), r["mrays_per_s"]["min"]//1, r["mrays_per_s"]["max"]//1, r.get("identical_to_compaction"))
PY
tar -czf $OUT/call2.tgz -C $OUT x && rm -rf $OUT/x

# run 361
GQ_COMMIT=ec1b895 GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc GQ_STAGES="queue-bench" bash tools/gpu-suite.sh 2>&1 | tail -30
for r in old seg seg old; do (cd runs/ab359/$r && PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache-$r timeout 90 \
  python3 -m gq bfs --generate kron --scale 21 --queue ymc --bench 2>&1 | tail -4; echo "bfs $r rc=$?"); done

# run 362
GQ_COMMIT=ec1b895 GQ_DIRTY=0 GQ_RENDER_TESTS_K=ymc GQ_STAGES="render-tests" bash tools/gpu-suite.sh 2>&1 | tail -8
PYTHONPATH=$PWD timeout 200 python3 -m gq bench queues --kernel balanced --queue ymc --threads 2^14,2^16,2^18 --runs 1 \
  --duration 0.02 --warmup 0.005 --hw-counters --json $OUT/ymc-ncu.json 2>&1 | tail -25
