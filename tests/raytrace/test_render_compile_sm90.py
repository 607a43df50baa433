"""The renderer's kernels compile for sm_90 with no GPU present, for every queue kind, and so does
each A/B variant of the compaction renderer that tools/gpu_render_ab.py times
(raytrace/compaction_variants.py), and the tile renderer's profiled build (rt/tile_profile.h)."""

import pytest

from queues_cuda.queues import QUEUES
from raytrace.build import compile_sm90
from raytrace.compaction_variants import VARIANTS, defines


@pytest.mark.parametrize("queue", list(QUEUES))
def test_render_kernels_compile_for_sm90(queue):
    compiler, size = compile_sm90(QUEUES[queue].kind_id)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


@pytest.mark.parametrize("variant", [name for name in VARIANTS if name != "default"])
def test_ab_variants_compile_for_sm90(variant):
    compiler, size = compile_sm90(QUEUES["glfq"].kind_id, defines=defines(variant))
    assert size > 1000, f"{compiler} produced a {size}-byte cubin for {variant}"


@pytest.mark.parametrize("queue", ["glfq", "sfq"])  # the two forms of the tile worker
def test_tile_profile_build_compiles_for_sm90(queue):
    compiler, size = compile_sm90(QUEUES[queue].kind_id, defines=("RT_PROFILE=1",))
    assert size > 1000, f"{compiler} produced a {size}-byte cubin with RT_PROFILE=1"


@pytest.mark.parametrize("defines", [("RT_DRAW_EARLY=1",), ("RT_DRAW_EARLY=1", "RT_PROFILE=1"), ("RT_TAIL_SAMPLES=1",),
                                     ("RT_TAIL_SAMPLES=1", "RT_ROUND_BLOCKS=4")])
def test_sfq_probe_builds_compile_for_sm90(defines):
    # The blocking tile form's probe rows (rt/tile_queues_blocking.h: RT_DRAW_EARLY, and rt/
    # tile_queues.h's RT_TAIL_SAMPLES), and a profile.
    compiler, size = compile_sm90(QUEUES["sfq"].kind_id, defines=defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin with {defines}"


@pytest.mark.parametrize("defines", [("RT_SCENE_SHARED=0",), ("RT_TILE_ONE_TRAVERSAL=0",), ("RT_QUEUE_OVERLAP=0",),
                                     ("RT_QUEUE_OVERLAP=0", "RT_QUEUE_ONE_PATH=0"), ("RT_REQUEUE_RETRY=0",),
                                     ("RT_SEEDERS_PER_WARP=1",), ("RT_SEEDERS_PER_WARP=8",), ("RT_ROUND_BLOCKS=1",),
                                     ("RT_ROUND_BLOCKS=4",), ("RT_ROUND_BLOCKS=12",), ("RT_ROUND_BLOCKS=16",),
                                     ("GQ_HOT_STRIDE_WORDS=16",), ("RT_TAIL_SAMPLES=1",)])
def test_tile_probe_builds_compile_for_sm90(defines):
    # tools/gpu_render_probe.py's tile-renderer rows (the scene from global memory, two specialised
    # traversals, the queue phase's variants, other seeder counts, the queues' hot words 128 bytes
    # apart) and the round sizes of tests/raytrace/test_render_gpu.py (RT_ROUND_BLOCKS=1 leaves a
    # warp fewer queue users than the default seeders: kernels/render.cu caps them).
    compiler, size = compile_sm90(QUEUES["glfq"].kind_id, defines=defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin with {defines}"
