"""Run 376's A/B probe: run 289's (…-run289-bfs-time.py), every queue kind's queue BFS and compaction,
kernel ms (median of 5 after a warm-up), at 1 and 2 blocks an SM, every depth checked against scipy's.
  python3 …-run376-bfs-time.py build                          (PYTHONPATH=TREE; QUEUES=sfq,glfq,...)
  python3 …-run376-bfs-time.py time TREE LABEL GRAPHDIR OUT.jsonl   (PYTHONPATH=TREE; QUEUES as above)
The graphs come from run 289's probe (`gen GRAPHDIR`); `build` only compiles and loads the modules,
so that the trees' builds can run side by side before any timing."""
import json
import os
import statistics
import sys
from pathlib import Path

import numpy as np

QUEUES = os.environ.get("QUEUES", "sfq,glfq,gwfq,ymc").split(",")
GRAPHS = ("road-24M", "road-2M", "kron-21", "delaunay-21")

from sssp_demo import bfs as B  # noqa: E402

if sys.argv[1] == "build":
    for q in QUEUES:
        mod = B.cuda_module(B.QUEUES[q].kind_id)
        mod.get_function("bfs_queue"), mod.get_function("bfs_compaction")
    print("built", *QUEUES, "from", B.__file__, flush=True)
    sys.exit(0)

tree, label, d, out = sys.argv[2:6]
assert B.__file__.startswith(tree), B.__file__
with open(out, "a") as f:
    for name in GRAPHS:
        z = np.load(Path(d) / f"{name}.npz")
        dg = B.DeviceGraph.upload(z["indptr"], z["indices"], int(z["n"]))
        for algorithm, queue in [("compaction", "sfq")] + [("queue", q) for q in QUEUES]:
            for per_sm in (1, 2):
                row = {"tree": label, "graph": name, "algorithm": algorithm, "queue": queue if algorithm == "queue" else "-",
                       "per_sm": per_sm}
                try:
                    run = B.CudaBfs(dg, algorithm, queue, budget_s=2.0, blocks_per_sm=per_sm)
                    row["blocks"] = run.blocks
                    run.time(int(z["source"]), repeats=5, warmup=1)
                    depth, _, _ = run.run(int(z["source"]))
                    row.update(kernel_ms=statistics.median(run.kernel_ms), exact=bool(np.array_equal(depth.get(), z["ref"])))
                except Exception as e:
                    row.update(error=f"{type(e).__name__}: {e}"[:300])
                f.write(json.dumps(row) + "\n")
                f.flush()
        del dg
