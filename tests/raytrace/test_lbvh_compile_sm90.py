"""The LBVH build kernels (kernels/lbvh.cu) compile for sm_90 with no GPU present."""

from raytrace.mesh_accel import compile_lbvh_sm90


def test_lbvh_kernels_compile_for_sm90():
    compiler, size = compile_lbvh_sm90()
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"
