"""The grid forms the GPU runs (include/sssp/near_far_grid.h, par_dijkstra_grid.h,
predecessors.h), on the CPU build: std::threads as one-thread blocks meeting at the same software
grid barrier. Exactly scipy's distances and a predecessor tree that realises them, on random
graphs with zero weights (zero-weight cycles: the predecessor passes must not close them),
parallel edges, self-loops, unreachable vertices and a single vertex; every chunk size from one
edge per work item up; the seed DAG's closed form; limit."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra
from test_sssp_algorithms import random_graph

from sssp_demo import generators
from sssp_demo.grid_forms import GRID_ALGORITHMS, run_cpu_grid
from sssp_demo.reference import check_distances


def check(g, source, algorithm, limit=np.inf, **kw):
    dist, pred, stats = run_cpu_grid(g.indptr, g.indices, g.data, g.shape[0], source, algorithm, limit=limit, **kw)
    ref = dijkstra(g, indices=source, limit=limit)
    assert np.array_equal(dist, ref), f"{int((dist != ref).sum())} distances differ ({stats})"
    if np.isinf(limit):
        problems = check_distances(g, source, dist, pred)
        assert not problems, problems
    return stats


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
# (threads, edges per item, largest round that block 0 runs alone: 0 never, 2 some, 10**6 every)
@pytest.mark.parametrize("threads, ch, local", [(1, 1, 0), (3, 3, 2), (4, 64, 0), (4, 2, 10**6), (3, 1, 5)])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n, m", [(1, 0), (2, 1), (50, 200), (300, 3000), (1000, 4000)])
def test_grid_forms_equal_scipy(algorithm, threads, ch, local, seed, n, m):
    g = random_graph(seed, n, m, zero_frac=0.3 if seed % 2 else 0.0)
    check(g, seed % n, algorithm, d=7, delta=5.0, threads=threads, ch=ch, local_items=local)


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
@pytest.mark.parametrize("local", [2, 10**6])  # 10**6: block 0 alone, but never more than kMaxLocalRounds in a row
def test_grid_forms_on_the_seed_dag(algorithm, local):
    n = 1500
    g = generators.seed_dag(n, 60_000, 1)
    dist, pred, stats = run_cpu_grid(g.indptr, g.indices, g.data, n, 0, algorithm, d=4096,
                                     delta=32 * g.data.mean() / (g.nnz / n), threads=2, ch=16, local_items=local)
    assert np.array_equal(dist, np.arange(n, dtype=float))
    assert np.array_equal(pred[1:], np.arange(n - 1))  # the chain is the only shortest path
    if algorithm.startswith("pardijkstra"):
        assert stats["relaxations"] == g.nnz  # every vertex settled once, every edge relaxed once


@pytest.mark.parametrize("algorithm", ["near-far", "bellman-ford"])
@pytest.mark.parametrize("own_cap", [1, 3, 17, 1024])
@pytest.mark.parametrize("seed", range(4))
def test_local_rounds_in_own_lists(algorithm, own_cap, seed):
    """Block 0's local rounds keep their frontiers in own lists of `own_cap` items (the GPU's
    shared memory) and spill past them into the device list: tiny lists spill nearly every round;
    ch = 1 gives vertices of many chunks, which still go in once (the mark exchange)."""
    g = random_graph(seed, 300, 1500, zero_frac=0.3 if seed % 2 else 0.0)
    check(g, seed, algorithm, delta=3.0, threads=3, ch=1 + seed % 3, local_items=10**6, own_cap=own_cap)


@pytest.mark.parametrize("algorithm", ["near-far", "bellman-ford"])
@pytest.mark.parametrize("own_cap", [2, 1024])
def test_local_rounds_on_a_maze(algorithm, own_cap):
    """A maze is one long corridor tree: thousands of small rounds, past kMaxLocalRounds in a row."""
    from sssp_demo import maps

    g, _ = maps.grid_graph(maps.generate_maze(301, 3), dtype=np.float64)
    stats = check(g, 0, algorithm, delta=32.0, threads=2, ch=4, local_items=1024, own_cap=own_cap)
    assert stats["rounds"] > 1024


@pytest.mark.parametrize("delta", [1e-6, 0.5, 5.0, 1e9])
def test_near_far_any_delta(delta):
    """Tiny deltas make the threshold jump many steps per far phase (raise_threshold's division);
    huge ones make Near-Far a Bellman-Ford. Exact either way."""
    g = random_graph(5, 400, 4000, zero_frac=0.2)
    g.data *= 1.37  # non-integer weights: sums must still equal scipy's bit for bit
    check(g, 1, "near-far", delta=delta, threads=3, ch=2)


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
def test_grid_forms_limit(algorithm):
    g = random_graph(3, 200, 1500, zero_frac=0.2)
    check(g, 0, algorithm, limit=15.0, d=5, delta=3.0, threads=4, ch=2)


def test_zero_weight_cycle_gets_a_tree():
    """0 -> 1 (w 1), then 1 <-> 2 <-> 3 all zero: three vertices at one distance, tight both ways."""
    import scipy.sparse as sp

    u = np.array([0, 1, 2, 2, 3, 3, 1])
    v = np.array([1, 2, 1, 3, 2, 1, 3])
    w = np.array([1.0, 0, 0, 0, 0, 0, 0])
    g = sp.csr_matrix((w, (u, v)), shape=(4, 4))
    for algorithm in GRID_ALGORITHMS:
        check(g, 0, algorithm, threads=2, ch=1)


def shuffled_rows(g, seed):
    """The same graph with each row's edges in a random order (as a hand-built CSR may have them)."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    rows = np.repeat(np.arange(g.shape[0]), np.diff(g.indptr))
    order = np.lexsort((rng.random(g.nnz), rows))
    return sp.csr_matrix((g.data[order], g.indices[order], g.indptr), shape=g.shape)


@pytest.mark.parametrize("threads", [1, 2, 5, 64])  # 64 > n: some slices are empty
@pytest.mark.parametrize("seed", range(3))
def test_sliced_rows_in_any_order(threads, seed):
    """pardijkstra-sliced lays a row's edges out by the slice of their target, whatever their
    order in the row: the distances are still exactly scipy's."""
    g = shuffled_rows(random_graph(seed, 60, 600, zero_frac=0.3), seed)
    assert not g.has_sorted_indices
    stats = check(g, seed, "pardijkstra-sliced", threads=threads, follow=False)
    assert stats["rounds"] == int(np.isfinite(dijkstra(g, indices=seed)).sum())  # one vertex settled a round
    followed = check(g, seed, "pardijkstra-sliced", threads=threads)
    assert followed["rounds"] <= stats["rounds"]


@pytest.mark.parametrize("form", ["grid", "cluster"])
@pytest.mark.parametrize("threads", [1, 3, 64])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n, m, zero_frac", [(60, 600, 0.0), (300, 3000, 0.3), (300, 600, 0.0), (1000, 4000, 0.05)])
def test_sliced_follower(form, threads, seed, n, m, zero_frac):
    """pardijkstra-sliced's follower (sssp/slice_dijkstra.h): the winner's target over an edge of
    the least weight, settled in the same round. The random graphs' integer weights make such
    edges common (and zero weights, with zero-weight cycles, the least): exactly scipy's distances,
    with and without a limit, and fewer rounds than vertices."""
    g = shuffled_rows(random_graph(seed, n, m, zero_frac=zero_frac), seed)
    stats = check(g, seed % n, "pardijkstra-sliced", threads=threads, sliced_form=form)
    assert stats["rounds"] <= int(np.isfinite(dijkstra(g, indices=seed % n)).sum())
    check(g, seed % n, "pardijkstra-sliced", limit=9.0, threads=threads, sliced_form=form)


@pytest.mark.parametrize("form", ["grid", "cluster"])
@pytest.mark.parametrize("threads", [1, 2, 4])
def test_sliced_follower_halves_the_seed_dag_rounds(form, threads):
    """On the seed DAG the follower of u is u + 1 (the chain's edge, weight 1, the least), so
    each round settles two vertices."""
    n = 200
    g = generators.seed_dag(n, 3000, 5)
    stats = check(g, 0, "pardijkstra-sliced", threads=threads, sliced_form=form)
    assert stats["rounds"] == n // 2
    assert check(g, 0, "pardijkstra-sliced", threads=threads, sliced_form=form, follow=False)["rounds"] == n


@pytest.mark.parametrize("form", ["grid", "cluster"])
def test_sliced_follower_with_a_lower_key_stays_a_candidate(form):
    """The follower x of u (u -> x has the least weight, 1) already holds a key below d_u + 1
    when u wins: x's edges go out with too large a distance, x is not settled, and it must still
    be extracted later with its own key. 0 -> 1 (1.25), 0 -> 2 (1.75), 1 -> 2 (1), 2 -> 3 (3),
    1 -> 3 (1): d = 0, 1.25, 1.75, 2.25; the follower of 1 is 2 (its least target of weight 1),
    relaxed with 2.25; x = 2 settled there would give d(2) = 2.25."""
    import scipy.sparse as sp

    u, v, w = [0, 0, 1, 1, 2], [1, 2, 2, 3, 3], [1.25, 1.75, 1.0, 1.0, 3.0]
    g = sp.csr_matrix((w, (u, v)), shape=(4, 4))
    for threads in (1, 2, 4):
        check(g, 0, "pardijkstra-sliced", threads=threads, sliced_form=form)


@pytest.mark.parametrize("threads", [1, 3, 64])
@pytest.mark.parametrize("seed", range(3))
def test_sliced_cluster_tournament(threads, seed):
    """The cluster's tournament (the GPU's distributed shared memory form; here the grid barrier
    stands in for the cluster's, and a peer's candidates are read where it wrote them)."""
    g = shuffled_rows(random_graph(seed, 300, 3000, zero_frac=0.3), seed)
    dist, pred, _ = run_cpu_grid(g.indptr, g.indices, g.data, 300, seed, "pardijkstra-sliced", threads=threads,
                                 sliced_form="cluster")
    assert np.array_equal(dist, dijkstra(g, indices=seed))
    assert not check_distances(g, seed, dist, pred)
    limited, _, _ = run_cpu_grid(g.indptr, g.indices, g.data, 300, seed, "pardijkstra-sliced", limit=9.0,
                                 threads=threads, sliced_form="cluster")
    assert np.array_equal(limited, dijkstra(g, indices=seed, limit=9.0))


def test_sliced_cpu_refuses_large_graphs_and_bench_skips_it(monkeypatch, capsys):
    """The CPU build of pardijkstra-sliced scans every slice each round, so a large graph is
    refused with a message; `gq sssp --bench` then shows that row as skipped and still runs the
    others."""
    import scipy.sparse as sp

    from gq.sssp_cli import print_table
    from sssp_demo import bench, grid_forms

    n = grid_forms.SLICED_CPU_MAX_VERTICES + 1
    chain = sp.csr_matrix((np.ones(n - 1), np.arange(1, n), np.r_[np.arange(n), n - 1]), shape=(n, n))
    with pytest.raises(grid_forms.OutOfReach, match="at most 250,000"):
        run_cpu_grid(chain.indptr, chain.indices, chain.data, n, 0, "pardijkstra-sliced")
    monkeypatch.setattr(grid_forms, "SLICED_CPU_MAX_VERTICES", 10)
    rows = bench.bench_graph(random_graph(2, 50, 300), 0, repeats=1, warmup=0, backend="cpu")
    skipped = [r for r in rows if "skipped" in r]
    assert [r["algorithm"] for r in skipped] == ["pardijkstra-sliced"]
    assert all(r["exact"] for r in rows) and len(rows) == len(bench.ALGORITHMS)
    print_table(rows)
    assert "pardijkstra-sliced     cpu              -  skipped: pardijkstra-sliced on the CPU" in capsys.readouterr().out


def test_block_widths():
    """Near-Far and Bellman-Ford take either of their widths (512 by default); the other grid
    kernels only theirs; anything else is one clear error."""
    from queues_cuda.errors import GQError
    from sssp_demo.grid_forms import BLOCK, NEAR_FAR_BLOCK, NEAR_FAR_BLOCKS, block_width

    assert NEAR_FAR_BLOCK in NEAR_FAR_BLOCKS
    for algorithm in ("near-far", "bellman-ford"):
        assert block_width(algorithm) == NEAR_FAR_BLOCK
        for width in NEAR_FAR_BLOCKS:
            assert block_width(algorithm, width) == width
        with pytest.raises(GQError, match="block: expected one of 256, 512, got 1024"):
            block_width(algorithm, 1024)
    assert block_width("pardijkstra") == BLOCK
    with pytest.raises(GQError, match="only near-far and bellman-ford take a block width; pardijkstra-sliced"):
        block_width("pardijkstra-sliced", 512)
