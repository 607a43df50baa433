"""The host's traversal counter (host/trace_counts.cpp) and the work order of primary rays
(rt/pixel_order.h): the counted traversal finds exactly the reference's hits, in each variant of
the slab test, and the work order is a permutation whose warps are 8x4 screen blocks."""

from __future__ import annotations

import numpy as np
import pytest
from mesh_cases import small_scene

from raytrace import mesh_accel
from raytrace.scene import load_scene

W, H = 40, 30


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    return small_scene(tmp_path_factory.mktemp("counts"))


@pytest.mark.parametrize("width,height", [(1, 1), (7, 5), (8, 4), (13, 9), (40, 30), (33, 17)])
def test_pixel_order_is_a_permutation(width, height):
    order = mesh_accel.pixel_order(width, height)
    assert np.array_equal(np.sort(order), np.arange(width * height, dtype=np.uint32))


def test_each_warp_of_whole_blocks_is_one_8x4_block():
    width, height = 40, 32  # whole blocks only: 5 x 8 of them
    order = mesh_accel.pixel_order(width, height).astype(np.int64).reshape(-1, 32)
    x, y = order % width, order // width
    assert np.array_equal(x.max(axis=1) - x.min(axis=1), np.full(len(order), 7))
    assert np.array_equal(y.max(axis=1) - y.min(axis=1), np.full(len(order), 3))
    assert np.all(x.min(axis=1) % 8 == 0) and np.all(y.min(axis=1) % 4 == 0)
    # Blocks left to right, then bands top to bottom.
    assert list(zip(x[:6, 0], y[:6, 0])) == [(0, 0), (8, 0), (16, 0), (24, 0), (32, 0), (0, 4)]


def test_ragged_edges_keep_the_blocks_compact():
    width, height = 13, 6  # a 5-wide last column group and a 2-high last band
    order = mesh_accel.pixel_order(width, height).astype(np.int64)
    x, y = order % width, order // width
    assert list(zip(x[:8], y[:8])) == [(c, 0) for c in range(8)]
    assert list(zip(x[32:37], y[32:37])) == [(8 + c, 0) for c in range(5)]  # the narrow group
    assert np.all(y[width * 4:] >= 4)  # the short band comes last


@pytest.mark.parametrize("arity", [4, 2])
@pytest.mark.parametrize("slab_fma", [1, 0])
@pytest.mark.parametrize("build", ["sah", "lbvh"])
def test_counted_traversal_finds_the_reference_hits(scene, build, slab_fma, arity):
    tris = scene.triangles
    cam = scene.camera.basis(W, H)
    defines = (f"RT_SLAB_FMA={slab_fma}",)
    ref = mesh_accel.trace_counts(None, tris, cam, W, H, sample=1, spp=2, threads=2, defines=defines)
    accel = mesh_accel.build_sah(tris, arity=arity) if build == "sah" else \
        mesh_accel.build_lbvh_cpu(tris, threads=2, arity=arity)
    got = mesh_accel.trace_counts(accel, tris, cam, W, H, sample=1, spp=2, threads=2, defines=defines)
    hit = ref.tri >= 0
    assert 100 < hit.sum() < hit.size, "the view must show triangles and background"
    assert np.array_equal(got.t.view(np.uint32), ref.t.view(np.uint32))
    assert np.array_equal(got.tri >= 0, hit)
    # The hierarchy reorders the rows: compare the scene rows the hits carry.
    ref_rows = tris.view(np.uint32)[ref.tri[hit], 9]
    got_rows = accel.tris.view(np.uint32)[got.tri[hit], 9]
    assert np.array_equal(got_rows, ref_rows)
    # The reference tests every triangle and fetches no node; the hierarchy far fewer triangles.
    assert np.all(ref.tris == len(tris)) and np.all(ref.nodes == 0)
    assert np.all(got.nodes >= 1)
    assert got.tris.mean() < 0.05 * len(tris)
    if arity == 2:
        assert got.max_stack.max() <= accel.depth + 1
        # The root is level 0: every ray fetches it; never more even-level fetches than fetches.
        assert np.all(got.even_nodes >= 1) and np.all(got.even_nodes <= got.nodes)
        assert 0.3 < got.even_nodes.sum() / got.nodes.sum() < 0.7
    else:
        assert got.max_stack.max() <= 3 * (accel.depth // 2 + 1)


def test_the_wide_tree_fetches_the_binary_trees_even_levels(scene):
    # Each wide node is a binary node at an even level, entered when the binary traversal would
    # enter it: the wide traversal's fetches are close to the binary one's even-level fetches.
    tris = scene.triangles
    cam = scene.camera.basis(W, H)
    binary = mesh_accel.trace_counts(mesh_accel.build_sah(tris, arity=2), tris, cam, W, H, threads=2)
    wide = mesh_accel.trace_counts(mesh_accel.build_sah(tris, arity=4), tris, cam, W, H, threads=2)
    assert np.all(wide.even_nodes == 0)
    assert 0.8 * binary.even_nodes.sum() < wide.nodes.sum() < 1.25 * binary.even_nodes.sum()
    assert wide.nodes.sum() < 0.7 * binary.nodes.sum()


TERRAIN = """
[image]
width = 96
height = 54
[camera]
eye = [0.0, 4.5, 8.5]
look_at = [0.0, 0.0, -0.5]
fov = 50.0
[materials.rock]
diffuse = [0.55, 0.5, 0.42]
[[mesh]]
generate = "terrain"
size = [14.0, 14.0]
resolution = 96
height = 2.0
seed = 2026
material = "rock"
"""


def test_lbvh_on_a_flat_terrain_stays_near_the_sah_tree(tmp_path):
    # terrain1m's shape at 18,432 triangles. The Morton grid's cells are cubes (scene_bounds), so
    # the flat height axis gets no more splits than its extent earns: with a grid stretched to each
    # axis the LBVH tree cost a ray 22.4 node fetches here against the SAH tree's 14.2; with cubes
    # 16.3.
    path = tmp_path / "terrain.toml"
    path.write_text(TERRAIN)
    scene = load_scene(path)
    tris = scene.triangles
    bounds = mesh_accel.scene_bounds(tris)
    assert bounds[3] == bounds[4] == bounds[5] > 0
    cam = scene.camera.basis(96, 54)
    trees = {"sah": mesh_accel.build_sah(tris, arity=2), "lbvh": mesh_accel.build_lbvh_cpu(tris, threads=2, arity=2)}
    nodes = {b: mesh_accel.trace_counts(t, tris, cam, 96, 54, threads=2).nodes.mean() for b, t in trees.items()}
    assert nodes["lbvh"] < 1.3 * nodes["sah"], nodes
