"""The renderer's kernels compile for sm_90 with no GPU present, for every queue kind."""

import pytest

from queues_cuda.queues import QUEUES
from raytrace.build import compile_sm90


@pytest.mark.parametrize("queue", list(QUEUES))
def test_render_kernels_compile_for_sm90(queue):
    compiler, size = compile_sm90(QUEUES[queue].kind_id)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"

