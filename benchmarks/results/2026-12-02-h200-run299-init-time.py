"""Probe (runs/, not shipped): what a queue BFS run spends outside its kernel, per graph (SFQ).
  python3 runs/init_time.py GRAPHDIR      (PYTHONPATH=TREE)"""
import statistics, sys
from pathlib import Path
import numpy as np
import cupy
from sssp_demo import bfs as B

def ev_ms(f, reps=20):
    out = []
    for _ in range(reps + 2):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record(); f(); b.record(); b.synchronize()
        out.append(cupy.cuda.get_elapsed_time(a, b))
    return statistics.median(out[2:])

u32, u64 = np.uint32, np.uint64
for name in ("kron-21", "road-2M", "delaunay-21", "road-24M"):
    z = np.load(Path(sys.argv[1]) / f"{name}.npz")
    dg = B.DeviceGraph.upload(z["indptr"], z["indices"], int(z["n"]))
    for alg in ("queue", "compaction"):
        r = B.CudaBfs(dg, alg, "sfq", budget_s=2.0)
        src = int(z["source"])
        def reset():
            r.depth.fill(-1); r.depth[src] = 0; r.parent.fill(-1); r.stats.fill(0); r.ctl.fill(0)
        row = dict(graph=name, alg=alg, reset=ev_ms(reset))
        if alg == "queue":
            def init2():
                for q in r.queues:
                    r.init((r.init_blocks,), (B.BLOCK,), (q, u64(r.words), u64(r.capacity), u64(r.threads)))
            def memset2():
                for q in r.queues: q.fill(0)
            row.update(words=r.words, init_blocks=r.init_blocks, init2=ev_ms(init2), memset2=ev_ms(memset2))
        r.time(src, repeats=5, warmup=1)
        row.update(kernel=statistics.median(r.kernel_ms))
        wt = r.time(src, repeats=5, warmup=1)
        row.update(whole=statistics.median(wt))
        print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)
