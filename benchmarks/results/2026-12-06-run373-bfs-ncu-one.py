"""One BFS run of `algorithm` (SFQ's queue form or compaction) on a saved graph, for ncu to profile.
Usage: PYTHONPATH=TREE python3 THIS TREE GRAPH.npz queue|compaction"""
import sys

import numpy as np

tree, path, algorithm = sys.argv[1:4]
from sssp_demo import bfs as B  # noqa: E402

assert B.__file__.startswith(tree), B.__file__
z = np.load(path)
dg = B.DeviceGraph.upload(z["indptr"], z["indices"], int(z["n"]))
run = B.CudaBfs(dg, algorithm, "sfq", budget_s=5.0, blocks_per_sm=1)
depth, _, _ = run.run(int(z["source"]))
print(algorithm, "exact", bool(np.array_equal(depth.get(), z["ref"])), flush=True)
