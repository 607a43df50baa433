"""kernels/bfs.cu compiles for sm_90 with no GPU present, for every queue kind (the queue form is
built per kind; the compaction baseline is in every build)."""

import pytest

from queues_cuda.queues import QUEUES
from sssp_demo.bfs import compile_sm90


@pytest.mark.parametrize("queue", QUEUES)
def test_bfs_compiles_for_sm90(queue):
    compiler, size = compile_sm90(QUEUES[queue].kind_id)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"
