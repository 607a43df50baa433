"""Bounding volume hierarchy over a scene's bounded primitives (spheres, boxes, quads).

A binary tree of axis-aligned boxes, built top-down by splitting each node's primitives at the
median centroid along the widest centroid axis (a "median split" BVH; Wald et al., "Ray Tracing
Deformable Scenes using Dynamic Bounding Volume Hierarchies", 2007, for the layout). Unbounded
primitives (planes) stay out of the tree and are tested on every ray. Mesh rows are in neither:
their triangles have a hierarchy of their own (include/rt/mesh_bvh.h). The build is deterministic
(stable sorts, no randomness), so every backend traverses the same tree.

Layout read by include/rt/bvh.h, one node per row of 8 float32 words:
    lo(3), hi(3), a, b       (a and b are uint32 bit patterns)
    inner node: a = left child row, b = right child row
    leaf:       a = first entry in `index`, b = count | LEAF_BIT
`index` lists primitive rows (object ids) leaf by leaf; row 0 is the root.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEAF_BIT = np.uint32(0x80000000)
LEAF_SIZE = 2
MAX_DEPTH = 48  # rt/bvh.h's traversal stack holds this many pending nodes
# Boxes are padded by this much relative to the coordinates' magnitude: a primitive's own
# intersection test may report a grazing hit that a tight box's slab test, rounding differently,
# would miss.
PAD = 1e-4

SPHERE, PLANE, BOX, QUAD, MESH = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Bvh:
    nodes: np.ndarray      # float32 [N, 8]; N = 0 when no primitive is bounded
    index: np.ndarray      # uint32 [K]: bounded primitive rows, leaf by leaf
    unbounded: np.ndarray  # uint32 [U]: rows tested on every ray (planes)
    depth: int


def prim_bounds(prims: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) float64 [P, 3] of every primitive; +-inf for planes."""
    p = np.asarray(prims, np.float64)
    kind = p[:, 0].astype(int)
    lo = np.full((len(p), 3), -np.inf)
    hi = np.full((len(p), 3), np.inf)
    s = kind == SPHERE
    lo[s], hi[s] = p[s, 2:5] - p[s, 5:6], p[s, 2:5] + p[s, 5:6]
    b = kind == BOX
    lo[b], hi[b] = p[b, 2:5], p[b, 5:8]
    q = kind == QUAD
    if q.any():
        c, u, v = p[q, 2:5], p[q, 5:8], p[q, 8:11]
        corners = np.stack([c, c + u, c + v, c + u + v])
        lo[q], hi[q] = corners.min(axis=0), corners.max(axis=0)
    return lo, hi


def build(prims: np.ndarray) -> Bvh:
    lo, hi = prim_bounds(prims)
    mesh = np.asarray(prims)[:, 0].astype(int) == MESH
    bounded = np.flatnonzero(np.isfinite(lo).all(axis=1) & np.isfinite(hi).all(axis=1) & ~mesh)
    unbounded = np.flatnonzero(~np.isin(np.arange(len(lo)), bounded) & ~mesh).astype(np.uint32)
    if len(bounded) == 0:
        return Bvh(np.zeros((0, 8), np.float32), np.zeros(0, np.uint32), unbounded, 0)
    lo[~np.isin(np.arange(len(lo)), bounded)] = 0.0  # never part of the tree; keeps the arithmetic finite
    hi[~np.isin(np.arange(len(hi)), bounded)] = 0.0
    pad = PAD * np.maximum(1.0, np.maximum(np.abs(lo), np.abs(hi)).max(axis=1, keepdims=True))
    lo, hi = lo - pad, hi + pad
    centre = (lo + hi) / 2
    rows: list[list] = []
    order: list[int] = []
    depth = 0

    def node(items: np.ndarray, level: int) -> int:
        nonlocal depth
        depth = max(depth, level)
        me = len(rows)
        rows.append(None)
        box = [*lo[items].min(axis=0), *hi[items].max(axis=0)]
        if len(items) <= LEAF_SIZE:
            rows[me] = (box, len(order), len(items) | int(LEAF_BIT))
            order.extend(int(i) for i in items)
            return me
        spread = centre[items].max(axis=0) - centre[items].min(axis=0)
        axis = int(np.argmax(spread))
        items = items[np.argsort(centre[items, axis], kind="stable")]
        half = len(items) // 2
        left = node(items[:half], level + 1)
        right = node(items[half:], level + 1)
        rows[me] = (box, left, right)
        return me

    node(bounded, 1)
    if depth > MAX_DEPTH:
        raise ValueError(f"BVH depth {depth} exceeds the traversal stack ({MAX_DEPTH})")
    nodes = np.zeros((len(rows), 8), np.float32)
    bits = nodes.view(np.uint32)
    for k, (box, a, b) in enumerate(rows):
        nodes[k, :6] = box
        bits[k, 6], bits[k, 7] = a, b
    return Bvh(nodes, np.asarray(order, np.uint32), unbounded, depth)
