"""Runs 365-366: YMC's queue BFS built with GQ_QUEUE_STATS, its counters (slow-path entries, helps,
requests completed by others, successful operations, the longest operation's steps) summed over
both level queues after the last of 3 runs, on R-MAT graphs of scale 19 and 21 at 1 and 2 blocks an
SM. Run 365 ran it with the defines ("GQ_QUEUE_STATS",) alone; run 366 as here, at patience 10
(YMC's default, said through GQ_WFQ_PATIENCE, which YMC's build takes as its own).
Run from the repository root with PYTHONPATH set to it; writes $OUT/ymc-bfs-stats.json."""
import json
import os

import numpy as np

from queues_cuda import build
from sssp_demo import bfs, generators


def stats_at(n: int, threads: int) -> int:
    """Ymc::stats_at at the shipped defines: hot stride 512 words, 16 cells a thread, a pool of at
    least 4,096 cells, segments of 64 cells, scan segments of 1,024 threads."""
    pool = max(16 * threads + 4 * n, 4096, 3 * threads + 64)
    pool = -(-pool // 64) * 64
    return 3 * 512 + threads * 8 + -(-threads // 1024) + 3 * pool


rows, graphs = [], {}
for patience in (10,):
    defines = ("GQ_QUEUE_STATS", f"GQ_WFQ_PATIENCE={patience}")
    bfs.cuda_module = lambda kind_id, d=defines: build.cuda_module(kind_id, d, bfs.KERNEL, bfs.INCLUDE_DIRS)
    bfs._blocks.cache_clear()
    for scale in (19, 21):
        if scale not in graphs:
            indptr, indices, n = bfs.as_csr(generators.rmat(scale, 16, 0, symmetric=True))
            graphs[scale] = (bfs.DeviceGraph.upload(indptr, indices, n), bfs.default_source(indptr))
        graph, source = graphs[scale]
        for per_sm in (1, 2):
            run = bfs.CudaBfs(graph, "queue", "ymc", budget_s=5.0, blocks_per_sm=per_sm)
            ms = run.time(source, repeats=3)
            first = stats_at(run.capacity, run.threads)
            assert run.words == -(-(first + 9 * run.threads) // 512) * 512, (run.words, first)
            total, longest = np.zeros(9, np.uint64), 0
            for q in run.queues:
                counts = q[first:first + 9 * run.threads].get().reshape(run.threads, 9)
                total += counts.sum(axis=0)
                longest = max(longest, int(counts[:, 4].max()))
            row = {"patience": patience, "scale": scale, "blocks_per_sm": per_sm, "threads": run.threads,
                   "ms": [round(x, 3) for x in ms], "slow": int(total[0]), "helps": int(total[1]),
                   "completed": int(total[2]), "ok": int(total[3]), "max_steps": longest}
            print(row, flush=True)
            rows.append(row)
with open(os.environ.get("OUT", ".") + "/ymc-bfs-stats.json", "w") as f:
    json.dump(rows, f, indent=1)
