"""The BFS grid forms on the GPU (marker `gpu`): every queue kind and the compaction baseline on
graphs large enough for every expansion tier (lane, warp, chunks of Kronecker hubs) and thousands
of levels; depths equal scipy's and every parent is one level up along an edge. A run that does
not finish within its time budget fails (a stall, not a hang)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sssp_demo import bfs as B
from sssp_demo import generators
from sssp_demo.bfs_bench import variants

pytestmark = pytest.mark.gpu

GRAPHS = {
    "kron-14": lambda: generators.rmat(14, 16, 1, symmetric=True),
    "delaunay-50k": lambda: generators.delaunay(50_000, 2),
    "road-grid-300": lambda: generators.road_grid(300, 300, 3),
    "random": lambda: sp.random(20_000, 20_000, density=1e-4, random_state=4, format="csr"),
    "single": lambda: sp.csr_matrix((1, 1)),
}


@pytest.fixture(scope="module")
def graphs():
    out = {}
    for name, make in GRAPHS.items():
        g = make()
        indptr, indices, n = B.as_csr(g)
        source = B.default_source(indptr)
        out[name] = (B.DeviceGraph.upload(indptr, indices, n), indptr, indices, n, source,
                     B.reference_depth(indptr, indices, n, source))
    return out


@pytest.mark.parametrize("algorithm, queue", variants())
@pytest.mark.parametrize("graph", GRAPHS)
def test_gpu_depths_equal_scipy(graphs, graph, algorithm, queue):
    dg, indptr, indices, n, source, ref = graphs[graph]
    run = B.CudaBfs(dg, algorithm, queue or "glfq", budget_s=10.0)
    for _ in range(2):  # the queues are re-initialised for every run
        depth, parent, stats = run.run(source)
        depth, parent = depth.get(), parent.get()
        assert np.array_equal(depth, ref), f"{int((depth != ref).sum())} depths differ ({stats})"
        problems = B.check_bfs(indptr, indices, n, source, depth, parent)
        assert not problems, problems
        assert stats["levels"] == int(ref.max()) + 1
        assert stats["edges_scanned"] == int(np.diff(indptr)[ref >= 0].sum())


def test_gpu_bfs_function_matches_cpu():
    g = generators.road_grid(50, 60, 7)
    d_gpu, _ = B.bfs(g, 5, backend="cuda")
    d_cpu, _ = B.bfs(g, 5, backend="cpu")
    assert np.array_equal(d_gpu, d_cpu)


@pytest.mark.parametrize("queue", ["glfq", "ymc", None])
def test_gpu_budget_stop_is_clean(queue):
    """A run stopped by its time budget ends with OverBudget, every block leaving at the same
    barrier. Run 20's BFS benchmark saw two budget stops end instead in the grid barrier's spin
    budget (a block had read the leader's stop for a barrier the others had passed without it);
    the stop is now decided once per barrier (sssp/grid.h). 30 stops per variant, at different
    levels of a 1,232-level road grid."""
    from sssp_demo.grid_forms import OverBudget

    g = generators.road_grid(724, 724, 5)
    indptr, indices, n = B.as_csr(g)
    source = B.default_source(indptr)
    dg = B.DeviceGraph.upload(indptr, indices, n)
    stops = 0
    for k in range(30):
        run = B.CudaBfs(dg, "queue" if queue else "compaction", queue or "glfq", budget_s=2e-4 * (k + 1))
        try:
            run.run(source)
        except OverBudget:
            stops += 1
    assert stops > 0, "no run was stopped by its budget: the budgets are too long for this graph"
