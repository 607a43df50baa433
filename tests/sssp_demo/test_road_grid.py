"""generators.road_grid, the vectorised road stand-in of the BFS benchmark: the interchange CSR
(sorted rows, no parallel edges, two-way, Euclidean weights), connected for every keep, the mean
degree 2 (1 + keep), the staircase depth from a corner, deterministic per seed, and its checks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sssp_demo.bfs import as_csr, reference_depth
from sssp_demo.generators import road_grid
from sssp_demo.graph_io import GraphError, validate_csgraph


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 7), (6, 1), (2, 2), (9, 13), (40, 30)])
@pytest.mark.parametrize("keep", [0.0, 0.2, 1.0])
def test_connected_planar_grid(rows, cols, keep):
    g = road_grid(rows, cols, 5, keep=keep)
    validate_csgraph(g)
    n = rows * cols
    assert g.shape == (n, n)
    assert (g != g.T).nnz == 0  # two-way, one length per street
    for r in range(n):
        row = g.indices[g.indptr[r]:g.indptr[r + 1]]
        assert np.all(np.diff(row) > 0)  # sorted, no repeats
        assert set(row) <= {r - cols, r - 1, r + 1, r + cols} - {r}
    rows_of = np.repeat(np.arange(n), np.diff(g.indptr))
    horizontal = (np.abs(g.indices - rows_of) == 1) & (cols > 1)
    assert np.all(rows_of[horizontal] // cols == g.indices[horizontal] // cols)  # no wrap to the next row
    assert sp.csgraph.connected_components(g)[0] == 1
    if n > 1:
        assert np.all(g.data >= 0.4 - 1e-12) and np.all(g.data <= np.hypot(1.6, 0.6) + 1e-12)
    if keep == 1.0:
        assert g.nnz == 2 * (rows * (cols - 1) + cols * (rows - 1))
    if keep == 0.0:
        assert g.nnz == 2 * (n - 1)  # the spanning tree alone


def test_degree_and_depth_from_the_corner():
    g = road_grid(200, 300, 1)
    assert abs(g.nnz / g.shape[0] - 2.4) < 0.05
    depth = reference_depth(*as_csr(g), 0)
    assert depth.max() == 200 + 300 - 2  # the staircase is a shortest path from (0, 0)


def test_deterministic_per_seed():
    a, b, c = road_grid(30, 40, 3), road_grid(30, 40, 3), road_grid(30, 40, 4)
    for field in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
    assert not np.array_equal(a.indices, c.indices)


@pytest.mark.parametrize("kwargs, message", [
    ({"rows": 0, "cols": 3, "seed": 0}, "rows"),
    ({"rows": 3, "cols": 3, "seed": -1}, "seed"),
    ({"rows": 3, "cols": 3, "seed": 0, "keep": 1.5}, "keep"),
    ({"rows": 2**16, "cols": 2**16, "seed": 0}, "at most"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(GraphError, match=message):
        road_grid(**kwargs)
