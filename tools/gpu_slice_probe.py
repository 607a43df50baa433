"""Where a round of pardijkstra-sliced goes, on one GPU (a measuring aid for issue 4):

    python3 tools/gpu_slice_probe.py [EDGES ...]        (default: 1000000 30000000)
    GQ_SLICE_VARIANTS="cluster16 x512,grid" python3 tools/gpu_slice_probe.py ...   (only those)

For each seed DAG (n = 30,000) and each variant in VARIANTS (the grid form, and the cluster form
at both of its block widths, of 8 and of 16 blocks), runs pardijkstra-sliced with every block's
profile counters on
(sssp/slice_dijkstra.h: SM cycles in the block's least key (its warps' minima and the block
barrier, so the wait for the block's slowest warp), the tournament and the relaxation, and how
often its thread 0 re-read a slot not yet published: grid form only) and prints the median time
of 5 runs, the time per round and the split of a round, checked against the closed form
dist(v) = v. The split is block 0's; the block that waited least in the tournament (the busiest)
is named with its own split in microseconds a round.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sssp_demo import generators
from sssp_demo.grid_forms import SLICED_PROFILE_WORDS, DeviceGraph, _run_sliced, advance_shape, sliced_shape
from sssp_demo.sssp import as_csr

# name: (form, threads a block, or None for the form's own choice, blocks of a cluster)
VARIANTS = {"grid": ("grid", None, 8), "cluster x512": ("cluster", 512, 8), "cluster x1024": ("cluster", 1024, 8),
            "cluster16 x512": ("cluster", 512, 16), "cluster16 x1024": ("cluster", 1024, 16)}
# Measured and dropped (benchmarks/results/README.md, runs 35-42): packed slots, a sleep after
# every poll, 66/33/16 blocks instead of one per SM, cluster blocks of 256 threads, and in the
# cluster every warp reading every warp's minimum instead of one block barrier.
N = 30_000


def main() -> int:
    import cupy

    edges = [int(a) for a in sys.argv[1:]] or [1_000_000, 30_000_000]
    picked = [v for v in os.environ.get("GQ_SLICE_VARIANTS", "").split(",") if v]  # e.g. "cluster16 x512"
    clock_khz = cupy.cuda.Device().attributes["ClockRate"]
    print(f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}, SM clock {clock_khz / 1e6:.2f} GHz (attribute)")
    print(f"{'edges':>12s} {'variant':16s} {'ms':>8s} {'us/round':>9s} {'reduce':>6s} {'tourn':>6s} {'relax':>6s} "
          f"{'rereads/round':>13s}  exact")
    for m in edges:
        dg = DeviceGraph.upload(*as_csr(generators.seed_dag(N, m, 1)))
        lanes, _ = advance_shape(dg.mean_degree)
        want = np.arange(N, dtype=np.float64)
        for name, (form, width, cluster) in VARIANTS.items():
            if picked and name not in picked:
                continue
            seconds, exact = [], True
            blocks = sliced_shape(N, form, cluster)[0]
            profile = cupy.zeros(SLICED_PROFILE_WORDS * blocks, cupy.uint64)
            try:
                for i in range(6):
                    profile.fill(0)
                    start, end = cupy.cuda.Event(), cupy.cuda.Event()
                    start.record()
                    dist, _, stats = _run_sliced(dg, 0, np.inf, None, lanes, form=form, width=width, profile=profile,
                                                 cluster_blocks=cluster)
                    end.record()
                    end.synchronize()
                    exact = exact and bool(np.array_equal(dist.get(), want))
                    if i:
                        seconds.append(cupy.cuda.get_elapsed_time(start, end) / 1e3)
            except Exception as e:  # a cluster of 16 the GPU cannot place, say: the other variants still run
                print(f"{m:>12,d} {name:16s} failed: {type(e).__name__}: {e}")
                continue
            p = profile.get().astype(float).reshape(blocks, SLICED_PROFILE_WORDS)
            rounds = stats["rounds"]
            total = p[0, :3].sum()
            med = statistics.median(seconds)
            # The busiest block waits least in the tournament: its own reduce and relax are the round's path.
            b = int(np.argmin(p[:, 1]))
            us = p[b, :3] / rounds / clock_khz * 1e3
            # Relax in the rounds a block owned u (its rescan) against the others, over all blocks.
            owned = p[:, 5].sum()
            own_us = p[:, 4].sum() / max(owned, 1) / clock_khz * 1e3
            other_us = (p[:, 2].sum() - p[:, 4].sum()) / max(rounds * blocks - owned, 1) / clock_khz * 1e3
            print(f"{m:>12,d} {name:16s} {med * 1e3:8.2f} {med / rounds * 1e6:9.2f} "
                  f"{p[0, 0] / total:6.1%} {p[0, 1] / total:6.1%} {p[0, 2] / total:6.1%} {p[0, 3] / rounds:13.2f}  {exact}"
                  f"   (block 0: {total / rounds / clock_khz * 1e3:.2f} us/round; busiest, block {b}: reduce "
                  f"{us[0]:.2f}, tournament {us[1]:.2f}, relax {us[2]:.2f} us; relax as u's owner {own_us:.2f}, "
                  f"else {other_us:.2f} us)")
        del dg
        cupy.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
