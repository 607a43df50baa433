"""What one grid barrier costs on this GPU (a measuring aid for issues 4 and 6):

    python3 tools/gpu_barrier_probe.py [ROUNDS]        (default 20000)

The barrier of the grid forms (sssp/grid.h: one 64-bit arrival counter whose bit 31 each barrier
flips) alone, through kernels/grid_barrier.cu with no work between barriers, for each block width
and number of blocks an SM that fits (every block resident): the median of 3 timed runs after a
warm-up, in microseconds a barrier. Near-Far and Bellman-Ford launch one block of 512 an SM, the BFS two of
256, parDijkstra's grid form four of 256.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sssp_demo.grid_forms import barrier_probe_cuda

SHAPES = [(256, 1), (256, 2), (256, 4), (256, 8), (512, 1), (512, 2), (512, 4), (1024, 1), (1024, 2)]


def main() -> int:
    import cupy

    from queues_cuda.errors import GQError

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    print(f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}: {rounds:,} barriers a run, median of 3")
    print(f"{'threads':>8s} {'blocks/SM':>9s} {'blocks':>7s} {'us/barrier':>11s}")
    for width, per_sm in SHAPES:
        try:
            barrier_probe_cuda(per_sm, width, 100, tally=False)  # warm-up (and the module's load)
            times = [barrier_probe_cuda(per_sm, width, rounds, tally=False) for _ in range(3)]
        except GQError as e:
            print(f"{width:>8d} {per_sm:>9d}  skipped: {e}")
            continue
        blocks = times[0][0].size
        assert all((t[0] == rounds).all() for t in times), "a block missed a barrier"
        us = statistics.median(t[2] for t in times) / rounds * 1e6
        print(f"{width:>8d} {per_sm:>9d} {blocks:>7d} {us:>11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
