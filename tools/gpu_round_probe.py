"""What one round of Near-Far and Bellman-Ford costs against its width, on one GPU (a measuring aid
for issue 4's planner goal):

    python3 tools/gpu_round_probe.py

A maze round averages about 220 vertices and costs 5.5 us (run 49), where two device-memory round
trips predict about 2.5 us. This probe separates the fixed cost of a round from its width: on a
chain (one vertex a round), on open strips of 8 to 512 pixels across (a front about as wide as the
strip), and on mazes. Each graph runs as shipped (small rounds on block 0 alone, their frontiers
in its shared memory) and with no local rounds at all (`local_passes=0`: every round a grid
round, which prices the grid barrier). Times are CUDA events around run_cuda, predecessor passes
included (sssp_demo.bench.time_cuda), median of 3 after a warm-up; the last run is checked against
scipy.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sssp_demo import maps
from sssp_demo.bench import time_cuda
from sssp_demo.grid_forms import DeviceGraph
from sssp_demo.sssp import as_csr, davidson_delta

REPEATS = 3
CHAIN = 100_000
STRIP_LENGTH = 5_000
STRIP_WIDTHS = (8, 64, 512)
MAZES = (1024, 2048)


def chain(n: int):
    """0 - 1 - ... - (n - 1), both ways, weight 1: n - 1 rounds of one vertex."""
    import scipy.sparse as sp

    u = np.arange(n - 1)
    rows, cols = np.concatenate([u, u + 1]), np.concatenate([u + 1, u])
    return sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))


def graphs():
    yield f"chain {CHAIN:,}", chain(CHAIN)
    for width in STRIP_WIDTHS:
        yield f"strip {width}x{STRIP_LENGTH:,}", maps.grid_graph(np.ones((width, STRIP_LENGTH), np.float32))[0]
    for size in MAZES:
        yield f"maze {size}^2", maps.grid_graph(maps.generate_maze(size, 0))[0]


def main() -> int:
    import cupy
    from scipy.sparse.csgraph import dijkstra

    print(f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    print(f"{'graph':20s} {'algorithm':13s} {'local':>5s} {'ms':>9s} {'rounds':>8s} {'us/round':>9s} "
          f"{'items/round':>11s}  exact")
    for name, g in graphs():
        indptr, idx, w, n = as_csr(g)
        dg = DeviceGraph.upload(indptr, idx, w, n)
        ref = dijkstra(g, indices=0)
        delta = davidson_delta(float(w.mean()), dg.mean_degree)
        for algorithm in ("bellman-ford", "near-far"):
            for local in (None, 0):  # as shipped, and none
                seconds, stats, (dist, _) = time_cuda(dg, 0, algorithm, REPEATS, 1, delta=delta, local_passes=local)
                ms = statistics.median(seconds) * 1e3
                rounds = max(1, stats.rounds)
                print(f"{name:20s} {algorithm:13s} {'no' if local == 0 else 'yes':>5s} {ms:9.2f} {rounds:8,d} "
                      f"{ms * 1e3 / rounds:9.2f} {stats.improvements / rounds:11.1f}  "
                      f"{bool(np.array_equal(dist, ref))}", flush=True)
        del dg
        cupy.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
