"""The renderer's kernels compile for sm_90 with no GPU present, for every queue kind, and so does
each compile-time candidate that tools/gpu_mesh_ab.py times (rt/compaction.h, kernels/render.cu, rt/mesh_bvh.h)."""

import pytest

from queues_cuda.queues import QUEUES
from raytrace.build import compile_sm90


@pytest.mark.parametrize("queue", list(QUEUES))
def test_render_kernels_compile_for_sm90(queue):
    compiler, size = compile_sm90(QUEUES[queue].kind_id)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


@pytest.mark.parametrize("defines", [("RT_WAVE_SAMPLES=1",), ("RT_FIRST_WAVE_FROM_INDEX=1",), ("RT_WAVE_FETCH=1",),
                                     ("RT_POSTPONE_LEAVES=1",),
                                     ("RT_WAVE_SAMPLES=1", "RT_FIRST_WAVE_FROM_INDEX=1", "RT_WAVE_FETCH=1",
                                      "RT_POSTPONE_LEAVES=1")],
                         ids=["samples", "index", "fetch", "postpone", "all"])
def test_ab_variants_compile_for_sm90(defines):
    compiler, size = compile_sm90(QUEUES["glfq"].kind_id, defines=defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin for {defines}"
