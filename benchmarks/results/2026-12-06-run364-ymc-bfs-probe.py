"""Run 364: YMC's queue BFS against G-WFQ's on R-MAT graphs (symmetric, edge factor 16) of scale 16,
19 and 21, at 1, 2 and 4 blocks an SM. Is YMC's time a cost an operation, or does it grow with the
graph (the pool) or with the grid (the threads)? Whole-run and kernel ms, median of 5 runs.
Run from the repository root with PYTHONPATH set to it; writes $OUT/ymc-bfs-probe.json."""
import json
import os

import numpy as np

from sssp_demo import generators
from sssp_demo.bfs import CudaBfs, DeviceGraph, as_csr, default_source

rows = []
for scale in (16, 19, 21):
    indptr, indices, n = as_csr(generators.rmat(scale, 16, 0, symmetric=True))
    graph = DeviceGraph.upload(indptr, indices, n)
    source = default_source(indptr)
    for queue in ("gwfq", "ymc"):
        for per_sm in (1, 2, 4):
            try:
                run = CudaBfs(graph, "queue", queue, budget_s=5.0, blocks_per_sm=per_sm)
                ms = run.time(source, repeats=5)
                row = {"scale": scale, "queue": queue, "blocks_per_sm": per_sm, "threads": run.threads,
                       "words": run.words, "ms": float(np.median(ms)), "kernel_ms": float(np.median(run.kernel_ms))}
            except Exception as e:  # noqa: BLE001 -- a failed shape (any error) is a row too
                row = {"scale": scale, "queue": queue, "blocks_per_sm": per_sm, "error": str(e)[:200]}
            print(row, flush=True)
            rows.append(row)
with open(os.environ.get("OUT", ".") + "/ymc-bfs-probe.json", "w") as f:
    json.dump(rows, f, indent=1)
