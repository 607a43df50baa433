"""Timing a bare kernel launch on the GPU with CUDA events: the loop the measuring aids share
(tools/gpu_grid_sync_probe.py, tools/gpu_cluster_exchange_probe.py)."""

from __future__ import annotations

import statistics


def us_per_round(fn, grid: tuple, block: tuple, args: tuple, rounds: int, runs: int = 3) -> float:
    """The median over `runs` launches of fn(grid, block, args), after one untimed warm-up
    launch, in microseconds per each of the kernel's `rounds` rounds."""
    import cupy

    times = []
    for k in range(runs + 1):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        fn(grid, block, args)
        end.record()
        end.synchronize()
        if k:
            times.append(cupy.cuda.get_elapsed_time(start, end) * 1e3 / rounds)
    return statistics.median(times)
