"""The renderers on the CPU backend: the queue renderer equals the compaction baseline bit for
bit for every queue kind and tile shape (spheres100's mirrors: samples that reflect wait for the
compaction baseline's next wave while the others go on in the same one, rt/compaction.h); analytic scenes give the radiance the formulas say; the render matches the committed reference
PNGs; bad options are refused before any work."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from render_cases import REFERENCES, lone_sphere_toml, mirror_toml, reference_path, render_case, srgb8, within_tolerance

from queues_cuda.errors import GQError
from queues_cuda.queues import QUEUES
from raytrace.build import kernel_variant
from raytrace.render import RenderOptions, render, screen_blocks, tile_capacity
from raytrace.scene import load_scene

W, H, SPP = 40, 24, 2


@pytest.fixture(scope="module")
def baselines():
    return {s: render_case(s, W, H, SPP, renderer="compaction", backend="cpu", threads=2)
            for s in ("cornell", "spheres100")}


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("queue", list(QUEUES))
@pytest.mark.parametrize("tiles, threads", [((1, 1), 1), ((3, 2), 4), ((8, 8), 16), ((40, 1), 7)])
def test_queue_equals_compaction_bit_for_bit(baselines, scene, queue, tiles, threads):
    base = baselines[scene]
    r = render_case(scene, W, H, SPP, renderer="queue", queue=queue, tiles=tiles, threads=threads, backend="cpu")
    assert r.image.shape == (H, W, 3) and r.image.dtype == np.float32
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32)), \
        f"{int((r.image != base.image).any(axis=2).sum())} pixels differ"
    assert r.rays == base.rays
    assert r.rays["primary"] == W * H * SPP


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("queue", ["glfq", "gwfq"])
@pytest.mark.parametrize("tiles, threads", [((2, 3), 3), ((37, 1), 2)])
def test_partial_blocks_equal_compaction(scene, queue, tiles, threads):
    # 37x22: the last 8x4 block of each band is 5 pixels wide and the last band 2 rows high, so
    # blocks hold lanes that belong to no pixel (rt::ScreenBlocks::lanes); 37x1 tiles are narrower
    # than a block, and most of them own none.
    w, h = 37, 22
    base = render_case(scene, w, h, SPP, renderer="compaction", backend="cpu", threads=2)
    r = render_case(scene, w, h, SPP, renderer="queue", queue=queue, tiles=tiles, threads=threads, backend="cpu")
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32))
    assert r.rays == base.rays


@pytest.mark.parametrize("defines", [("RT_ROUND_BLOCKS=1",), ("RT_ROUND_BLOCKS=3",), ("RT_TILE_SAMPLES=0",),
                                     ("RT_RESERVE_ROUNDS=0",), ("RT_TAIL_SAMPLES=1",)])
def test_other_round_shapes_equal_compaction(baselines, defines):
    # rt/tile_queues.h's switches: the blocks a worker takes a round, one path segment a round,
    # always the most blocks, one sample a round once less than a reserve of samples is left.
    with kernel_variant(defines):
        r = render_case("spheres100", W, H, SPP, renderer="queue", queue="glfq", tiles=(3, 2), threads=4,
                        backend="cpu")
    base = baselines["spheres100"]
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32))
    assert r.rays == base.rays


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("tiles, threads", [((1, 1), 1), ((3, 2), 4), ((8, 8), 16), ((37, 1), 2)])
def test_sfq_draws_before_its_requeues_equal_compaction(baselines, scene, tiles, threads):
    # RT_DRAW_EARLY=1 (rt/tile_queues_blocking.h, a probe row): the round's ticket draws go out
    # before its requeues, sized by the last round's look at the queue.
    with kernel_variant(("RT_DRAW_EARLY=1",)):
        r = render_case(scene, W, H, SPP, renderer="queue", queue="sfq", tiles=tiles, threads=threads, backend="cpu")
    base = baselines[scene]
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32))
    assert r.rays == base.rays


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("defines", [("RT_TAIL_SAMPLES=1",), ("RT_TAIL_SAMPLES=1000",),
                                     ("RT_TAIL_SAMPLES=2", "RT_ROUND_BLOCKS=4")])
@pytest.mark.parametrize("tiles, threads", [((1, 1), 3), ((3, 2), 4)])
def test_sfq_one_sample_rounds_at_the_end_equal_compaction(baselines, scene, defines, tiles, threads):
    # RT_TAIL_SAMPLES (rt/tile_queues.h, a probe row) in the blocking form: the render's last rounds
    # (with 1000 reserves, all of them) take each pixel through one sample at most.
    with kernel_variant(defines):
        r = render_case(scene, W, H, SPP, renderer="queue", queue="sfq", tiles=tiles, threads=threads, backend="cpu")
    base = baselines[scene]
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32))
    assert r.rays == base.rays


@pytest.mark.parametrize("width, height, tiles", [(40, 24, (1, 1)), (37, 22, (2, 3)), (37, 22, (37, 1)),
                                                  (1920, 1080, (4, 4)), (1920, 1080, (7, 5)), (9, 5, (9, 5))])
def test_tile_capacity_is_the_most_blocks_a_tile_owns(width, height, tiles):
    # rt::TileGrid::tile_of_block, counted block by block.
    opts = RenderOptions(width=width, height=height, spp=1, tiles=tiles)
    owned = {}
    for y in range(0, height, 4):
        for x in range(0, width, 8):
            t = (y * tiles[1] // height, x * tiles[0] // width)
            owned[t] = owned.get(t, 0) + 1
    assert sum(owned.values()) == screen_blocks(opts)
    assert tile_capacity(opts) == max(owned.values())


def test_ray_counts_add_up(baselines):
    r = baselines["spheres100"]
    assert r.rays["reflection"] > 0 and r.rays["shadow"] > r.rays["primary"]
    assert r.total_rays == sum(r.rays.values()) and r.mrays_per_s > 0
    assert r.nonfinite == 0 and np.isfinite(r.image).all()


@pytest.mark.parametrize("case", REFERENCES, ids=[c[0] for c in REFERENCES])
def test_matches_reference_png(case):
    from PIL import Image

    ref = np.asarray(Image.open(reference_path(*case)).convert("RGB"))
    ok, why = within_tolerance(srgb8(render_case(*case, renderer="queue", backend="cpu")), ref)
    assert ok, why


@pytest.mark.parametrize("renderer", ["compaction", "queue"])
def test_lone_sphere_radiance_at_its_centre(tmp_path, renderer):
    # The centre pixel sees the sphere's nearest point (0, 0, 1) head-on, lit from (0, 0, 10):
    # L = rho / pi * I * cos / d^2 with cos = 1 and d = 9. Samples jitter within the pixel
    # (0.027 scene units wide here), which moves the hit point by at most 0.014 from the axis:
    # cos and d^2 then differ from 1 and 81 by under 1e-4 relative.
    rho, intensity = 0.8, 500.0
    path = tmp_path / "sphere.toml"
    path.write_text(lone_sphere_toml(rho, intensity, 10.0))
    sc = load_scene(path)
    r = render(sc, RenderOptions(width=101, height=101, spp=4, renderer=renderer, backend="cpu", aov=True))
    expected = rho / np.pi * intensity / 81.0
    np.testing.assert_allclose(r.image[50, 50], expected, rtol=3e-4)
    assert r.aov["id"][50, 50] == 0 and r.aov["id"][0, 0] == -1
    np.testing.assert_allclose(r.aov["depth"][50, 50], 4.0, rtol=1e-5)
    np.testing.assert_allclose(r.aov["normal"][50, 50], [0, 0, 1], atol=1e-4)
    assert np.isinf(r.aov["depth"][0, 0]) and not r.aov["normal"][0, 0].any()
    assert (r.image[0, 0] == 0).all()  # background black


@pytest.mark.parametrize("k", [0.25, 0.8, 1.0])
def test_mirror_returns_wall_colour_times_reflectivity(tmp_path, k):
    colour = (0.9, 0.5, 0.2)
    path = tmp_path / "mirror.toml"
    path.write_text(mirror_toml(k, colour))
    sc = load_scene(path)
    r = render(sc, RenderOptions(width=16, height=12, spp=2, renderer="queue", backend="cpu"))
    np.testing.assert_allclose(r.image, np.broadcast_to(np.float32(k) * np.float32(colour), r.image.shape),
                               rtol=1e-6)
    assert r.rays["reflection"] == r.rays["primary"]


def test_nonfinite_contributions_are_counted_and_dropped(tmp_path):
    # Two lights at float32's edge: each term is finite, their sum is not.
    path = tmp_path / "hot.toml"
    text = lone_sphere_toml(1.0, 3.0e38, 2.0).replace("[[sphere]]", """[[light]]
position = [0, 0, 2]
intensity = [3.0e38, 3.0e38, 3.0e38]
[[sphere]]""")
    path.write_text(text)
    r = render(load_scene(path), RenderOptions(width=101, height=101, spp=1, backend="cpu"))
    assert r.nonfinite > 0
    assert np.isfinite(r.image).all()


@pytest.mark.parametrize("field, value", [("width", 0), ("width", 100_000), ("height", -1), ("spp", 0),
                                          ("spp", 5000), ("tiles", (0, 4)), ("tiles", (41, 1)),
                                          ("renderer", "megakernel"), ("queue", "lcrq"), ("backend", "tpu")])
def test_bad_options_are_refused_before_any_work(monkeypatch, field, value):
    import raytrace.cpu_render

    def no_render(*a, **k):
        raise AssertionError("rendering started")

    monkeypatch.setattr(raytrace.cpu_render, "render_cpu", no_render)
    opts = RenderOptions(width=W, height=H, spp=SPP, backend="cpu")
    setattr(opts, field, value)
    sc = load_scene(render_case.__globals__["ROOT"] / "scenes" / "cornell.toml")
    with pytest.raises(GQError, match=f"--{field}"):
        render(sc, opts)


def test_shared_scene_counts_what_the_tile_kernel_copies():
    # kernels/render.cu's scene_in_shared lays out primitives, nodes, the material rows named,
    # lights, the leaf index (every bounded primitive once) and the unbounded rows; the host's
    # count must be the kernel's, or the kernel falls back to global memory.
    from raytrace.cuda_render import SHARED_SCENE_FLOATS, shared_scene_floats
    from raytrace.render import SceneArrays
    from raytrace.scene import load_scene

    root = Path(__file__).resolve().parents[2] / "scenes"
    assert shared_scene_floats(SceneArrays.of(load_scene(root / "spheres100.toml"), 64, 48)) == \
        101 * 12 + 127 * 8 + 101 * 4 + 2 * 6 + 100 + 1
    for name in ("spheres100", "cornell"):
        for accel in ("bvh", "none"):
            a = SceneArrays.of(load_scene(root / f"{name}.toml"), 64, 48, accel)
            nindex = len(a.prims) - a.nunbounded if a.nnodes else 0
            assert a.nnodes == 0 or len(a.bvh_index) == nindex  # the kernel's count of the leaf index
            assert 0 < shared_scene_floats(a) <= SHARED_SCENE_FLOATS
    mesh = SceneArrays.of(load_scene(root / "mesh-demo.toml"), 64, 48)
    assert mesh.ntris > 0 and shared_scene_floats(mesh) == 0  # meshes keep their hierarchy in global memory
