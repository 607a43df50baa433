"""Run 368: YMC's queue BFS, whole-run and kernel ms (median of 5), on the Kron-21 stand-in at 1 and
2 blocks an SM and at the default, and on the 2 M-vertex road grid at its default, for the A/B of
catchup's variants (each variant's tree runs it in turn). The graphs are those of
`gq bfs --generate kron --scale 21` and `--generate road --vertices 2000000`, built once and kept in
/tmp for the other trees' runs.
Usage, from a tree's root with PYTHONPATH set to it: python3 THIS VARIANT OUT.json"""
import json
import os
import sys

import numpy as np
import scipy.sparse as sp

from sssp_demo import generators
from sssp_demo.bfs import CudaBfs, DeviceGraph, as_csr, default_source


def graph(name: str) -> sp.csr_matrix:
    path = f"/tmp/gq-{name}.npz"
    if not os.path.exists(path):
        g = generators.rmat(21, 16, 0, symmetric=True) if name == "kron21" else generators.road_grid(1414, 1415, 0)
        sp.save_npz(path, sp.csr_matrix(g))
    return sp.load_npz(path)


tag, out = sys.argv[1], sys.argv[2]
rows = []
for name, shapes in (("kron21", (1, 2, None)), ("road2m", (None,))):
    indptr, indices, n = as_csr(graph(name))
    dg = DeviceGraph.upload(indptr, indices, n)
    src = default_source(indptr)
    for bps in shapes:
        try:
            r = CudaBfs(dg, "queue", "ymc", budget_s=5.0, blocks_per_sm=bps)
            t = r.time(src, repeats=5)
            row = {"variant": tag, "graph": name, "blocks_per_sm": r.blocks_per_sm, "ms": float(np.median(t)),
                   "ms_max": float(np.max(t)), "kernel_ms": float(np.median(r.kernel_ms))}
        except Exception as e:  # noqa: BLE001 - a failed variant is a row of the table, not the end of the A/B
            row = {"variant": tag, "graph": name, "blocks_per_sm": bps, "error": str(e)[:200]}
        print(row, flush=True)
        rows.append(row)
with open(out, "w") as f:
    json.dump(rows, f, indent=1)
