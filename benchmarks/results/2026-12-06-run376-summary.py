"""Run 376's table: kernel ms by graph, variant, blocks an SM and tree (the median of the tree's
rounds), and each queue's speed against compaction in the same tree (compaction ms / queue ms)."""
import collections
import json
import statistics
import sys
from pathlib import Path

rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line.strip()]
ms = collections.defaultdict(list)
exact = collections.defaultdict(bool)
trees = []
for r in rows:
    if r["tree"] not in trees:
        trees.append(r["tree"])
    if "kernel_ms" not in r:
        print("error row:", r)
        continue
    key = (r["graph"], r["algorithm"] if r["algorithm"] == "compaction" else r["queue"], r["per_sm"], r["tree"])
    ms[key].append(r["kernel_ms"])
    exact[key] = exact.get(key, True) and r["exact"] if key in exact else r["exact"]
med = {k: statistics.median(v) for k, v in ms.items()}
print("graph        variant     per_sm " + " ".join(f"{t:>16}" for t in trees))
for g, v, s in sorted({k[:3] for k in med}):
    cells = []
    for t in trees:
        m = med.get((g, v, s, t))
        c = med.get((g, "compaction", s, t))
        if m is None:
            cells.append(f"{'-':>16}")
        else:
            flag = "" if exact[(g, v, s, t)] else "!"
            cells.append(f"{m:8.3f}{flag:1}" + (f" {c / m:5.2f}x" if c and v != "compaction" else "       "))
    print(f"{g:12} {v:11} {s:6} " + " ".join(cells))
print("cells: kernel ms (median of the rounds) and compaction's ms over it in the same tree; ! = a depth not scipy's")
