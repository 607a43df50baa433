#!/usr/bin/env bash
# run 278: the queue BFS's BatchEmit (SFQ enqueue_batch) against HEAD c65f409 ("old"); its timeline;
# SFQ's FIFO conformance with batched producers; the BFS GPU tests
set -u
export PYTHONPATH=$PWD
G=/tmp/g; T=/tmp/bt; R=$PWD
mkdir -p /tmp/old/old && tar -xf runs/old.tar -C /tmp/old/old
python3 runs/bfs_variants.py $T >/dev/null
python3 runs/bfs_probe.py gen $G 2>&1 | tail -4
python3 runs/sfq_fifo.py $OUT/sfq-fifo.log 2>&1 | tail -12
for r in 1 2; do
  for t in /tmp/old/old $T/base; do
    (cd $t && PYTHONPATH=$t python3 $R/runs/bfs_probe.py time $t $(basename $t) $G $OUT/bfs.jsonl 2 >/dev/null 2>&1)
  done
done
(cd $T/TL && PYTHONPATH=$T/TL python3 $R/runs/bfs_probe.py timeline $T/TL TL $G $OUT/tl.jsonl 2 >/dev/null 2>$OUT/tl.err; tail -3 $OUT/tl.err)
python3 -m pytest -q -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py > $OUT/bfs-tests.log 2>&1; tail -2 $OUT/bfs-tests.log
python3 - <<'PY'
import json, os, collections
for r in map(json.loads, open(os.environ['OUT']+'/tl.jsonl')):
    f=lambda k: f"{r[k]:7.0f}" if r.get(k) is not None else "      -"
    print(f"{r['graph']:12s} {r['algorithm']:10s} item {f('d1_mean_ns')} expand {f('d2_mean_ns')} flush {f('d3_mean_ns')} next {f('dnext_mean_ns')} {'exact' if r['exact'] else 'WRONG'}")
d=collections.defaultdict(list)
for r in map(json.loads, open(os.environ['OUT']+'/bfs.jsonl')):
    if 'kernel_ms_median' in r: d[(r['graph'], r['tree'], r['algorithm'])].append(f"{r['kernel_ms_median']:.3f}{'' if r['exact'] else '!'}")
    elif 'error' in r: d[(r['graph'], r['tree'], r['algorithm'])].append('ERR ' + r['error'][:300])
for k in sorted(d): print(*k, ' '.join(d[k]))
PY
