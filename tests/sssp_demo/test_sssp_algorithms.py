"""parDijkstra, its batched form and the Near-Far and Bellman-Ford baselines (CPU build) against
scipy's dijkstra: identical distances on integer weights,
predecessors that realise them, on random graphs with zero-weight edges, parallel edges,
self-loops, unreachable vertices and a single vertex; the seed DAG's closed form; limit."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from queues_cuda.errors import GQError
from sssp_demo.sssp import SsspStats, reconstruct_path, route_search, sssp


def random_graph(seed: int, n: int, m: int, zero_frac: float = 0.1) -> sp.csr_matrix:
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n, m)
    v = rng.integers(0, n, m)
    w = rng.integers(1, 20, m).astype(float)
    w[rng.random(m) < zero_frac] = 0.0
    return _csr_keep_duplicates(u, v, w, n)


def _csr_keep_duplicates(u, v, w, n):
    """CSR with parallel edges kept as separate entries (a COO conversion would sum them):
    scipy's dijkstra and ours both take the cheaper one."""
    order = np.lexsort((v, u))
    indptr = np.zeros(n + 1, np.int64)
    np.add.at(indptr, u + 1, 1)
    return sp.csr_matrix((w[order], v[order], np.cumsum(indptr)), shape=(n, n))


def check_against_scipy(g, source, **kw):
    dist, pred = sssp(g, indices=source, backend="cpu", **kw)
    ref = dijkstra(g, indices=source, limit=kw.get("limit", np.inf))
    assert np.array_equal(dist, ref), f"{int((dist != ref).sum())} distances differ"
    reach = np.isfinite(dist)
    assert (pred[~reach] == -9999).all() and pred[source] == -9999
    coo = g.tocoo()
    best = {}
    for a, b, w in zip(coo.row, coo.col, coo.data):
        best[(a, b)] = min(w, best.get((a, b), np.inf))
    for v in np.flatnonzero(reach):
        if v == source:
            continue
        p = pred[v]
        assert dist[p] + best[(p, v)] == dist[v], f"pred[{v}] = {p} does not realise dist {dist[v]}"
    return dist, pred


ALGORITHMS = ["pardijkstra", "pardijkstra-batched", "near-far", "bellman-ford"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("n, m, d", [(1, 0, None), (2, 1, None), (50, 200, None), (300, 3000, 2), (1000, 4000, None)])
def test_equals_scipy_on_random_graphs(algorithm, seed, n, m, d):
    g = random_graph(seed, n, m, zero_frac=0.1 if seed % 2 else 0.0)
    check_against_scipy(g, seed % n, d=d, algorithm=algorithm)


def test_batched_rounds_are_fewer_and_exact():
    g = random_graph(4, 2000, 20000, zero_frac=0.0)
    g.data += 10.0  # weights 11..29: the minimum plus 11 settles many vertices at once
    rounds = {}
    for algorithm in ("pardijkstra", "pardijkstra-batched"):
        stats = SsspStats()
        check_against_scipy(g, 0, algorithm=algorithm, stats=stats)
        rounds[algorithm] = stats.rounds
    assert rounds["pardijkstra-batched"] * 3 < rounds["pardijkstra"], rounds


def test_seed_dag_closed_form():
    n, extra = 2000, 20000
    rng = np.random.default_rng(1)
    u = rng.integers(0, n - 2, extra)
    v = u + 2 + (rng.random(extra) * (n - 2 - u)).astype(np.int64)
    us = np.concatenate([np.arange(n - 1), u])
    vs = np.concatenate([np.arange(1, n), v])
    ws = np.concatenate([np.ones(n - 1), 2.0 * (v - u)])
    g = _csr_keep_duplicates(us, vs, ws, n)
    stats = SsspStats()
    dist, pred = sssp(g, indices=0, backend="cpu", stats=stats)
    assert np.array_equal(dist, np.arange(n, dtype=float))
    assert reconstruct_path(pred, n - 1) == list(range(n))
    assert stats.rounds == n and stats.relaxations == g.nnz


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_limit_and_several_sources(algorithm):
    g = random_graph(3, 200, 1500, zero_frac=0.0)
    check_against_scipy(g, 0, limit=15.0, algorithm=algorithm)
    dist = sssp(g, indices=[0, 5], backend="cpu", return_predecessors=False)
    assert dist.shape == (2, 200) and np.array_equal(dist, dijkstra(g, indices=[0, 5]))


@pytest.mark.parametrize("bad, message", [
    (sp.csr_matrix(np.array([[0, -1.0], [0, 0]])), "negative edge weight"),
    (sp.csr_matrix(np.ones((2, 3))), "square"),
    (sp.csr_matrix(np.array([[0, np.nan], [0, 0]])), "finite"),
])
def test_bad_graphs(bad, message):
    with pytest.raises(GQError, match=message):
        sssp(bad, indices=0, backend="cpu")


def test_bad_source_and_backend():
    g = random_graph(0, 10, 20)
    with pytest.raises(GQError, match="out of range"):
        sssp(g, indices=10, backend="cpu")
    with pytest.raises(GQError, match="--algorithm"):
        sssp(g, algorithm="bellman")


KERNEL_DIR = __import__("pathlib").Path(__file__).resolve().parents[2] / "sssp_demo" / "kernels"


@pytest.mark.parametrize("algorithm", ["near-far", "pardijkstra", "scipy"])
def test_route_search(algorithm):
    """The planner's search: the goal's distance and int32 predecessors, as sssp() has them;
    an unreached goal's distance is inf; a goal out of range is one clear error."""
    g = random_graph(5, 400, 1200)
    ref = dijkstra(g, indices=3)
    for target in (0, 17, 399):
        cost, pred = route_search(g, 3, target, algorithm=algorithm, backend="cpu")
        assert pred.dtype == np.int32 and pred.shape == (400,)
        assert cost == ref[target]
        np.testing.assert_array_equal(pred, sssp(g, 3, algorithm=algorithm, backend="cpu")[1])
    lonely = sp.csr_matrix((3, 3))
    assert route_search(lonely, 0, 2, backend="cpu")[0] == np.inf
    with pytest.raises(GQError, match=r"target 400 is out of range: the graph has 400 vertices \(0..399\)"):
        route_search(g, 3, 400, backend="cpu")


@pytest.mark.parametrize("kernel", sorted(p.name for p in KERNEL_DIR.glob("*.cu")))
def test_kernels_compile_for_sm90(kernel):
    from queues_cuda.build import INCLUDE_DIR, compile_sm90

    compiler, size = compile_sm90(0, (), KERNEL_DIR / kernel, include_dirs=(INCLUDE_DIR, KERNEL_DIR.parent / "include"))
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


def test_every_gpu_kernel_is_compile_checked():
    kernels = {p.name for p in KERNEL_DIR.glob("*.cu")}
    assert {"block_heap.cu", "near_far.cu", "par_dijkstra.cu", "predecessors.cu", "sssp_serial.cu"} <= kernels
