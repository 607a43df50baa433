"""The level-synchronous BFS grid forms (include/sssp/bfs_*.h) on the CPU build: std::threads as
one-thread blocks meeting at the grid barrier, every queue kind and the compaction baseline.
Depths must equal scipy's breadth_first_order's and every parent must be one level up along an
edge, on random, disconnected, single-vertex, self-loop, repeated-edge, hub (chunked expansion)
and long-path graphs and on small stand-ins (Kronecker, Delaunay, road)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from queues_cuda.errors import GQError, KernelError
from queues_cuda.queues import QUEUES
from sssp_demo import bfs as B
from sssp_demo import generators
from sssp_demo.bfs_bench import variants

VARIANTS = variants()


def random_digraph(seed, n, m):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    return sp.csr_matrix((np.ones(m), (u, v)), shape=(n, n))


def star(n):
    """Vertex 0 points at everyone and everyone back: a hub of n - 1 edges (several chunks of the
    CPU build's 32), then a second hub reached at depth 1."""
    hub = np.zeros(n - 1, np.int64)
    leaves = np.arange(1, n)
    u = np.concatenate([hub, leaves, np.full(n - 2, 1), np.arange(2, n)])
    v = np.concatenate([leaves, hub, np.arange(2, n), np.full(n - 2, 1)])
    return sp.csr_matrix((np.ones(len(u)), (u, v)), shape=(n, n))


def with_repeats_and_loops(g):
    """The same edges stored twice (CSR without summing) plus a self-loop on every vertex."""
    g = g.tocsr()
    n = g.shape[0]
    rows = np.repeat(np.arange(n), np.diff(g.indptr))
    u = np.concatenate([rows, rows, np.arange(n)])
    v = np.concatenate([g.indices, g.indices, np.arange(n)])
    order = np.argsort(u, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(u, minlength=n))])
    return sp.csr_matrix((np.ones(len(u)), v[order], indptr), shape=(n, n))


def path(n):
    return sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))


GRAPHS = {
    "single": lambda: sp.csr_matrix((1, 1)),
    "single-loop": lambda: sp.csr_matrix(np.ones((1, 1))),
    "pair": lambda: sp.csr_matrix(np.array([[0, 1], [0, 0]])),
    "random-sparse": lambda: random_digraph(1, 300, 500),
    "random-dense": lambda: random_digraph(2, 200, 6000),
    "disconnected": lambda: sp.block_diag([random_digraph(3, 100, 400), random_digraph(4, 80, 300)]).tocsr(),
    "repeats-loops": lambda: with_repeats_and_loops(random_digraph(5, 150, 600)),
    "star": lambda: star(300),
    "path": lambda: path(200),
    "kron": lambda: generators.rmat(9, 16, 1, symmetric=True),
    "delaunay": lambda: generators.delaunay(400, 2),
    "road-grid": lambda: generators.road_grid(20, 30, 3),
    "road-like": lambda: generators.road_like(15, 15, 4, keep=0.3),
}


def check(g, source, algorithm, queue, threads):
    indptr, indices, n = B.as_csr(g)
    depth, parent, stats = B.run_cpu(indptr, indices, n, source, algorithm, queue or "glfq", threads)
    ref = B.reference_depth(indptr, indices, n, source)
    assert np.array_equal(depth, ref), f"{int((depth != ref).sum())} depths differ ({stats})"
    problems = B.check_bfs(indptr, indices, n, source, depth, parent)
    assert not problems, problems
    reached = depth >= 0
    assert stats["levels"] == int(depth.max()) + 1
    assert stats["vertices_expanded"] == int(reached.sum())
    assert stats["edges_scanned"] == int(np.diff(indptr)[reached].sum())
    return stats


@pytest.mark.parametrize("algorithm, queue", VARIANTS)
@pytest.mark.parametrize("threads", [1, 4])
@pytest.mark.parametrize("graph", GRAPHS)
def test_depths_equal_scipy(graph, algorithm, queue, threads):
    g = GRAPHS[graph]()
    n = g.shape[0]
    for source in sorted({0, n // 2, n - 1}):
        check(g, source, algorithm, queue, threads)


@pytest.mark.parametrize("algorithm, queue", VARIANTS)
def test_many_threads_many_levels(algorithm, queue):
    """More threads than cores, across a hundred barriers and, at depth 100, a hub's chunk phase:
    a path of 300 vertices whose vertex 100 also points at every vertex from 140 on."""
    hub = sp.csr_matrix((np.ones(160), (np.full(160, 100), np.arange(140, 300))), shape=(300, 300))
    stats = check((path(300) + hub).tocsr(), 0, algorithm, queue, 9)
    assert stats["levels"] == 140  # vertex 139, by the path


def test_bfs_function_and_checks():
    g = generators.road_grid(10, 10, 0)
    stats = B.BfsStats()
    depth, parent = B.bfs(g, 0, backend="cpu", stats=stats)
    assert depth.dtype == np.int32 and parent.dtype == np.int32
    assert depth[99] == 18 and stats.levels == 19  # from a corner of the grid: the staircase
    bad = parent.copy()
    bad[5] = 77
    assert B.check_bfs(g.indptr, g.indices, 100, 0, depth, bad)
    deeper = depth.copy()
    deeper[99] += 2
    assert B.check_bfs(g.indptr, g.indices, 100, 0, deeper, parent)


@pytest.mark.parametrize("kwargs, message", [
    ({"source": 5}, "--source"),
    ({"source": -1}, "--source"),
    ({"queue": "lifo"}, "--queue"),
    ({"algorithm": "dfs"}, "--algorithm"),
    ({"backend": "tpu"}, "--backend"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(GQError, match=message):
        B.bfs(sp.csr_matrix((5, 5)), **dict({"source": 0, "backend": "cpu"}, **kwargs))


def test_non_square_graph():
    with pytest.raises(GQError, match="square"):
        B.bfs(sp.csr_matrix((3, 4)), 0, backend="cpu")


def test_queue_capacity_follows_the_kind():
    assert B.queue_capacity("gwfq", 10**8) == QUEUES["gwfq"].max_capacity
    assert B.queue_capacity("glfq", 10**8) == 10**8
    assert B.queue_capacity("sfq", 1) == 1


@pytest.mark.parametrize("capacity, refused", [(3, True), (5, False)])
def test_sfq_one_lap_view_refuses_a_second_lap(capacity, refused):
    # The queue BFS drives SFQ through its one-lap view (gq/sfq.cuh: SfqView<true>), which has no
    # wrap to work out because each vertex goes into a queue once a run and the host makes the
    # queues hold every vertex. Given less (a 10-vertex path puts 5 vertices into each of its two
    # queues), a ticket past lap 0 must be refused and the run end with the frontier's capacity
    # error, never a slot used twice. With 5 slots each queue's last ticket is 4: no error.
    indptr, indices, n = B.as_csr(path(10))
    if refused:  # kCapacity at kSiteFrontier, as the command reports it
        with pytest.raises(KernelError, match=f"frontier is full at its capacity of {capacity} "):
            B.run_cpu(indptr, indices, n, 0, "queue", "sfq", 4, capacity=capacity)
    else:
        depth, _, _ = B.run_cpu(indptr, indices, n, 0, "queue", "sfq", 4, capacity=capacity)
        assert np.array_equal(depth, np.arange(10))


def test_reference_depth_on_a_path():
    assert np.array_equal(B.reference_depth(*B.as_csr(path(6)), 2), [-1, -1, 0, 1, 2, 3])


def test_default_blocks_per_sm_follows_the_average_degree():
    """One block an SM on the sparse stand-ins (road, Delaunay: small levels), two on Kronecker's."""
    assert B.default_blocks_per_sm(*_shape(generators.road_grid(64, 64, 0))) == 1
    assert B.default_blocks_per_sm(*_shape(generators.delaunay(4096, 0))) == 1
    assert B.default_blocks_per_sm(*_shape(generators.rmat(12, 16, 0, symmetric=True))) == 2
    assert B.default_blocks_per_sm(0, 0) == 1


def _shape(g):
    indptr, indices, n = B.as_csr(g)
    return n, len(indices)
