"""Where a round of pardijkstra-sliced goes, on one GPU (a measuring aid for issue 4):

    python3 tools/gpu_slice_probe.py [EDGES ...]        (default: 1000000 30000000)
    GQ_SLICE_VARIANTS="cluster16 x512,grid" python3 tools/gpu_slice_probe.py ...   (only those)
    GQ_SLICE_RELABEL=1 python3 tools/gpu_slice_probe.py ...   (the DAG's vertices in a random order)

For each seed DAG (n = 30,000) and each variant in VARIANTS (the grid form, and the cluster form
at both of its block widths, of 8 and of 16 blocks; with the follower, and the 16-block cluster
without it), runs pardijkstra-sliced with every block's profile counters on
(sssp/slice_dijkstra.h: SM cycles in the block's least key (its warps' minima and the block
barrier, so the wait for the block's slowest warp), the tournament and the relaxation, and how
often its thread 0 re-read a slot not yet published: grid form only) and prints the median time
of 5 runs, the time per round and the split of a round, checked against the closed form
dist(v) = v. The split is block 0's; the block that waited least in the tournament (the busiest)
is named with its own split in microseconds a round. `settled/round` is the vertices reached over
the rounds (2 where every round's follower is settled: sssp/slice_dijkstra.h).
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sssp_demo import generators
from sssp_demo.grid_forms import SLICED_PROFILE_WORDS, DeviceGraph, _run_sliced, advance_shape, sliced_shape
from sssp_demo.sssp import as_csr

# name: (form, threads a block, or None for the form's own choice, blocks of a cluster, the follower)
VARIANTS = {"grid": ("grid", None, 8, True), "cluster x512": ("cluster", 512, 8, True),
            "cluster x1024": ("cluster", 1024, 8, True), "cluster16 x512": ("cluster", 512, 16, True),
            "cluster16 x1024": ("cluster", 1024, 16, True), "cluster16 x512 nofollow": ("cluster", 512, 16, False)}
# Measured and dropped (benchmarks/results/README.md, runs 35-42 and 94): packed slots, a sleep
# after every poll, 66/33/16 blocks instead of one per SM, cluster blocks of 256 threads, in the
# cluster every warp reading every warp's minimum instead of one block barrier, and a prefetch
# into L2 of the row of a vertex about to be settled.
N = 30_000


def main() -> int:
    import cupy

    edges = [int(a) for a in sys.argv[1:]] or [1_000_000, 30_000_000]
    picked = [v for v in os.environ.get("GQ_SLICE_VARIANTS", "").split(",") if v]  # e.g. "cluster16 x512"
    clock_khz = cupy.cuda.Device().attributes["ClockRate"]
    print(f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}, SM clock {clock_khz / 1e6:.2f} GHz (attribute)")
    print(f"{'edges':>12s} {'variant':16s} {'ms':>8s} {'us/round':>9s} {'reduce':>6s} {'tourn':>6s} {'relax':>6s} "
          f"{'rereads/round':>13s} {'settled/round':>13s}  exact")
    relabel = os.environ.get("GQ_SLICE_RELABEL", "0") != "0"
    if relabel:
        print("the seed DAG's vertices relabelled by a random permutation (seed 7)")
    for m in edges:
        dag = generators.seed_dag(N, m, 1)
        want, source = np.arange(N, dtype=np.float64), 0
        if relabel:  # vertex v becomes perm[v]: the settle order no longer follows the numbering
            perm = np.random.default_rng(7).permutation(N)
            coo = dag.tocoo()
            dag = sp.csr_matrix((coo.data, (perm[coo.row], perm[coo.col])), shape=dag.shape)
            relabelled = np.empty(N)
            relabelled[perm] = want
            want, source = relabelled, int(perm[0])
            del coo
        dg = DeviceGraph.upload(*as_csr(dag))
        del dag
        lanes, _ = advance_shape(dg.mean_degree)
        for name, (form, width, cluster, follow) in VARIANTS.items():
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
                    dist, _, stats = _run_sliced(dg, source, np.inf, None, lanes, form=form, width=width, profile=profile,
                                                 cluster_blocks=cluster, follow=follow)
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
                  f"{p[0, 0] / total:6.1%} {p[0, 1] / total:6.1%} {p[0, 2] / total:6.1%} {p[0, 3] / rounds:13.2f} "
                  f"{N / rounds:13.2f}  {exact}"
                  f"   (block 0: {total / rounds / clock_khz * 1e3:.2f} us/round; busiest, block {b}: reduce "
                  f"{us[0]:.2f}, tournament {us[1]:.2f}, relax {us[2]:.2f} us; relax as u's owner {own_us:.2f}, "
                  f"else {other_us:.2f} us)")
        del dg
        cupy.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
