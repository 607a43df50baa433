#!/usr/bin/env bash
# run 282: old (0752379), new (5d8d660), KO (0752379 with the bookkeeping on the last thread only: runs/ko.tar, bfs_levels.h patched by hand as the K0 patch reversed); three rounds
set -u
export PYTHONPATH=$PWD
G=/tmp/g; T=/tmp/abt; R=$PWD
mkdir -p /tmp/old/old /tmp/old/KO && tar -xf runs/old.tar -C /tmp/old/old && tar -xf runs/ko.tar -C /tmp/old/KO
python3 runs/ab_trees.py $T 281 >/dev/null
python3 runs/bfs_probe.py gen $G 2>&1 | tail -4
echo "gen done $SECONDS s"
for r in 1 2 3; do
  for t in /tmp/old/old $T/new /tmp/old/KO; do
    (cd $t && PYTHONPATH=$t timeout 120 python3 $R/runs/bfs_probe.py time $t $(basename $t) $G $OUT/bfs.jsonl 2 >/dev/null 2>&1)
  done
  echo "rep $r done $SECONDS s"
done
echo "all done $SECONDS s"
python3 - <<'PY'
import json, os, collections
d=collections.defaultdict(list)
for r in map(json.loads, open(os.environ['OUT']+'/bfs.jsonl')):
    if 'kernel_ms_median' in r: d[(r['graph'], r['algorithm'], r['tree'])].append(f"{r['kernel_ms_median']:.3f}{'' if r['exact'] else '!'}")
    elif 'error' in r: d[(r['graph'], r['algorithm'], r['tree'])].append('ERR ' + r['error'][:300])
for k in sorted(d): print(*k, ' '.join(d[k]))
PY
