"""Graph generators: the seed paper's random DAG, and synthetic stand-ins for the road, Kronecker
and Delaunay graphs of the SuiteSparse collection. Each returns the interchange CSR of graph_io
(float64 weights, int32 indices where they fit, sorted rows, no parallel edges) and is
deterministic: the same arguments give the same graph (numpy ``default_rng(seed)``; the chunk
sizes below are part of that contract, so changing one changes the graphs).

`seed_dag` is the benchmark family of "A Parallel Priority Queue with Fast Updates for GPU
Architectures" (seed 000, Section 4): n vertices, chain edges (i, i+1) of weight 1, and m - (n - 1)
further edges (u, v), u < v, of weight 2(v - u). In 0-indexed terms dist(v) = v from source 0 (the
paper's 1-indexed "v - 1"), and the unique shortest path to v is the chain, so the graph's hop
diameter is n - 1. Every extra edge (u, v) offers 2v - u > v, which is smaller than any offer
from an earlier-settled u' < u: relaxed in Dijkstra order, every extra edge is a successful
decrease-key, which is what makes the family hard for a priority queue.

The stand-ins (`road_like`, `rmat`, `delaunay`) are NOT the SuiteSparse graphs; they have the
shape that matters for shortest paths (degree distribution, diameter, planarity) at any size. Read
a real ``.mtx`` with graph_io.read_graph where you have one.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from .graph_io import GraphError, csr_from_edges, index_dtype

# --------------------------------------------------------------------------- argument checks


def _int_arg(func: str, name: str, value, low: int, high: int | None = None, rule: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise GraphError(f"{func}: {name}: expected an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = f">= {low}" if high is None else f"in {low}..{high}"
        raise GraphError(f"{func}: {name}: expected an integer {span}{rule}, got {value}")
    return value


def _seed_arg(func: str, seed) -> int:
    return _int_arg(func, "seed", seed, 0, rule=" (numpy default_rng seed)")


def _prob_arg(func: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 <= float(value) <= 1.0:
        raise GraphError(f"{func}: {name}: expected a probability in [0, 1], got {value!r}")
    return float(value)


# --------------------------------------------------------------------------- seed paper's DAG

#: Sampled keys per range of the pair key space. 2**23 int64 keys = 64 MiB: above glibc's largest
#: mmap threshold (32 MiB), so a range freed once decoded goes back to the OS at once (smaller
#: arrays would land on the heap and stay resident while the result grows).
_RANGE_KEYS = 1 << 23

#: Keys (or, when the complement was sampled, pairs) decoded at a time: bounds the decode's
#: temporaries (about 50 bytes per key) to about 100 MB.
_DECODE_KEYS = 1 << 21


def _sorted_distinct_sample(rng: np.random.Generator, total: int, k: int, span: int) -> list:
    """k distinct integers chosen uniformly from [0, total), as sorted int64 arrays, one per range
    [j * span, (j + 1) * span) of the key space.

    Exact: it draws iid uniform keys until k distinct ones are seen, and the set of the first k
    distinct values of an iid uniform sequence is a uniformly random k-subset (by symmetry).
    Each round draws exactly the shortfall, split over the ranges by one multinomial (the same law
    as iid draws), so no round overshoots. With k <= total / 2 each round at least halves the
    shortfall in expectation; later rounds are small. Keys found after the first round go to a
    small per-range side list, merged once at the end, so no round copies the big arrays.
    """
    ranges = max(1, -(-total // span))
    sizes = np.full(ranges, span, dtype=np.int64)
    sizes[-1] = total - span * (ranges - 1)
    pvals = sizes / total
    have: list = [np.empty(0, np.int64)] * ranges
    side: list = [np.empty(0, np.int64)] * ranges
    found = 0
    first = True
    while found < k:
        draws = rng.multinomial(k - found, pvals)
        for j in np.flatnonzero(draws):
            lo = int(j) * span
            x = _sorted_unique(rng.integers(lo, lo + int(sizes[j]), int(draws[j]), dtype=np.int64))
            if first:
                have[j] = x
                found += len(x)
                continue
            x = x[~(_member(x, have[j]) | _member(x, side[j]))]
            if len(x):
                side[j] = _sorted_unique(np.concatenate([side[j], x]))
                found += len(x)
        first = False
    for j in range(ranges):
        if len(side[j]):
            have[j] = np.insert(have[j], np.searchsorted(have[j], side[j]), side[j])
    return have


def _sorted_unique(x: np.ndarray) -> np.ndarray:
    """The distinct values of x, sorted; x is sorted in place. (np.unique hashes first in numpy 2.3+,
    which is many times slower on tens of millions of int64 keys than one sort.)"""
    x.sort()
    if len(x) < 2:
        return x
    first = np.empty(len(x), dtype=bool)
    first[0] = True
    np.not_equal(x[1:], x[:-1], out=first[1:])
    return x[first]


def _member(x: np.ndarray, sorted_ref: np.ndarray) -> np.ndarray:
    """x[i] in sorted_ref, for each i."""
    if not len(sorted_ref):
        return np.zeros(len(x), dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_ref, x), len(sorted_ref) - 1)
    return sorted_ref[pos] == x


def _extra_keys(ranges: list, span: int, pairs: int, complement: bool):
    """The keys of the extra edges in increasing order, in pieces of at most _DECODE_KEYS: the
    sampled keys, or (complement) the pairs the sample left out. Each range of the sample is
    dropped from `ranges` when reached, so the sample shrinks while the result grows."""
    for j in range(len(ranges)):
        sample = ranges[j]
        ranges[j] = None
        if not complement:
            for s in range(0, len(sample), _DECODE_KEYS):
                yield sample[s:s + _DECODE_KEYS]
            continue
        lo, hi = j * span, min((j + 1) * span, pairs)
        for a in range(lo, hi, _DECODE_KEYS):
            b = min(a + _DECODE_KEYS, hi)
            kept = np.ones(b - a, dtype=bool)
            kept[sample[np.searchsorted(sample, a):np.searchsorted(sample, b)] - a] = False
            keys = np.flatnonzero(kept) + a
            if len(keys):
                yield keys


def seed_dag(n: int, m: int, seed: int) -> sp.csr_matrix:
    """The seed paper's random DAG on vertices 0..n-1 with exactly m distinct edges.

    Edges: the chain (i, i+1), weight 1, for i < n - 1; then m - (n - 1) extra edges drawn
    uniformly at random WITHOUT repetition from the (n-1)(n-2)/2 pairs (u, v) with v >= u + 2,
    weight 2(v - u). Pairs v = u + 1 are left out because the chain already holds them; so there
    are no parallel edges, and m may range from n - 1 (the chain alone) to n(n-1)/2 (the complete
    DAG, the paper's largest graph: n = 30,000 with 450M edges). The paper spreads the extra
    edges "uniformly", vertex i (1-indexed) holding at most n - i out-edges; here every m-subset
    of the pairs is equally likely, which keeps that cap.

    How: the extra edges are a uniform subset of the pair index space [0, P), key = (offset of
    row u) + (v - u - 2); when they are more than half of P, the left-out complement is sampled
    instead. The sampled keys come sorted (per range of the key space), so decoding them gives the
    CSR in row order with sorted columns: no COO, no sort over all edges, no second pass.

    Memory: the result holds 12 bytes per edge (int32 column + float64 weight; 16 where m or n
    reaches 2**31 and scipy wants int64 indices) plus 4 (8) bytes per vertex. While it is built,
    the sample takes 8 bytes per sampled key (at most half the pairs), plus about 40 bytes per
    vertex for the row tables. Each 64 MiB range of the sample is freed as soon as its edges are
    written, and the result's pages are committed only as they are written, so the peak stays at
    12 - 14 bytes per edge plus about 0.3 GB of temporaries. Measured (2 cores, numpy 2.4):
    n = 30,000, m = 300M: peak 3.85 GB (3.6 GB of it the result), 20 s; m = 225M (half the
    pairs, the slowest case for the sampler): 3.2 GB, 28 s; m = 450M (complete): 5.7 GB, 20 s.
    """
    func = "seed_dag"
    n = _int_arg(func, "n", n, 1, 2**31 - 1)
    m = _int_arg(func, "m", m, 0)
    seed = _seed_arg(func, seed)
    chain = n - 1
    pairs = (n - 1) * (n - 2) // 2  # extra pairs (u, v) with v >= u + 2
    if m < chain:
        raise GraphError(f"{func}: m: expected at least n - 1 = {chain} edges (the chain 0 -> 1 -> ... -> {n - 1} "
                         f"alone has n - 1), got {m}")
    if m > chain + pairs:
        raise GraphError(f"{func}: m: expected at most n(n-1)/2 = {chain + pairs} edges (the complete DAG on "
                         f"{n} vertices; edges are distinct), got {m}")
    rng = np.random.default_rng(seed)
    extra = m - chain
    # Sample whichever of the extra edges and the left-out pairs is smaller (at most P/2 keys).
    complement = extra > pairs // 2
    k = pairs - extra if complement else extra
    span = min(max(1, (pairs * _RANGE_KEYS) // max(k, 1)), max(pairs, 1))  # ~_RANGE_KEYS keys per range
    ranges = _sorted_distinct_sample(rng, pairs, k, span) if pairs else []

    # Row u (u <= n - 3) owns the keys [row_start[u], row_start[u] + n - 2 - u).
    rows_with_extras = max(n - 2, 0)
    r = np.arange(rows_with_extras, dtype=np.int64)
    row_start = r * (n - 2) - r * (r - 1) // 2
    capacity = (n - 2) - r

    def row_of(keys):
        return np.searchsorted(row_start, keys, side="right") - 1

    per_row = np.zeros(n, dtype=np.int64)  # extra edges of each row
    for keys in ranges:
        if len(keys):
            per_row[:rows_with_extras] += np.bincount(row_of(keys), minlength=rows_with_extras)
    if complement:
        per_row[:rows_with_extras] = capacity - per_row[:rows_with_extras]
    idx = index_dtype(n, m)
    indptr = np.zeros(n + 1, dtype=idx)
    np.cumsum(per_row + (np.arange(n) < chain), out=indptr[1:])
    indices = np.empty(m, dtype=idx)  # pages are committed as they are written
    data = np.empty(m, dtype=np.float64)
    # The extra edge of global rank i (in key order) in row u sits at i + u + 1: before it come
    # the i extra edges of smaller keys and the u + 1 chain edges of rows 0..u.
    rank = 0
    for keys in _extra_keys(ranges, span, pairs, complement):
        u = row_of(keys)
        v = keys - row_start[u] + u + 2
        pos = np.arange(rank, rank + len(keys), dtype=np.int64) + u + 1
        indices[pos] = v
        data[pos] = 2.0 * (v - u)
        rank += len(keys)
    assert rank == m - chain, (rank, m, chain)
    # Chain edge (u, u + 1) opens row u: it has the smallest column in the row. Written last: the
    # heads are spread over the whole result, and touching them first would commit every page
    # (with transparent huge pages, every 2 MB) while the sample is still held.
    heads = indptr[:chain]
    indices[heads] = np.arange(1, n, dtype=idx)
    data[heads] = 1.0
    g = sp.csr_matrix((data, indices, indptr), shape=(n, n))
    g.has_sorted_indices = True
    return g


# --------------------------------------------------------------------------- stand-ins

#: Largest coordinate jitter, in grid spacings: edges stay at least 1 - 2 * 0.3 = 0.4 long and the
#: drawing stays planar (no two jittered grid edges cross).
ROAD_JITTER = 0.3


def _grid_args(func: str, rows, cols, seed, keep) -> tuple[int, int, int, float]:
    """The road generators' arguments, checked: a grid of at most 2^31 - 1 vertices."""
    rows = _int_arg(func, "rows", rows, 1)
    cols = _int_arg(func, "cols", cols, 1)
    if rows * cols > 2**31 - 1:
        raise GraphError(f"{func}: rows x cols: expected at most {2**31 - 1} vertices, got {rows * cols}")
    return rows, cols, _seed_arg(func, seed), _prob_arg(func, "keep", keep)


def road_like(rows: int, cols: int, seed: int, keep: float = 0.85) -> sp.csr_matrix:
    """A stand-in for a road network (SuiteSparse road_usa, DIMACS USA): a rows x cols planar grid
    of intersections, vertex r * cols + c at (c, r) plus a jitter of up to ROAD_JITTER per axis,
    with its 4-neighbour streets thinned out.

    A random spanning tree of the grid (Kruskal on a random edge order) is kept first, so the graph
    stays connected; every other street survives with probability `keep`. Each street is two
    directed edges of its Euclidean length. For large grids the mean degree is about
    2 (1 + keep) (real road graphs: 2.4 - 2.8, i.e. keep 0.2 - 0.4), and the hop diameter grows
    like rows + cols, as on roads.
    """
    func = "road_like"
    rows, cols, seed, keep = _grid_args(func, rows, cols, seed, keep)
    n = rows * cols
    rng = np.random.default_rng(seed)
    grid = np.arange(n, dtype=np.int64).reshape(rows, cols)
    xy = np.stack(np.meshgrid(np.arange(cols, dtype=np.float64), np.arange(rows, dtype=np.float64)), -1).reshape(n, 2)
    xy += rng.uniform(-ROAD_JITTER, ROAD_JITTER, size=(n, 2))
    eu = np.concatenate([grid[:, :-1].ravel(), grid[:-1, :].ravel()])  # horizontal, then vertical
    ev = np.concatenate([grid[:, 1:].ravel(), grid[1:, :].ravel()])
    streets = len(eu)
    if streets == 0:
        return csr_from_edges(n, eu, ev, np.empty(0))
    # Kruskal with distinct weights 1..E in random order: the tree of a random edge order.
    # Street e weighs rank[e] + 1, so a tree edge's weight tells which street it is.
    rank = rng.permutation(streets)
    street_of_rank = np.empty(streets, dtype=np.int64)
    street_of_rank[rank] = np.arange(streets)
    tree = sp.csgraph.minimum_spanning_tree(sp.csr_matrix((rank + 1.0, (eu, ev)), shape=(n, n)))
    kept = rng.random(streets) < keep
    kept[street_of_rank[tree.data.astype(np.int64) - 1]] = True
    eu, ev = eu[kept], ev[kept]
    w = np.hypot(*(xy[eu] - xy[ev]).T)
    return csr_from_edges(n, np.concatenate([eu, ev]), np.concatenate([ev, eu]), np.concatenate([w, w]))


def road_grid(rows: int, cols: int, seed: int, keep: float = 0.2) -> sp.csr_matrix:
    """A fast stand-in for a road network at tens of millions of vertices (SuiteSparse road_usa:
    24M vertices, mean degree 2.41), built without a spanning-tree search: a rows x cols planar
    grid, vertex r * cols + c at (c, r) plus a jitter of up to ROAD_JITTER per axis, thinned out
    around a random monotone spanning tree.

    The tree: every vertex but (0, 0) keeps the street to its left or the one above it (a fair
    coin where it has both, the only one on the top row and the left column), so every vertex
    reaches (0, 0) by a staircase and the graph is connected. Every other street survives with
    probability `keep`. Mean degree 2 (1 + keep) for large grids (keep 0.2: 2.4, as road_usa);
    the hop diameter is at least rows + cols - 2 (from a corner, exactly that: the staircase is a
    shortest path), so a BFS runs thousands of levels at road_usa's size, as on real roads.
    Euclidean weights, two-way; each row's columns come out sorted (up, left, right, down) with
    no sort. Vectorised: 24M vertices in seconds, about 60 bytes per vertex at the peak.
    """
    func = "road_grid"
    rows, cols, seed, keep = _grid_args(func, rows, cols, seed, keep)
    n = rows * cols
    rng = np.random.default_rng(seed)
    # right[r, c]: street (r, c) - (r, c + 1); down[r, c]: street (r, c) - (r + 1, c).
    right = rng.random((rows, cols), dtype=np.float32) < keep
    down = rng.random((rows, cols), dtype=np.float32) < keep
    left_tree = rng.random((rows, cols), dtype=np.float32) < 0.5  # the tree street of (r, c): left, else up
    left_tree[0, :] = True
    left_tree[:, 0] = False
    left_tree[0, 0] = False
    right[:, :-1] |= left_tree[:, 1:]
    up_tree = ~left_tree
    up_tree[0, 0] = False
    down[:-1, :] |= up_tree[1:, :]
    right[:, -1] = False
    down[-1, :] = False
    has = np.empty((rows, cols, 4), dtype=bool)  # up, left, right, down: ascending neighbour ids
    has[..., 0] = False
    has[1:, :, 0] = down[:-1, :]
    has[..., 1] = False
    has[:, 1:, 1] = right[:, :-1]
    has[..., 2] = right
    has[..., 3] = down
    del right, down, left_tree, up_tree
    has = has.reshape(n, 4)
    idx = index_dtype(n, 4 * n)
    indptr = np.zeros(n + 1, dtype=idx)
    np.cumsum(has.sum(axis=1, dtype=idx), out=indptr[1:])
    m = int(indptr[-1])
    tail = np.repeat(np.arange(n, dtype=idx), np.diff(indptr))
    step = np.array([-cols, -1, 1, cols], dtype=idx)
    indices = tail + step[np.nonzero(has)[1]].astype(idx)
    del has
    xy = rng.uniform(-ROAD_JITTER, ROAD_JITTER, size=(n, 2))
    xy[:, 0] += np.tile(np.arange(cols, dtype=np.float64), rows)
    xy[:, 1] += np.repeat(np.arange(rows, dtype=np.float64), cols)
    data = np.empty(m, dtype=np.float64)
    for a in range(0, m, _RMAT_CHUNK):  # bounded temporaries
        b = min(a + _RMAT_CHUNK, m)
        d = xy[tail[a:b]] - xy[indices[a:b]]
        data[a:b] = np.hypot(d[:, 0], d[:, 1])
    g = sp.csr_matrix((data, indices, indptr), shape=(n, n))
    g.has_sorted_indices = True
    return g


#: Integer weights uniform in RMAT_WEIGHTS[0] .. RMAT_WEIGHTS[1] - 1, as in Gunrock's and ADDS's
#: SSSP benchmarks ("random weights between 1 and 64"); integers keep the reference comparison
#: exact.
RMAT_WEIGHTS = (1, 64)

#: Edges generated per chunk: bounds the per-level temporaries.
_RMAT_CHUNK = 1 << 22


def _hashed_weights(keys: np.ndarray, salt: np.uint64) -> np.ndarray:
    """RMAT_WEIGHTS-uniform integer weights (float64) as a function of the edge key: splitmix64
    of key + salt, mod 63, + 1 (bias below 1e-17). A function of the edge, not a draw in edge
    order, so the two directions of an edge get one weight without carrying weights through the
    sort."""
    low, high = RMAT_WEIGHTS
    z = keys.astype(np.uint64) + salt  # uint64 arithmetic wraps, as splitmix64 wants
    z ^= z >> np.uint64(30)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(27)
    z *= np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return (z % np.uint64(high - low) + np.uint64(low)).astype(np.float64)


def rmat(scale: int, edge_factor: int, seed: int, a: float = 0.57, b: float = 0.19, c: float = 0.19,
         symmetric: bool = False) -> sp.csr_matrix:
    """A stand-in for the Kronecker graphs (Graph500, SuiteSparse kron_g500-logn*): R-MAT with
    2**scale vertices and edge_factor * 2**scale generated edges.

    R-MAT (Chakrabarti, Zhan, Faloutsos, SDM 2004) puts each edge in one quadrant of the adjacency
    matrix per level, with probabilities a, b, c and d = 1 - a - b - c; the defaults are
    Graph500's. Vertex ids are relabelled by a random permutation (as Graph500 does), so the hubs
    are not all near vertex 0.

    Self-loops are dropped and repeated edges are kept once (neither can change a distance), so
    the graph has somewhat fewer than edge_factor * 2**scale edges. Weights are integers uniform
    in [1, 64), a hash of the edge (see _hashed_weights). `symmetric=True` makes every edge
    two-way with one weight, like the SuiteSparse matrices. Peak memory: about 20 bytes per
    generated edge (directed; 12 of them the result), 40 (symmetric).
    """
    func = "rmat"
    scale = _int_arg(func, "scale", scale, 1, 30, rule=" (2**scale vertices; csgraph indexes with int32)")
    edge_factor = _int_arg(func, "edge_factor", edge_factor, 1)
    seed = _seed_arg(func, seed)
    a, b, c = (_prob_arg(func, name, p) for name, p in (("a", a), ("b", b), ("c", c)))
    if a + b + c > 1.0:
        raise GraphError(f"{func}: a + b + c: expected at most 1 (d = 1 - a - b - c is the fourth "
                         f"quadrant's probability), got {a + b + c}")
    if not isinstance(symmetric, (bool, np.bool_)):
        raise GraphError(f"{func}: symmetric: expected True or False, got {symmetric!r}")
    n = 1 << scale
    total = edge_factor * n
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n).astype(np.int64)
    salt = np.uint64(rng.integers(0, 2**63))
    keys = np.empty(total, dtype=np.int64)  # (u << scale) | v; (min << scale) | max if symmetric
    fill = 0
    for start in range(0, total, _RMAT_CHUNK):
        count = min(_RMAT_CHUNK, total - start)
        u = np.zeros(count, dtype=np.int64)
        v = np.zeros(count, dtype=np.int64)
        for _ in range(scale):
            p = rng.random(count)
            u = (u << 1) | (p >= a + b)  # quadrants c, d: the lower half
            v = (v << 1) | (((p >= a) & (p < a + b)) | (p >= a + b + c))  # quadrants b, d: the right half
        u, v = perm[u], perm[v]
        if symmetric:
            u, v = np.minimum(u, v), np.maximum(u, v)
        chunk = ((u << scale) | v)[u != v]
        keys[fill:fill + len(chunk)] = chunk
        fill += len(chunk)
    keys = _sorted_unique(keys[:fill])
    if symmetric:
        mirrored = np.concatenate([keys, ((keys & (n - 1)) << scale) | (keys >> scale)])
        del keys
        mirrored.sort()
        keys = mirrored
    # Sorted distinct keys are (row, column) in CSR order already; decode them in chunks.
    m = len(keys)
    idx = index_dtype(n, m)
    indptr = np.searchsorted(keys, np.arange(n + 1, dtype=np.int64) << scale).astype(idx)
    indices = np.empty(m, dtype=idx)
    data = np.empty(m, dtype=np.float64)
    for start in range(0, m, _RMAT_CHUNK):
        k = keys[start:start + _RMAT_CHUNK]
        u, v = k >> scale, k & (n - 1)
        indices[start:start + len(k)] = v
        canonical = ((np.minimum(u, v) << scale) | np.maximum(u, v)) if symmetric else k
        data[start:start + len(k)] = _hashed_weights(canonical, salt)
    g = sp.csr_matrix((data, indices, indptr), shape=(n, n))
    g.has_sorted_indices = True
    return g


def delaunay(n: int, seed: int) -> sp.csr_matrix:
    """A stand-in for SuiteSparse's delaunay_n* graphs: the Delaunay triangulation
    (scipy.spatial.Delaunay, i.e. Qhull) of n points uniform in the unit square. Every triangle
    side is an edge in both directions, weighted by its Euclidean length: planar, connected,
    mean degree just under 6."""
    from scipy.spatial import Delaunay  # Qhull: loaded only when asked for

    func = "delaunay"
    n = _int_arg(func, "n", n, 3, 2**31 - 1, rule=" (a triangulation needs 3 points)")
    seed = _seed_arg(func, seed)
    rng = np.random.default_rng(seed)
    points = rng.random((n, 2))
    # Three points are one triangle; Qhull in scipy 1.17 refuses them ("need 4" for its initial
    # simplex), where earlier versions returned that triangle.
    tri = np.array([[0, 1, 2]], np.int64) if n == 3 else Delaunay(points).simplices.astype(np.int64)
    a = np.concatenate([tri[:, 0], tri[:, 1], tri[:, 2]])
    b = np.concatenate([tri[:, 1], tri[:, 2], tri[:, 0]])
    key = _sorted_unique(np.minimum(a, b) * n + np.maximum(a, b))  # each side once (it has 2 triangles)
    lo, hi = key // n, key % n
    w = np.hypot(*(points[lo] - points[hi]).T)
    return csr_from_edges(n, np.concatenate([lo, hi]), np.concatenate([hi, lo]), np.concatenate([w, w]))


# --------------------------------------------------------------------------- registry


class Param(NamedTuple):
    """One generator parameter, for the command line: its default is the CLI's default."""

    name: str
    type: type
    default: object
    help: str


class GeneratorSpec(NamedTuple):
    """name -> (function, description, parameters): unpacks as that triple."""

    function: Callable[..., sp.csr_matrix]
    description: str
    parameters: tuple


_SEED = Param("seed", int, 0, "numpy default_rng seed; the same seed gives the same graph")

GENERATORS: dict[str, GeneratorSpec] = {
    "seed-dag": GeneratorSpec(
        seed_dag,
        "the seed paper's random DAG: chain (i, i+1) of weight 1 plus distinct random (u, v) of "
        "weight 2(v - u); dist(v) = v from 0, n - 1 hops",
        (Param("n", int, 30_000, "vertices (the paper: 30,000)"),
         Param("m", int, 3_000_000, "edges, n - 1 .. n(n-1)/2 (the paper: up to 450M)"),
         _SEED),
    ),
    "road": GeneratorSpec(
        road_like,
        "stand-in for a road network: a jittered planar grid thinned out around a random spanning "
        "tree, Euclidean weights, two-way",
        (Param("rows", int, 1000, "grid rows"),
         Param("cols", int, 1000, "grid columns (vertices = rows x cols)"),
         _SEED,
         Param("keep", float, 0.85, "probability that a street off the spanning tree is kept")),
    ),
    "rmat": GeneratorSpec(
        rmat,
        "stand-in for Kronecker graphs: R-MAT (Graph500 a, b, c), integer weights in [1, 64), "
        "no self-loops or repeated edges",
        (Param("scale", int, 20, "2**scale vertices"),
         Param("edge_factor", int, 16, "generated edges per vertex (before dropping repeats)"),
         _SEED,
         Param("a", float, 0.57, "probability of the top-left quadrant"),
         Param("b", float, 0.19, "probability of the top-right quadrant"),
         Param("c", float, 0.19, "probability of the bottom-left quadrant"),
         Param("symmetric", bool, False, "make every edge two-way (like SuiteSparse's kron_g500)")),
    ),
    "delaunay": GeneratorSpec(
        delaunay,
        "stand-in for delaunay_n*: Delaunay triangulation of random points in the unit square, "
        "Euclidean weights, two-way",
        (Param("n", int, 1_000_000, "points (vertices)"), _SEED),
    ),
}
