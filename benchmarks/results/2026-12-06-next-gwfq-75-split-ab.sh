#!/usr/bin/env bash
# Prepared after run 343 (no H200 could be had then) and run as run 344 (results README, runs 344-347): is G-WFQ's 75 % split at 2^18 threads slower with b2c52da's
# aq_mode than before parking? Run 341's sweep of b2c52da read 14.60 G ops/s (five runs 13.98-15.44), run 330's of the
# two-flag form 17.83-18.20 and of 5b6881e (no parking) 18.47-18.51 on the H200; on an H100 every tree spread alike
# (runs 331 and 333), so only an H200 can answer. Splits 25/75 % at 2^17..2^18 and balanced at 2^18, 5 runs a point,
# two rounds in alternating order. From the repository root, with the trees beside it (gitignored, carried):
#   for p in old:5b6881e byte:b2c52da; do mkdir -p runs/ab2/${p%%:*}; git archive ${p##*:} | tar -x -C runs/ab2/${p%%:*};
#     rm -rf runs/ab2/${p%%:*}/benchmarks/results; done
# device run: bash benchmarks/results/2026-12-06-next-gwfq-75-split-ab.sh   (carry ["runs/ab2"], about 3 min warm)
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv | tee $OUT/machine.txt
ab() {
  local v=$1 rep=$2 d=runs/ab2/$1
  ( cd $d && timeout 100 python3 -m gq bench queues --queue gwfq --kernel split --producers 25,75 \
      --threads 2^17..2^18 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/$v-split-$rep.json --chart $OUT/c.png > $OUT/$v-split-$rep.log 2>&1 )
  ( cd $d && timeout 60 python3 -m gq bench queues --queue gwfq --kernel balanced \
      --threads 2^18 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/$v-bal-$rep.json --chart $OUT/c.png > $OUT/$v-bal-$rep.log 2>&1 )
  python3 - "$v" "$rep" <<'P'
import json, os, sys
v, rep = sys.argv[1:]
for k in ("split", "bal"):
    try:
        d = json.load(open(f"{os.environ['OUT']}/{v}-{k}-{rep}.json"))
    except Exception as e:
        print(v, rep, k, "no json:", e)
        continue
    for r in d["rows"]:
        runs = [round(x["ops_per_s"] / 1e9, 2) for x in r["runs"]]
        print(v, rep, r["kernel"], r["producers_pct"], r["threads"], round(r["ops_per_s_median"] / 1e9, 2), runs, "stalls", r["stalls"])
P
}
ab old 1; ab byte 1
ab byte 2; ab old 2
