"""device probe (not committed): what the queue BFS's levels cost, by build variant, on road-2M."""
import functools, statistics, sys
import numpy as np
sys.path.insert(0, '.')
import cupy
from queues_cuda import build as qbuild
from sssp_demo import bfs as B, generators

g = generators.road_grid(1448, 1448, 0)
indptr, indices, n = B.as_csr(g)
src = B.default_source(indptr)
ref = B.reference_depth(indptr, indices, n, src)
dg = B.DeviceGraph.upload(indptr, indices, n)
VARIANTS = [("as shipped", ()), ("fence acq_rel", ("GQ_PROBE_SC_FENCE=1",)), ("no fence", ("GQ_PROBE_SC_FENCE=2",)),
            ("burn wait 0", ("GQ_BURN_WAIT=0u",))]
for label, extra in VARIANTS:
    B.cuda_module = functools.cache(lambda kind_id, extra=extra: qbuild.cuda_module(kind_id, extra, B.KERNEL, B.INCLUDE_DIRS))
    B._blocks.cache_clear()
    for alg, q in (("queue", "glfq"), ("queue", "gwfq"), ("compaction", None)):
        if alg == "compaction" and extra:
            continue
        for per_sm in (1, 4):
            try:
                run = B.CudaBfs(dg, alg, q or "glfq", budget_s=3.0, blocks_per_sm=per_sm)
                t = run.time(src, repeats=3, warmup=1)
                d, _, st = run.run(src)
                ok = np.array_equal(d.get(), ref)
                lv = st["levels"] if isinstance(st, dict) else st.levels
                print(f"{label:14s} {alg:10s} {q or '-':5s} {run.blocks:4d} blocks  {statistics.median(t):8.2f} ms  "
                      f"{statistics.median(t) * 1e3 / lv:6.1f} us/level  levels {lv}  exact {ok}", flush=True)
            except Exception as e:
                print(f"{label:14s} {alg:10s} {q or '-':5s} per_sm {per_sm}: {type(e).__name__}: {str(e)[:150]}", flush=True)
