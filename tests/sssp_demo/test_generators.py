"""Graph generators: the seed paper's DAG has its closed form (dist(v) = v, n - 1 hops, distinct
edges, uniform over the pairs); the stand-ins have their shapes (connected, symmetric, no
self-loops or repeats); all are deterministic per seed and reject bad arguments by name."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from sssp_demo import generators as gen
from sssp_demo.generators import GENERATORS, delaunay, rmat, road_like, seed_dag
from sssp_demo.graph_io import GraphError, validate_csgraph
from sssp_demo.reference import check_distances, scipy_sssp


def edges_of(g):
    rows = np.repeat(np.arange(g.shape[0]), np.diff(g.indptr))
    return rows, g.indices.astype(np.int64), g.data


def assert_canonical(g):
    """Interchange CSR: valid, sorted columns, no parallel edges."""
    validate_csgraph(g)
    assert g.indices.dtype == np.int32 and g.indptr.dtype == np.int32
    for r in range(g.shape[0]):
        cols = g.indices[g.indptr[r]:g.indptr[r + 1]]
        assert np.all(np.diff(cols) > 0), f"row {r} not strictly sorted: {cols}"


def assert_seed_dag(g, n, m):
    assert g.shape == (n, n) and g.nnz == m
    assert_canonical(g)
    u, v, w = edges_of(g)
    assert np.all(v > u), "a DAG in topological order: every edge goes up"
    chain = v == u + 1
    assert chain.sum() == n - 1
    assert np.all(w[chain] == 1.0) and np.all(w[~chain] == 2.0 * (v - u)[~chain])
    dist, pred = scipy_sssp(g, 0)
    assert np.array_equal(dist, np.arange(n, dtype=np.float64)), "closed form dist(v) = v"
    # The shortest path to n - 1 is the chain: n - 1 hops.
    hops, x = 0, n - 1
    while x != 0:
        x, hops = pred[x], hops + 1
    assert hops == n - 1
    assert check_distances(g, 0, dist, pred) == []


SEED_DAG_CASES = [
    (1, 0, 0),  # one vertex, no edges
    (2, 1, 0),
    (3, 2, 1),  # chain only
    (3, 3, 1),  # complete
    (10, 9, 0),
    (10, 45, 2),  # complete: n(n-1)/2
    (50, 300, 3),  # sparse: the extra edges are sampled
    (200, 5_000, 4),
    (200, 15_000, 5),  # dense: the left-out pairs are sampled
    (1000, 250_000, 6),
]


@pytest.mark.parametrize("n, m, seed", SEED_DAG_CASES)
def test_seed_dag_closed_form(n, m, seed):
    assert_seed_dag(seed_dag(n, m, seed), n, m)


@pytest.mark.parametrize("m", [600, 4000, 19_000])
def test_seed_dag_many_ranges(monkeypatch, m):
    """Tiny ranges and decode pieces: the range bookkeeping, the later sampling rounds and the
    complement decode run many times on a graph small enough to check whole."""
    monkeypatch.setattr(gen, "_RANGE_KEYS", 64)
    monkeypatch.setattr(gen, "_DECODE_KEYS", 16)
    assert_seed_dag(seed_dag(200, m, 11), 200, m)


@pytest.mark.parametrize("extra", [5, 16])  # below half of the 21 pairs, and above (complement)
def test_seed_dag_uniform_over_pairs(extra):
    """Every pair (u, v), v >= u + 2, is equally likely: chi-square over many seeds."""
    n, runs = 8, 1500
    pairs = (n - 1) * (n - 2) // 2
    counts = np.zeros((n, n))
    for seed in range(runs):
        u, v, _ = edges_of(seed_dag(n, n - 1 + extra, seed))
        far = v >= u + 2
        np.add.at(counts, (u[far], v[far]), 1)
    observed = counts[np.triu_indices(n, 2)]
    assert observed.sum() == runs * extra
    expected = runs * extra / pairs
    chi2 = ((observed - expected) ** 2 / expected).sum()
    # 20 degrees of freedom (but the sample is without replacement, so it is under-dispersed):
    # P(chi2 > 50) < 1e-3 for a true uniform law.
    assert chi2 < 50, (chi2, observed)


def test_seed_dag_error_messages():
    with pytest.raises(GraphError, match=r"seed_dag: m: expected at least n - 1 = 9 edges .* got 5"):
        seed_dag(10, 5, 0)
    with pytest.raises(GraphError, match=r"seed_dag: m: expected at most n\(n-1\)/2 = 45 edges .* got 46"):
        seed_dag(10, 46, 0)
    with pytest.raises(GraphError, match=r"seed_dag: n: expected an integer in 1\.\.\d+, got 0"):
        seed_dag(0, 0, 0)
    with pytest.raises(GraphError, match=r"seed_dag: n: expected an integer, got True"):
        seed_dag(True, 0, 0)
    with pytest.raises(GraphError, match=r"seed_dag: seed: expected an integer >= 0 .* got -1"):
        seed_dag(5, 4, -1)
    with pytest.raises(GraphError, match=r"seed_dag: m: expected an integer, got 4\.0"):
        seed_dag(5, 4.0, 0)


SMALL = {
    "seed-dag": {"n": 300, "m": 4000},
    "road": {"rows": 12, "cols": 17},
    "rmat": {"scale": 8, "edge_factor": 8},
    "delaunay": {"n": 400},
}


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_deterministic_per_seed(name):
    function = GENERATORS[name].function
    a, b, c = (function(**SMALL[name], seed=s) for s in (3, 3, 4))
    for field in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert a.nnz != c.nnz or not np.array_equal(a.indices, c.indices) or not np.array_equal(a.data, c.data)


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_registry_matches_functions(name):
    function, description, parameters = GENERATORS[name]
    accepted = inspect.signature(function).parameters
    assert [p.name for p in parameters] == [p for p in accepted], "parameters in call order"
    for p in parameters:
        assert isinstance(p.default, p.type) and p.help
        if accepted[p.name].default is not inspect.Parameter.empty:
            assert p.default == accepted[p.name].default, p.name
    assert description
    g = function(**SMALL[name], seed=0)
    assert_canonical(g)


@pytest.mark.parametrize("keep", [0.0, 0.3, 0.85, 1.0])
@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 9), (7, 1), (20, 31)])
def test_road_like_connected_symmetric(rows, cols, keep):
    g = road_like(rows, cols, seed=5, keep=keep)
    n = rows * cols
    assert g.shape == (n, n)
    assert_canonical(g)
    assert connected_components(g, directed=True, connection="strong")[0] == 1
    assert (g != g.T).nnz == 0, "two-way streets of one length"
    streets = rows * (cols - 1) + cols * (rows - 1)
    if keep == 0.0:
        assert g.nnz == 2 * (n - 1), "the spanning tree alone"
    if keep == 1.0:
        assert g.nnz == 2 * streets, "the whole grid"
    if g.nnz:
        low = 1 - 2 * gen.ROAD_JITTER
        high = np.hypot(1 + 2 * gen.ROAD_JITTER, 2 * gen.ROAD_JITTER)
        assert g.data.min() >= low and g.data.max() <= high
        u, v, _ = edges_of(g)
        assert set(np.abs(u - v).tolist()) <= {1, cols}, "4-neighbour grid streets only"


@pytest.mark.parametrize("symmetric", [False, True])
def test_rmat_shape(symmetric):
    scale, factor = 9, 8
    g = rmat(scale, factor, seed=2, symmetric=symmetric)
    n = 1 << scale
    assert g.shape == (n, n)
    assert_canonical(g)
    u, v, w = edges_of(g)
    assert not np.any(u == v), "no self-loops"
    assert np.all(w == np.floor(w)) and w.min() >= 1 and w.max() <= 63
    assert len(np.unique(w)) == 63, "every weight in 1..63 occurs"
    generated = factor * n * (2 if symmetric else 1)
    assert 0.5 * generated < g.nnz <= generated
    if symmetric:
        assert (g != g.T).nnz == 0
    degrees = np.diff(g.indptr)
    assert degrees.max() > 10 * degrees.mean(), "R-MAT is skewed: hubs"
    dist, pred = scipy_sssp(g, int(np.argmax(degrees)))
    assert check_distances(g, int(np.argmax(degrees)), dist, pred) == []


def test_rmat_error_messages():
    with pytest.raises(GraphError, match=r"rmat: scale: expected an integer in 1\.\.30 .*got 0"):
        rmat(0, 4, 0)
    with pytest.raises(GraphError, match=r"rmat: a \+ b \+ c: expected at most 1 .*got 1\.2"):
        rmat(4, 4, 0, a=0.6, b=0.3, c=0.3)
    with pytest.raises(GraphError, match=r"rmat: b: expected a probability in \[0, 1\], got -0\.1"):
        rmat(4, 4, 0, b=-0.1)
    with pytest.raises(GraphError, match=r"rmat: edge_factor: expected an integer >= 1, got 0"):
        rmat(4, 0, 0)


@pytest.mark.parametrize("n", [3, 10, 1000])
def test_delaunay_planar_symmetric(n):
    g = delaunay(n, seed=n)
    assert g.shape == (n, n)
    assert_canonical(g)
    assert (g != g.T).nnz == 0
    assert connected_components(g, directed=False)[0] == 1
    undirected = g.nnz // 2
    assert n - 1 <= undirected <= 3 * n - 6 or n == 3, "planar: at most 3n - 6 edges"
    assert g.data.min() > 0 and g.data.max() < np.sqrt(2)


def test_stand_in_error_messages():
    with pytest.raises(GraphError, match=r"delaunay: n: expected an integer in 3\.\.\d+ \(a triangulation needs 3 points\), got 2"):
        delaunay(2, 0)
    with pytest.raises(GraphError, match=r"road_like: keep: expected a probability in \[0, 1\], got 1\.5"):
        road_like(3, 3, 0, keep=1.5)
    with pytest.raises(GraphError, match=r"road_like: rows: expected an integer >= 1, got 0"):
        road_like(0, 3, 0)


@pytest.mark.slow
def test_seed_dag_large():
    """Millions of edges through the full-size ranges (both the sampled and the complement side)."""
    for m in (6_000_000, 15_000_000):
        g = seed_dag(6000, m, 1)
        assert g.nnz == m and g.indices.dtype == np.int32
        dist, _ = scipy_sssp(g, 0)
        assert np.array_equal(dist, np.arange(6000.0))
        assert isinstance(g, sp.csr_matrix)
