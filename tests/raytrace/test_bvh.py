"""The BVH (raytrace/bvh.py, include/rt/bvh.h): a well-formed tree, and renders that equal the
every-primitive reference bit for bit, on the shipped scenes and on random soups of spheres,
boxes and quads (ties included: a copy of a primitive hits at the same t)."""

from __future__ import annotations

import numpy as np
import pytest
from render_cases import ROOT

from raytrace import bvh
from raytrace.render import RenderOptions, render
from raytrace.scene import load_scene


def soup(seed: int, n: int) -> np.ndarray:
    """n random bounded primitives in a 10-unit cube, plus a ground plane and an exact duplicate."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        kind = rng.integers(0, 3)
        c = rng.uniform(-5, 5, 3)
        if kind == 0:
            rows.append([bvh.SPHERE, 0, *c, rng.uniform(0.1, 1.0)] + [0] * 6)
        elif kind == 1:
            h = rng.uniform(0.1, 1.0, 3)
            rows.append([bvh.BOX, 0, *(c - h), *(c + h)] + [0] * 4)
        else:
            rows.append([bvh.QUAD, 0, *c, *rng.uniform(-1, 1, 3), *rng.uniform(-1, 1, 3), 0])
    rows.append([bvh.PLANE, 0, 0, 1, 0, -6] + [0] * 6)
    rows.append(list(rows[0]))  # a tie: the lower row must win, as in the linear scan
    return np.asarray(rows, np.float32)


@pytest.mark.parametrize("seed, n", [(1, 1), (2, 7), (3, 100), (4, 300)])
def test_tree_is_well_formed(seed, n):
    prims = soup(seed, n)
    tree = bvh.build(prims)
    lo, hi = bvh.prim_bounds(prims)
    assert sorted(tree.index.tolist()) == [i for i in range(len(prims)) if prims[i, 0] != bvh.PLANE]
    assert tree.unbounded.tolist() == [i for i in range(len(prims)) if prims[i, 0] == bvh.PLANE]
    bits = tree.nodes.view(np.uint32)
    seen = set()

    def walk(k):
        assert k not in seen
        seen.add(k)
        box_lo, box_hi = tree.nodes[k, :3], tree.nodes[k, 3:6]
        if bits[k, 7] & bvh.LEAF_BIT:
            first, count = int(bits[k, 6]), int(bits[k, 7] & ~bvh.LEAF_BIT)
            for i in tree.index[first:first + count]:
                assert (box_lo <= lo[i]).all() and (hi[i] <= box_hi).all()
            return
        for child in (int(bits[k, 6]), int(bits[k, 7])):
            assert (box_lo <= tree.nodes[child, :3]).all() and (tree.nodes[child, 3:6] <= box_hi).all()
            walk(child)

    walk(0)
    assert len(seen) == len(tree.nodes) and tree.depth <= bvh.MAX_DEPTH
    again = bvh.build(prims)
    assert np.array_equal(again.nodes.view(np.uint32), bits) and np.array_equal(again.index, tree.index)


def equal_renders(scene, **kw):
    a = render(scene, RenderOptions(accel="none", backend="cpu", aov=True, **kw))
    b = render(scene, RenderOptions(accel="bvh", backend="cpu", aov=True, **kw))
    assert np.array_equal(a.image.view(np.uint32), b.image.view(np.uint32)), \
        f"{int((a.image != b.image).any(axis=2).sum())} pixels differ"
    assert a.rays == b.rays
    for name in ("depth", "normal", "id"):
        assert np.array_equal(a.aov[name], b.aov[name]), name


@pytest.mark.parametrize("name", ["cornell", "spheres100"])
def test_bvh_renders_equal_the_reference(name):
    equal_renders(load_scene(ROOT / "scenes" / f"{name}.toml"), width=64, height=36, spp=2, renderer="compaction")


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_bvh_equals_the_reference_on_random_soups(tmp_path, seed):
    import dataclasses

    base = load_scene(ROOT / "scenes" / "cornell.toml")
    prims = soup(seed, 60)
    prims[:, 1] = np.arange(len(prims)) % len(base.materials)
    scene = dataclasses.replace(base, prims=prims,
                                camera=dataclasses.replace(base.camera, eye=(0.0, 2.0, 14.0), look_at=(0.0, 0.0, 0.0)))
    equal_renders(scene, width=48, height=32, spp=2, renderer="queue", threads=3)
