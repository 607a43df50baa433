#!/usr/bin/env bash
# The A/B trees of run 289 in runs/t: base (HEAD's sssp_demo), B (the working tree: Grid::sync_read),
# S and BS (each with the BFS's control words 4 KB apart from the barrier word and from each other).
set -eu
R=$(cd "$(dirname "$0")/.." && pwd); T=$R/runs/t
rm -rf $T; mkdir -p $T/base $T/B
git -C $R archive HEAD queues_cuda sssp_demo tools gq | tar -x -C $T/base
for d in queues_cuda sssp_demo tools gq; do cp -r $R/$d $T/B/; done
for v in base B; do
  cp -r $T/$v $T/${v}S
  python3 - $T/${v}S <<'PY'
import sys
from pathlib import Path
t = Path(sys.argv[1])
p = t / "sssp_demo/include/sssp/bfs_levels.h"; s = p.read_text()
old = """  kBfsFrontier0 = kCtlFirstFree,      // C[3]: frontier sizes
  kBfsTaken0 = kCtlFirstFree + 3,     // T[3]: vertices dequeued (queue form)
  kBfsChunks0 = kCtlFirstFree + 6,    // H[2]: chunk-list lengths
  kBfsWords = kCtlFirstFree + 8"""
new = """  kBfsFrontier0 = 1024,
  kBfsTaken0 = 2048,
  kBfsChunks0 = 3072,
  kBfsWords = 3072 + 2"""
assert s.count(old) == 1; p.write_text(s.replace(old, new))
p = t / "sssp_demo/bfs.py"; s = p.read_text()
old = "WORDS = 16 "
assert s.count(old) == 1; p.write_text(s.replace(old, "WORDS = 4096 "))
PY
done
mv $T/baseS $T/S
ls $T; find $T -name __pycache__ -prune -exec rm -rf {} +
