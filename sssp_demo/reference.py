"""The CPU reference every shortest-path algorithm is checked against: scipy.sparse.csgraph's
Dijkstra, and a checker that says what is wrong with an answer (distances and predecessors)
instead of only that something is.

Conventions (graph_io): distances are float64 with inf for unreachable vertices; predecessors are
int64 with NO_PREDECESSOR (-9999) for the source and for unreachable vertices.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import dijkstra

from .graph_io import NO_PREDECESSOR, validate_csgraph

#: Relative tolerance where weights are not all integers: two correct algorithms may add the same
#: path's weights in another order (float addition is not associative).
RELATIVE_TOLERANCE = 1e-9

#: Examples quoted per kind of problem; the count says how many there are in all.
_EXAMPLES = 5


def scipy_sssp(g, source: int) -> tuple[np.ndarray, np.ndarray]:
    """(distances float64, predecessors int64 with NO_PREDECESSOR) from `source`, by scipy."""
    validate_csgraph(g, source)
    dist, pred = dijkstra(g, directed=True, indices=int(source), return_predecessors=True)
    pred = pred.astype(np.int64)
    pred[pred < 0] = NO_PREDECESSOR  # scipy's own value already; stated, not assumed
    return dist.astype(np.float64, copy=False), pred


def integer_weights(g) -> bool:
    """All weights are integers: path sums below 2**53 are then exact in float64, in any order."""
    return bool(np.all(g.data == np.floor(g.data)))


def _close(got: np.ndarray, want: np.ndarray, exact: bool) -> np.ndarray:
    same = got == want  # also inf == inf
    if exact:
        return same
    finite = np.isfinite(got) & np.isfinite(want)
    scale = np.maximum(np.abs(got), np.abs(want))
    with np.errstate(invalid="ignore"):
        near = np.abs(got - want) <= RELATIVE_TOLERANCE * scale
    return same | (finite & near)


def _report(what: str, vertices: np.ndarray, describe) -> str:
    shown = "; ".join(describe(int(v)) for v in vertices[:_EXAMPLES])
    more = f" (first {_EXAMPLES} shown)" if len(vertices) > _EXAMPLES else ""
    count = f"{len(vertices)} vertex" if len(vertices) == 1 else f"{len(vertices)} vertices"
    return f"{what}: {count}{more}: {shown}"


def check_distances(g, source: int, dist, pred, expected=None) -> list[str]:
    """The problems with an answer (dist, pred) for shortest paths in `g` from `source`; an
    empty list means it is right. The graph and source must be valid (GraphError otherwise).

    - dist equals scipy's Dijkstra: exactly when all weights are integers and the distances stay
      below 2**53, else within RELATIVE_TOLERANCE; inf exactly where scipy has inf.
    - The source and unreachable vertices have predecessor NO_PREDECESSOR (and the source 0).
    - For every other reachable v, pred[v] = p is a vertex with an edge (p, v) that is tight:
      dist[p] + w(p, v) == dist[v] (same tolerance; the cheapest of parallel edges counts), and
      following predecessors from v reaches the source (no cycle, e.g. of zero-weight edges).
    Several predecessors may be right where paths tie; any tight one is accepted. `expected`:
    scipy's distances from an earlier scipy_sssp(g, source), to check several answers against
    one reference run.
    """
    validate_csgraph(g, source)
    n = g.shape[0]
    dist = np.asarray(dist)
    pred = np.asarray(pred)
    if dist.shape != (n,):
        return [f"distances: expected shape ({n},), got {dist.shape}"]
    if pred.shape != (n,):
        return [f"predecessors: expected shape ({n},), got {pred.shape}"]
    if not np.issubdtype(pred.dtype, np.integer):
        return [f"predecessors: expected integers, got dtype {pred.dtype}"]
    dist = dist.astype(np.float64)
    pred = pred.astype(np.int64)
    want = scipy_sssp(g, source)[0] if expected is None else np.asarray(expected, dtype=np.float64)
    if want.shape != (n,):
        raise ValueError(f"expected: scipy's distances have shape ({n},), got {want.shape}")
    finite_want = want[np.isfinite(want)]
    exact = integer_weights(g) and (len(finite_want) == 0 or finite_want.max() < 2.0**53)
    rule = "compared exactly: integer weights" if exact else f"compared within {RELATIVE_TOLERANCE:g} relative"
    problems = []

    wrong = np.flatnonzero(~_close(dist, want, exact))
    if len(wrong):
        problems.append(_report(f"distances differ from scipy's Dijkstra ({rule})", wrong,
                                lambda v: f"dist[{v}] = {float(dist[v])!r}, want {float(want[v])!r}"))

    reach = np.isfinite(want)
    should_be_none = ~reach
    should_be_none[source] = True
    wrong = np.flatnonzero(should_be_none & (pred != NO_PREDECESSOR))
    if len(wrong):
        problems.append(_report(f"predecessors of the source and unreachable vertices must be {NO_PREDECESSOR}",
                                wrong, lambda v: f"pred[{v}] = {pred[v]}"))

    targets = np.flatnonzero(reach & ~should_be_none)
    p = pred[targets]
    in_range = (p >= 0) & (p < n)
    wrong = targets[~in_range]
    if len(wrong):
        problems.append(_report(f"predecessors of reachable vertices must be vertices in 0..{n - 1}", wrong,
                                lambda v: f"pred[{v}] = {pred[v]}"))
    targets, p = targets[in_range], p[in_range]

    weight = _edge_weights(g, p, targets)
    missing = np.isnan(weight)
    wrong = targets[missing]
    if len(wrong):
        problems.append(_report("no edge (pred[v], v) in the graph", wrong,
                                lambda v: f"pred[{v}] = {pred[v]}, no edge ({pred[v]}, {v})"))
    targets, p, weight = targets[~missing], p[~missing], weight[~missing]
    offered = dist[p] + weight
    loose = ~_close(offered, dist[targets], exact)
    if loose.any():
        slack = dict(zip(targets[loose].tolist(), offered[loose].tolist()))
        problems.append(_report(f"edge (pred[v], v) is not tight: dist[pred[v]] + w != dist[v] ({rule})",
                                targets[loose],
                                lambda v: f"dist[{pred[v]}] + w = {slack[v]!r}, dist[{v}] = {float(dist[v])!r}"))

    stray = _not_leading_to(source, pred, reach)
    if len(stray):
        problems.append(_report("following predecessors does not lead back to the source (a cycle?)", stray,
                                lambda v: f"from {v}"))
    return problems


def _edge_weights(g, tails: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """Weight of the edge tails[i] -> heads[i] (the cheapest of parallel edges), NaN where none."""
    if g.has_canonical_format:
        return _lookup_sorted_rows(g, tails, heads)
    # Unsorted rows or parallel edges: sort all entries once (about 32 bytes per edge).
    n = g.shape[0]
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(g.indptr.astype(np.int64)))
    key = rows * n + g.indices.astype(np.int64)
    del rows
    order = np.lexsort((g.data, key))  # by key, then weight: the first of each key is the cheapest
    key, w = key[order], g.data[order]
    want = tails * n + heads
    pos = np.searchsorted(key, want)  # leftmost match: the cheapest
    out = np.full(len(want), np.nan)
    ok = pos < len(key)
    ok[ok] = key[pos[ok]] == want[ok]
    out[ok] = w[pos[ok]]
    return out


def _lookup_sorted_rows(g, tails: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """_edge_weights for sorted rows without parallel edges: one binary search per query, all
    queries in step (log2 of the largest degree rounds), no memory per edge."""
    indptr, indices = g.indptr, g.indices
    out = np.full(len(tails), np.nan)
    if not len(indices) or not len(tails):
        return out
    lo = indptr[tails].astype(np.int64)
    end = indptr[tails + 1].astype(np.int64)
    hi = end.copy()
    last = len(indices) - 1
    while True:
        active = lo < hi
        if not active.any():
            break
        mid = (lo + hi) // 2
        right = active & (indices[np.minimum(mid, last)] < heads)
        lo = np.where(right, mid + 1, lo)
        hi = np.where(active & ~right, mid, hi)
    ok = lo < end
    ok[ok] = indices[lo[ok]] == heads[ok]
    out[ok] = g.data[lo[ok]]
    return out


def _not_leading_to(source: int, pred: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """Reachable vertices whose predecessor chain does not end at the source (pointer jumping)."""
    n = len(pred)
    up = np.arange(n, dtype=np.int64)
    valid = reach & (pred >= 0) & (pred < n)
    up[valid] = pred[valid]
    up[source] = source
    for _ in range(max(1, int(np.ceil(np.log2(max(n, 2))))) + 1):
        up = up[up]
    bad = reach & (up != source)
    # A vertex whose own predecessor is invalid is reported above; name only the chains it breaks.
    return np.flatnonzero(bad & valid)
