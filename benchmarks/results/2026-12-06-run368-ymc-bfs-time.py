# YMC's queue BFS (kernel and whole-run ms, median of 5) on Kron-21 and road-2M, for the A/B of
# catchup's variants; the graphs are built once and kept in /tmp for the other variants' runs.
import json, os, sys
import numpy as np
import scipy.sparse as sp
from sssp_demo import generators
from sssp_demo.bfs import CudaBfs, DeviceGraph, as_csr, default_source

def graph(name):
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
            row = dict(variant=tag, graph=name, blocks_per_sm=r.blocks_per_sm, ms=float(np.median(t)),
                       ms_max=float(np.max(t)), kernel_ms=float(np.median(r.kernel_ms)))
        except Exception as e:
            row = dict(variant=tag, graph=name, blocks_per_sm=bps, error=str(e)[:200])
        print(row, flush=True); rows.append(row)
json.dump(rows, open(out, "w"), indent=1)
