#!/usr/bin/env bash
# run 281: the BFS levels' count read beside the chunk count and the bookkeeping on the last thread (new, 5d8d660), the leader kept (K0), against 0752379 ("old"); the BFS GPU tests; gpu_bfs_bench on 5d8d660
set -u
export PYTHONPATH=$PWD
G=/tmp/g; T=/tmp/abt; R=$PWD
mkdir -p /tmp/old/old && tar -xf runs/old.tar -C /tmp/old/old
python3 runs/ab_trees.py $T 281 >/dev/null
python3 runs/bfs_probe.py gen $G 2>&1 | tail -4
echo "gen done $SECONDS s"
for r in 1 2; do
  for t in /tmp/old/old $T/new $T/K0; do
    (cd $t && PYTHONPATH=$t timeout 120 python3 $R/runs/bfs_probe.py time $t $(basename $t) $G $OUT/bfs.jsonl 2 >/dev/null 2>&1)
  done
  echo "rep $r done $SECONDS s"
done
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py > $OUT/bfs-tests.log 2>&1; tail -2 $OUT/bfs-tests.log
GQ_COMMIT=5d8d660 GQ_DIRTY=0 timeout 200 python3 tools/gpu_bfs_bench.py $OUT > $OUT/bfs-bench.log 2>&1; echo "bench rc=$?"; tail -12 $OUT/bfs-bench.log
echo "all done $SECONDS s"
python3 - <<'PY'
import json, os, collections
d=collections.defaultdict(list)
for r in map(json.loads, open(os.environ['OUT']+'/bfs.jsonl')):
    if 'kernel_ms_median' in r: d[(r['graph'], r['algorithm'], r['tree'])].append(f"{r['kernel_ms_median']:.3f}{'' if r['exact'] else '!'}")
    elif 'error' in r: d[(r['graph'], r['algorithm'], r['tree'])].append('ERR ' + r['error'][:300])
for k in sorted(d): print(*k, ' '.join(d[k]))
PY
