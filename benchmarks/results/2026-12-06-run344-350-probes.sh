# Runs 344-350 (2026-12-06): the device calls' scripts as run, one after another. Trees under runs/ab2 (gitignored,
# carried): old/byte = git archive 5b6881e / b2c52da (the A/B script's header), s-<sha> = git archive <sha>, bo1024 and
# bo4096 = git archive 2e593ae with its sfq.cuh's GQ_SFQ_CLAIM_BACKOFF_NS default set to 1024 / 4096 (that define is in
# the working tree of run 346 only, default 0, and was never committed). runs/ab2/HEAD held 2e593ae.

# ---- runs/ab2/probe344.sh
#!/usr/bin/env bash
# run 344: the prepared G-WFQ 75 % split A/B, then SFQ's non-waiting balanced kernel over seven trees
set -u
bash benchmarks/results/2026-12-06-next-gwfq-75-split-ab.sh 2>&1 | tee $OUT/gwfq-ab.txt
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
sfq() {
  local v=$1 d=runs/ab2/$1
  [ "$v" = byte ] && d=runs/ab2/byte
  ( cd $d && timeout 120 python3 -m gq bench queues --queue sfq --kernel balanced \
      --threads 2^9..2^14 --duration 0.04 --warmup 0.01 --runs 3 --json $OUT/sfq-$v.json --chart $OUT/c.png > $OUT/sfq-$v.log 2>&1 )
  python3 - "$v" <<'P'
import json, os, sys
v = sys.argv[1]
try:
    d = json.load(open(f"{os.environ['OUT']}/sfq-{v}.json"))
except Exception as e:
    print("sfq", v, "no json:", e); sys.exit()
print("sfq", v, " ".join(f"{r['threads']}:{(r['ops_per_s_median'] or 0)/1e6:.2f}" for r in d["rows"]))
P
}
for v in s-45d7f77 s-58c95f7 s-b565119 s-0752379 s-21ae819 s-c44b123 byte; do sfq $v; done 2>&1 | tee $OUT/sfq-bisect.txt

# ---- runs/ab2/probe345.sh
#!/usr/bin/env bash
# run 345: SFQ's non-waiting claim, the working tree (HEAD) against b2c52da (runs/ab2/byte), then its proof and records
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
H=$(cat runs/ab2/HEAD)
sweep() {  # sweep NAME DIR
  ( cd $2 && timeout 200 python3 -m gq bench queues --queue sfq --kernel both --producers 25,50,75 \
      --threads 2^9..2^16 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/sfq-ab-$1.json --chart $OUT/c.png > $OUT/sfq-ab-$1.log 2>&1 )
  python3 - "$1" <<'P'
import json, os, sys
v = sys.argv[1]
try:
    d = json.load(open(f"{os.environ['OUT']}/sfq-ab-{v}.json"))
except Exception as e:
    print("ab", v, "no json:", e); sys.exit()
rows = {}
for r in d["rows"]:
    rows.setdefault((r["kernel"], r.get("producers_pct")), []).append(f"{r['threads']}:{(r['ops_per_s_median'] or 0)/1e6:.2f}/{r['stalls']}")
for k, v2 in rows.items():
    print("ab", v, k, " ".join(v2))
P
}
if [ -z "${STAGES:-}" ]; then
sweep new . ; sweep old runs/ab2/byte
python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k "sfq_non_waiting or (several and sfq) or (histories_linearizable and sfq)" > $OUT/sfq-gpu-tests.log 2>&1; tail -3 $OUT/sfq-gpu-tests.log
fi
GQ_COMMIT=$H GQ_DIRTY=0 GQ_HISTORY_QUEUES=sfq GQ_BENCH_QUEUES=sfq GQ_FIFO_QUEUES=sfq GQ_RENDER_QUEUES=sfq GQ_RENDER_ACCELS=bvh \
  GQ_RENDER_TESTS_K=sfq GQ_QUEUE_BENCH_S=200 GQ_STAGES="${STAGES:-histories fifo}" bash tools/gpu-suite.sh > /dev/null 2>&1
mkdir -p $OUT/w; cp $OUT/sfq-* $OUT/w/ 2>/dev/null; tar -czf $OUT/0-suite.tgz -C $OUT/w . ; rm -f $OUT/sfq-* $OUT/c.png
cat $OUT/w/stages.txt; rm -rf $OUT/w

# ---- runs/ab2/probe346.sh
#!/usr/bin/env bash
# run 346: SFQ's non-waiting claim: b2c52da (old), HEAD's retry (new, the working tree, no extra pause), and the retry
# with a lost claim's pause doubling to 1,024 / 4,096 ns; both kernels 2^9..2^16, 5 runs a point; two rounds
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
sweep() {  # sweep NAME DIR ROUND
  ( cd $2 && timeout 150 python3 -m gq bench queues --queue sfq --kernel both --producers 25,50,75 \
      --threads 2^9..2^16 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/ab-$1-$3.json --chart /tmp/c.png > $OUT/ab-$1-$3.log 2>&1 )
  python3 - "$1" "$3" <<'P'
import json, os, sys
v, rep = sys.argv[1:]
try:
    d = json.load(open(f"{os.environ['OUT']}/ab-{v}-{rep}.json"))
except Exception as e:
    print("ab", v, rep, "no json:", e); sys.exit()
rows = {}
for r in d["rows"]:
    rows.setdefault((r["kernel"], r.get("producers_pct")), []).append(f"{r['threads']}:{(r['ops_per_s_median'] or 0)/1e6:.2f}/{r['stalls']}")
for k, v2 in rows.items():
    print("ab", v, rep, k[0], k[1], " ".join(v2))
P
}
sweep old runs/ab2/byte 1; sweep new . 1; sweep b1024 runs/ab2/bo1024 1; sweep b4096 runs/ab2/bo4096 1
sweep b4096 runs/ab2/bo4096 2; sweep b1024 runs/ab2/bo1024 2; sweep new . 2; sweep old runs/ab2/byte 2
cd $OUT && tar -czf 0-ab.tgz ab-* && rm -f ab-*

# ---- run 347 (the reverted claim, b2c52da's sfq.cuh, with 2e593ae's new tests; warm H200 after run 346):
# timeout 200 python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k "sfq_non_waiting or (several and sfq)"

# ---- run 348 (H100): runs/ab3/probe348.sh; trees: head = git archive fb312b4 (main then), gen = the same with
# sssp_demo/kernels/bfs.cu's '#define GQ_ATOMICS_GLOBAL 1' line taken out; runs/ab3/bfs_time.py = runs/bfs_time.py (above)
#!/usr/bin/env bash
# run 348: the BFS kernel file with generic atomics (gen) against HEAD's .global (head): SFQ's queue form and compaction,
# kernel ms, 1 and 2 blocks an SM, median of 5, depths against scipy; rounds head gen gen head
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
R=$PWD
nvidia-smi --query-gpu=name --format=csv,noheader
PYTHONPATH=$R python3 runs/ab3/bfs_time.py gen /tmp/graphs
for t in head gen gen head; do
  ( cd runs/ab3/$t && PYTHONPATH=$R/runs/ab3/$t timeout 150 python3 $R/runs/ab3/bfs_time.py time $R/runs/ab3/$t $t /tmp/graphs $OUT/bfs.jsonl )
done
python3 - <<'P'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/bfs.jsonl")]
t = collections.defaultdict(list)
for r in rows:
    t[(r["graph"], r["algorithm"], r["per_sm"], r["tree"])].append(f"{r.get('kernel_ms', float('nan')):.3f}{'' if r.get('exact') else ' NOT-EXACT ' + r.get('error', '')}")
for k in sorted(t): print(*k, " ".join(t[k]))
P

# ---- run 349 (H100): runs/ab4/probe349.sh; trees: head = runs/ab3/head (git archive fb312b4), allgen = git archive f43bba8 with
# queues_cuda/kernels/queue_bench.cu's '#define GQ_ATOMICS_GLOBAL 1' line taken out, claim = the working tree (4d2df62's code).
# Its history recording failed (no PYTHONPATH); a second call on the warm machine ran:
#   mkdir -p $OUT/h; PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache GQ_HISTORY_QUEUES=sfq python3 tools/gpu_record_histories.py $OUT/h
# checked here: python tools/check_saved_histories.py histories-sfq.npz --out verdicts.json
#!/usr/bin/env bash
# run 349: SFQ's claim CAS spelt generic (claim: the working tree) against HEAD (head: every queue-bench atomic .global)
# and HEAD with the queue benchmark file's atomics all generic (allgen); then the claim tree's SFQ proof
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache
nvidia-smi --query-gpu=name --format=csv,noheader
sweep() {  # sweep NAME DIR ROUND
  ( cd $2 && timeout 150 python3 -m gq bench queues --queue sfq --kernel both --producers 25,50,75 \
      --threads 2^9..2^16 --duration 0.04 --warmup 0.01 --runs 5 --json $OUT/ab-$1-$3.json --chart /tmp/c.png > $OUT/ab-$1-$3.log 2>&1 )
  python3 - "$1" "$3" <<'P'
import json, os, sys
v, rep = sys.argv[1:]
try:
    d = json.load(open(f"{os.environ['OUT']}/ab-{v}-{rep}.json"))
except Exception as e:
    print("ab", v, rep, "no json:", e); sys.exit()
rows = {}
for r in d["rows"]:
    if r["threads"] <= 32768:
        rows.setdefault((r["kernel"], r.get("producers_pct")), []).append(f"{(r['ops_per_s_median'] or 0)/1e6:.2f}")
for k, v2 in rows.items():
    print("ab", v, rep, k[0], k[1], " ".join(v2))
P
}
sweep head runs/ab4/head 1; sweep claim . 1; sweep allgen runs/ab4/allgen 1
sweep allgen runs/ab4/allgen 2; sweep claim . 2; sweep head runs/ab4/head 2
mkdir -p $OUT/h
GQ_HISTORY_QUEUES=sfq timeout 120 python3 tools/gpu_record_histories.py $OUT/h 2>&1 | tail -2
timeout 150 python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
  -k "sfq and (histories_linearizable or several or non_waiting)" > $OUT/sfq-tests.log 2>&1
grep -E "\[fifo\]|passed|failed" $OUT/sfq-tests.log | tail -6
cd $OUT && tar -czf 0-ab.tgz ab-* sfq-tests.log && rm -f ab-* sfq-tests.log

# ---- run 350 (H100, 407fda1, the working tree): the GPU FIFO tests after their runs moved into one helper (fifo_runs)
# timeout 240 python3 -m pytest -q -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k "sfq_non_waiting or broker_fifo or (fifo_conformance and glfq)"
# (an H200 call with run 349's A/B, runs/ab4/probe350.sh, was refused twice and never ran)
