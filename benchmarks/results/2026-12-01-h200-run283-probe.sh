#!/usr/bin/env bash
# run 283: the grid barrier's parts (runs/barrier_ab.py); the queue BFS's error read only before another round (E) against base
set -u
export PYTHONPATH=$PWD
G=/tmp/g; T=/tmp/abt; R=$PWD
python3 runs/ab_trees.py $T 283 >/dev/null
timeout 200 python3 runs/barrier_ab.py $OUT/barrier.jsonl 2>&1 | tail -40
python3 runs/bfs_probe.py gen $G 2>&1 | tail -4
for r in 1 2 3; do
  for t in $T/base $T/E; do
    for b in 1 2; do
      (cd $t && PYTHONPATH=$t timeout 120 python3 $R/runs/bfs_probe.py time $t $(basename $t)-$b $G $OUT/bfs.jsonl $b >/dev/null 2>&1)
    done
  done
  echo "rep $r done $SECONDS s"
done
python3 - <<'PY'
import json, os, collections
d=collections.defaultdict(list)
for r in map(json.loads, open(os.environ['OUT']+'/bfs.jsonl')):
    if 'kernel_ms_median' in r: d[(r['graph'], r['algorithm'], r['tree'])].append(f"{r['kernel_ms_median']:.3f}{'' if r['exact'] else '!'}")
    elif 'error' in r: d[(r['graph'], r['algorithm'], r['tree'])].append('ERR ' + r['error'][:300])
for k in sorted(d): print(*k, ' '.join(d[k]))
PY
