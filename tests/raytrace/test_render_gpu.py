"""The renderers on the GPU: queue renders equal the GPU compaction baseline bit for bit for
every queue kind and several tile shapes, and the GPU agrees with the CPU build within the
stated tolerance (and with the committed reference PNGs)."""

from __future__ import annotations

import numpy as np
import pytest
from render_cases import REFERENCES, psnr, reference_path, render_case, sphere_grid_toml, srgb8, within_tolerance

from queues_cuda.queues import QUEUES
from raytrace.build import kernel_variant

pytestmark = pytest.mark.gpu

W, H, SPP = 192, 108, 2
MIN_PSNR_DB = 50.0


def assert_same_render(r, base):
    """Bit for bit the same image, and the same rays by type."""
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32)), \
        f"{int((r.image != base.image).any(axis=2).sum())} pixels differ"
    assert r.rays == base.rays


@pytest.fixture(scope="module")
def gpu_baselines():
    return {s: render_case(s, W, H, SPP, renderer="compaction", backend="cuda") for s in ("cornell", "spheres100")}


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("queue", list(QUEUES))
@pytest.mark.parametrize("tiles", [(1, 1), (3, 2), (8, 8), (192, 1)])
def test_gpu_queue_equals_compaction_bit_for_bit(gpu_baselines, scene, queue, tiles):
    base = gpu_baselines[scene]
    r = render_case(scene, W, H, SPP, renderer="queue", queue=queue, tiles=tiles, backend="cuda")
    assert_same_render(r, base)


@pytest.mark.parametrize("queue", list(QUEUES))
def test_gpu_rounds_of_several_blocks_equal_compaction(gpu_baselines, queue):
    # 1,024 threads are 32 workers, few enough that a round takes several blocks for most of the
    # render (rt/tile_queues.h: k = remaining / reserve, here 41,472 / 4,096 samples at first).
    r = render_case("spheres100", W, H, SPP, renderer="queue", queue=queue, tiles=(3, 2), threads=1024,
                    backend="cuda")
    base = gpu_baselines["spheres100"]
    assert_same_render(r, base)


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("tiles, threads", [((1, 1), None), ((3, 2), None), ((3, 2), 1024), ((192, 1), 40)])
def test_gpu_sfq_draws_before_its_requeues_equal_compaction(gpu_baselines, scene, tiles, threads):
    # RT_DRAW_EARLY=1 (rt/tile_queues_blocking.h, a probe row): the round's ticket draws go out
    # before its requeues, sized by the last round's look at the queue.
    with kernel_variant(("RT_DRAW_EARLY=1",)):
        r = render_case(scene, W, H, SPP, renderer="queue", queue="sfq", tiles=tiles, backend="cuda",
                        **({"threads": threads} if threads else {}))
    assert_same_render(r, gpu_baselines[scene])


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("queue, tiles, threads", [("sfq", (1, 1), None), ("sfq", (3, 2), 1024), ("sfq", (1, 1), 1024),
                                                   ("glfq", (2, 2), None), ("glfq", (3, 2), 1024)])
def test_gpu_one_sample_rounds_at_the_end_equal_compaction(gpu_baselines, scene, queue, tiles, threads):
    # RT_TAIL_SAMPLES=1 (rt/tile_queues.h, a probe row): once less than a reserve of samples is
    # left, a round takes each pixel through one sample at most (at this image size and the
    # default threads, every round; at 1,024 threads the last 2,048 of 41,472 samples).
    with kernel_variant(("RT_TAIL_SAMPLES=1",)):
        r = render_case(scene, W, H, SPP, renderer="queue", queue=queue, tiles=tiles, backend="cuda",
                        **({"threads": threads} if threads else {}))
    assert_same_render(r, gpu_baselines[scene])


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
def test_gpu_agrees_with_cpu(gpu_baselines, scene):
    cpu = render_case(scene, W, H, SPP, renderer="compaction", backend="cpu")
    gpu = gpu_baselines[scene]
    db = psnr(cpu.image, gpu.image)
    exact = float((cpu.image == gpu.image).mean())
    print(f"\n[cpu-vs-gpu] {scene}: PSNR {db:.1f} dB, {exact:.4%} of values bit-equal")
    assert db >= MIN_PSNR_DB
    ok, why = within_tolerance(srgb8(cpu), srgb8(gpu))
    assert ok, why


@pytest.mark.parametrize("case", REFERENCES, ids=[c[0] for c in REFERENCES])
def test_gpu_matches_reference_png(case):
    from PIL import Image

    ref = np.asarray(Image.open(reference_path(*case)).convert("RGB"))
    ok, why = within_tolerance(srgb8(render_case(*case, renderer="queue", backend="cuda")), ref)
    assert ok, why


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
def test_gpu_bvh_equals_every_primitive(gpu_baselines, scene):
    reference = render_case(scene, W, H, SPP, renderer="compaction", backend="cuda", accel="none")
    assert np.array_equal(reference.image.view(np.uint32), gpu_baselines[scene].image.view(np.uint32))


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
@pytest.mark.parametrize("queue", ["glfq", "gwfq"])
@pytest.mark.parametrize("threads", [40, 7, 4096])
def test_gpu_partial_warps_and_blocks_equal_compaction(scene, queue, threads):
    # 37x22 leaves blocks with lanes outside the image (rt::ScreenBlocks::lanes); 40 threads are a
    # whole warp and one of 8 lanes, 7 a single partial warp, so a warp's lanes take several of a
    # block's pixels each (rt::tile_worker).
    w, h = 37, 22
    base = render_case(scene, w, h, SPP, renderer="compaction", backend="cuda")
    r = render_case(scene, w, h, SPP, renderer="queue", queue=queue, tiles=(3, 2), threads=threads, backend="cuda")
    assert_same_render(r, base)


@pytest.mark.parametrize("round_blocks, threads", [(1, 64), (4, 7), (16, 7), (16, 4096)])
def test_gpu_other_round_sizes_equal_compaction(gpu_baselines, round_blocks, threads):
    # RT_ROUND_BLOCKS (rt/tile_queues.h; 8 by default with G-LFQ); 16 blocks a round make 32 queue operations,
    # and on a warp of 7 lanes a lane makes several of them, requeues and dequeues.
    with kernel_variant((f"RT_ROUND_BLOCKS={round_blocks}",)):
        r = render_case("spheres100", W, H, SPP, renderer="queue", queue="glfq", tiles=(3, 2), threads=threads,
                        backend="cuda")
    base = gpu_baselines["spheres100"]
    assert_same_render(r, base)


@pytest.mark.parametrize("accel", ["bvh", "none"])
def test_gpu_scene_copied_to_shared_memory_or_not_renders_the_same(gpu_baselines, accel):
    # The tile renderer traces spheres100 from each block's copy of it in shared memory
    # (kernels/render.cu: scene_in_shared), with or without a hierarchy to copy; RT_SCENE_SHARED=0
    # traces it from global memory. Every way gives compaction's image.
    base = gpu_baselines["spheres100"] if accel == "bvh" else \
        render_case("spheres100", W, H, SPP, renderer="compaction", backend="cuda", accel=accel)
    shared = render_case("spheres100", W, H, SPP, renderer="queue", queue="glfq", tiles=(3, 2), accel=accel,
                         backend="cuda")
    with kernel_variant(("RT_SCENE_SHARED=0",)):
        global_ = render_case("spheres100", W, H, SPP, renderer="queue", queue="glfq", tiles=(3, 2), accel=accel,
                              backend="cuda")
    for r in (shared, global_):
        assert_same_render(r, base)


@pytest.mark.parametrize("n", [13, 14])
def test_gpu_scenes_either_side_of_the_shared_copy_equal_compaction(tmp_path, n):
    from raytrace.cuda_render import shared_scene_floats
    from raytrace.render import RenderOptions, SceneArrays, render
    from raytrace.scene import load_scene

    path = tmp_path / f"grid{n}.toml"
    path.write_text(sphere_grid_toml(n))
    scene = load_scene(path)
    fits = shared_scene_floats(SceneArrays.of(scene, 64, 48)) > 0
    assert fits == (n == 13)  # 13 x 13 spheres fit the copy (3,902 words), 14 x 14 do not (4,621)
    opts = dict(width=64, height=48, spp=2, backend="cuda")
    base = render(scene, RenderOptions(renderer="compaction", **opts))
    r = render(scene, RenderOptions(renderer="queue", queue="glfq", tiles=(2, 2), **opts))
    assert_same_render(r, base)
