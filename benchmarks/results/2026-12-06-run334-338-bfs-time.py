"""A/B probe (runs/, not shipped): SFQ's queue BFS and compaction, kernel ms, at 1 and 2 blocks an SM.
  python3 2026-12-06-run334-338-bfs-time.py gen GRAPHDIR
  python3 2026-12-06-run334-338-bfs-time.py time TREE LABEL GRAPHDIR OUT.jsonl    (PYTHONPATH=TREE)"""
import json, statistics, sys, time
import concurrent.futures as cf
from pathlib import Path
import numpy as np

GRAPHS = {"road-24M": ("road_grid", dict(rows=4894, cols=4894, seed=0)), "road-2M": ("road_grid", dict(rows=1448, cols=1448, seed=0)),
          "kron-21": ("rmat", dict(scale=21, edge_factor=16, seed=0, symmetric=True))}

def make(name, d):
    from sssp_demo import bfs as B, generators
    func, kw = GRAPHS[name]
    indptr, indices, n = B.as_csr(getattr(generators, func)(**kw))
    source = B.default_source(indptr)
    np.savez(Path(d) / f"{name}.npz", indptr=indptr, indices=indices, n=n, source=source, ref=B.reference_depth(indptr, indices, n, source))
    return name

if sys.argv[1] == "gen":
    Path(sys.argv[2]).mkdir(parents=True, exist_ok=True)
    t = time.time()
    with cf.ProcessPoolExecutor(4) as ex:
        for name in ex.map(make, GRAPHS, [sys.argv[2]] * len(GRAPHS)): print(name, f"{time.time() - t:.0f} s", flush=True)
else:
    tree, label, d, out = sys.argv[2:6]
    from sssp_demo import bfs as B
    assert B.__file__.startswith(tree), B.__file__
    with open(out, "a") as f:
        for name in GRAPHS:
            z = np.load(Path(d) / f"{name}.npz")
            dg = B.DeviceGraph.upload(z["indptr"], z["indices"], int(z["n"]))
            for algorithm in ("queue", "compaction"):
                for per_sm in (1, 2):
                    row = {"tree": label, "graph": name, "algorithm": algorithm, "per_sm": per_sm}
                    try:
                        run = B.CudaBfs(dg, algorithm, "sfq", budget_s=2.0, blocks_per_sm=per_sm)
                        run.time(int(z["source"]), repeats=5, warmup=1)
                        depth, _, _ = run.run(int(z["source"]))
                        row.update(kernel_ms=statistics.median(run.kernel_ms), exact=bool(np.array_equal(depth.get(), z["ref"])))
                    except Exception as e:
                        row.update(error=f"{type(e).__name__}: {e}"[:300])
                    f.write(json.dumps(row) + "\n"); f.flush()
