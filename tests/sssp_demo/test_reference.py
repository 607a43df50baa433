"""The reference and its checker: scipy's answers pass on every graph family, and each planted
fault (a wrong distance, a predecessor that is not a neighbour, not tight, set where it must be
-9999, or part of a cycle) is reported, by name, while tolerable float noise is not."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sssp_demo.generators import delaunay, rmat, road_like, seed_dag
from sssp_demo.graph_io import NO_PREDECESSOR, GraphError, csr_from_edges
from sssp_demo.reference import RELATIVE_TOLERANCE, check_distances, integer_weights, scipy_sssp

GRAPHS = {
    "seed-dag": lambda: seed_dag(300, 5000, 1),
    "road": lambda: road_like(15, 20, 2, keep=0.5),
    "rmat": lambda: rmat(8, 8, 3),
    "rmat-symmetric": lambda: rmat(8, 4, 3, symmetric=True),
    "delaunay": lambda: delaunay(300, 4),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("source", [0, 7])
def test_scipy_answers_pass(name, source):
    g = GRAPHS[name]()
    dist, pred = scipy_sssp(g, source)
    assert dist.dtype == np.float64 and pred.dtype == np.int64
    assert pred[source] == NO_PREDECESSOR and dist[source] == 0
    assert np.all(pred[np.isinf(dist)] == NO_PREDECESSOR)
    assert check_distances(g, source, dist, pred) == []
    assert check_distances(g, source, dist, pred, expected=dist) == []
    assert check_distances(g, source, dist + 1, pred, expected=dist)[0].startswith("distances differ")


def small():
    """0 -> 1 -> 2 -> 3 (weights 1, 2, 3), a costlier shortcut 0 -> 2 (5), vertex 4 unreachable,
    a zero-weight edge 3 -> 5, and two parallel edges 1 -> 5 (9 and 7)."""
    u = [0, 1, 2, 0, 3, 1, 1, 4]
    v = [1, 2, 3, 2, 5, 5, 5, 0]
    w = [1.0, 2.0, 3.0, 5.0, 0.0, 9.0, 7.0, 1.0]
    return csr_from_edges(6, u, v, w)


def planted(fault):
    g = small()
    dist, pred = scipy_sssp(g, 0)
    np.testing.assert_array_equal(dist, [0, 1, 3, 6, np.inf, 6])
    fault(dist, pred)
    return check_distances(g, 0, dist, pred)


def set_(array, index, value):
    def fault(dist, pred):
        {"dist": dist, "pred": pred}[array][index] = value
    return fault


@pytest.mark.parametrize("fault, message", [
    (set_("dist", 3, 7.0), "distances differ from scipy's Dijkstra (compared exactly: integer weights): 1 vertex: dist[3] = 7.0, want 6.0"),
    (set_("dist", 4, 9.0), "dist[4] = 9.0, want inf"),
    (set_("dist", 2, np.inf), "dist[2] = inf, want 3.0"),
    (set_("dist", 1, 1 + 1e-12), "dist[1] = 1.000000000001, want 1.0"),  # integer weights: exact
    (set_("pred", 4, 0), "predecessors of the source and unreachable vertices must be -9999: 1 vertex: pred[4] = 0"),
    (set_("pred", 0, 0), "pred[0] = 0"),
    (set_("pred", 2, 17), "predecessors of reachable vertices must be vertices in 0..5: 1 vertex: pred[2] = 17"),
    (set_("pred", 2, NO_PREDECESSOR), "pred[2] = -9999"),
    (set_("pred", 3, 0), "no edge (pred[v], v) in the graph: 1 vertex: pred[3] = 0, no edge (0, 3)"),
    (set_("pred", 2, 0), ("edge (pred[v], v) is not tight: dist[pred[v]] + w != dist[v] (compared exactly: "
                          "integer weights): 1 vertex: dist[0] + w = 5.0, dist[2] = 3.0")),
])
def test_planted_fault_is_named(fault, message):
    problems = planted(fault)
    assert any(message in p for p in problems), problems


def test_parallel_edges_the_cheaper_is_tight():
    """pred[5] = 1 is tight through the 7-weight copy of 1 -> 5 only (1 + 7 = 8 != 6: not tight),
    while pred[5] = 3 is tight through the zero-weight edge."""
    assert planted(lambda d, p: None) == []
    problems = planted(set_("pred", 5, 1))
    assert any("dist[1] + w = 8.0, dist[5] = 6.0" in p for p in problems), problems


def test_zero_weight_cycle_is_caught():
    """Predecessors along a zero-weight cycle are each tight but never reach the source."""
    g = csr_from_edges(3, [0, 1, 2], [1, 2, 1], [1.0, 0.0, 0.0])
    dist, pred = scipy_sssp(g, 0)
    assert check_distances(g, 0, dist, pred) == []
    pred[1] = 2  # 1 <- 2 <- 1: both edges tight (1 + 0 = 1)
    problems = check_distances(g, 0, dist, pred)
    assert len(problems) == 1 and "following predecessors does not lead back to the source" in problems[0], problems


def test_float_weights_use_relative_tolerance():
    g = delaunay(200, 9)
    assert not integer_weights(g)
    dist, pred = scipy_sssp(g, 0)
    noisy = dist * (1 + 0.1 * RELATIVE_TOLERANCE)
    assert check_distances(g, 0, noisy, pred) == []
    wrong = dist.copy()
    wrong[5] *= 1 + 10 * RELATIVE_TOLERANCE
    problems = check_distances(g, 0, wrong, pred)
    assert any(f"compared within {RELATIVE_TOLERANCE:g} relative" in p and "dist[5]" in p for p in problems), problems


def test_many_problems_are_counted_with_a_few_examples():
    g = seed_dag(100, 500, 0)
    dist, pred = scipy_sssp(g, 0)
    problems = check_distances(g, 0, dist + 1, pred)
    dist_problem = next(p for p in problems if p.startswith("distances"))
    assert "100 vertices (first 5 shown)" in dist_problem and dist_problem.count("dist[") == 5


@pytest.mark.parametrize("dist, pred, message", [
    (np.zeros(5), np.zeros(6, dtype=np.int64), "distances: expected shape (6,), got (5,)"),
    (np.zeros(6), np.zeros(4, dtype=np.int64), "predecessors: expected shape (6,), got (4,)"),
    (np.zeros(6), np.zeros(6), "predecessors: expected integers, got dtype float64"),
])
def test_wrong_shapes_are_problems(dist, pred, message):
    assert check_distances(small(), 0, dist, pred) == [message]


def test_single_vertex_and_self_loop():
    g = csr_from_edges(1, [0], [0], [4.0])
    dist, pred = scipy_sssp(g, 0)
    assert dist.tolist() == [0.0] and pred.tolist() == [NO_PREDECESSOR]
    assert check_distances(g, 0, dist, pred) == []


def test_bad_graph_or_source_raise():
    with pytest.raises(GraphError, match=r"source: expected a vertex in 0\.\.5, got 6"):
        scipy_sssp(small(), 6)
    with pytest.raises(GraphError, match=r"graph\.data: negative weight"):
        check_distances(sp.csr_matrix(np.array([[0.0, -1.0], [0.0, 0.0]])), 0, np.zeros(2), np.zeros(2, np.int64))


def test_raw_csr_with_parallel_edges_and_unsorted_rows():
    """A CSR built by hand (not by csr_from_edges) may hold unsorted rows and parallel edges;
    csgraph takes the cheapest copy, and so does the checker."""
    # Row 0: 0 -> 2 (5), 0 -> 1 (4), 0 -> 1 (1); row 1: 1 -> 2 (1).
    g = sp.csr_matrix((np.array([5.0, 4.0, 1.0, 1.0]), np.array([2, 1, 1, 2]), np.array([0, 3, 4, 4])), shape=(3, 3))
    assert not g.has_canonical_format
    dist, pred = scipy_sssp(g, 0)
    np.testing.assert_array_equal(dist, [0.0, 1.0, 2.0])
    assert check_distances(g, 0, dist, pred) == []
    pred[2] = 0  # 0 -> 2 costs 5: not tight
    assert any("dist[0] + w = 5.0, dist[2] = 2.0" in p for p in check_distances(g, 0, dist, pred))


def test_both_edge_lookups_agree():
    from sssp_demo.reference import _edge_weights

    g = rmat(7, 8, 5)
    rng = np.random.default_rng(0)
    tails, heads = rng.integers(0, 128, 3000), rng.integers(0, 128, 3000)
    rows = np.repeat(np.arange(128), np.diff(g.indptr))
    tails[:500], heads[:500] = rows[:500], g.indices[:500]  # some queries hit
    fast = _edge_weights(g, tails, heads)
    shuffled = g.copy()
    shuffled.has_canonical_format = False  # force the sorting path on the same graph
    np.testing.assert_array_equal(fast, _edge_weights(shuffled, tails, heads))
    assert np.isfinite(fast[:500]).all() and np.isnan(fast).any()
