"""The software grid barrier of the grid forms (sssp/grid.h) on the CPU build: one-thread blocks,
more of them than CI has cores. Every block passes every barrier, no block writes a round after
the barrier that ends it, and a stop the leader asks for between two barriers ends every block at
the next one: all leave together (the budget stops of the GPU kernels go this way). So does an
error any thread raises in a round: no block starts the round after it. Every block also reads a
word the round's blocks added to through Grid::sync_read, and must see all their adds and no later
ones (the probe raises kCorrupt otherwise: a read made before the barrier fails these tests)."""

import numpy as np
import pytest

from sssp_demo.grid_forms import NO_STOP
from sssp_demo.sssp import _library

# gq::kCorrupt (arch.cuh), the error the probe raises in round fail_after.
K_CORRUPT = 2


def probe(threads: int, rounds: int, stop_after: int = NO_STOP, fail_after: int = NO_STOP):
    passed = np.zeros(threads, np.uint32)
    tally = np.zeros(rounds, np.uint64)
    err = np.zeros(4, np.uint32)
    code = _library().sssp_grid_barrier_probe(threads, rounds, stop_after, fail_after, passed.ctypes.data,
                                              tally.ctypes.data, err.ctypes.data)
    return code, passed, tally


@pytest.mark.parametrize("threads", [1, 2, 5, 9])
def test_every_block_passes_every_barrier(threads):
    code, passed, tally = probe(threads, 300)
    assert code == 0
    assert passed.tolist() == [300] * threads
    assert (tally == threads * (threads + 1) // 2).all()


@pytest.mark.parametrize("threads,stop_after", [(1, 0), (4, 0), (4, 17), (7, 98)])
def test_a_stop_ends_every_block_at_the_next_barrier(threads, stop_after):
    code, passed, tally = probe(threads, 200, stop_after)
    assert code == 0
    # The barrier after round stop_after + 1 is refused to every block alike.
    assert passed.tolist() == [stop_after + 1] * threads
    assert (tally[: stop_after + 2] == threads * (threads + 1) // 2).all()
    assert (tally[stop_after + 2:] == 0).all()


def assert_no_round_after(passed, tally, fail_after):
    """The last block raised an error in round fail_after: every block passed the barriers before
    that round and none passed the barrier after it, so no block ran a round after the failed
    one. A block still waiting at the barrier before when the error came may leave there instead
    (its wait ends on the raised flag): it only skips the failed round's work."""
    blocks = passed.size
    assert passed[-1] == fail_after
    assert set(passed.tolist()) <= {fail_after - 1, fail_after}
    assert (tally[:fail_after] == blocks * (blocks + 1) // 2).all()
    assert (tally[fail_after + 1:] == 0).all()


@pytest.mark.parametrize("threads,fail_after", [(1, 0), (4, 0), (5, 23), (9, 150)])
def test_no_block_runs_a_round_after_an_error(threads, fail_after):
    code, passed, tally = probe(threads, 200, fail_after=fail_after)
    assert code == K_CORRUPT
    assert_no_round_after(passed, tally, fail_after)


# The same probe on the GPU (kernels/grid_barrier.cu): every SM's blocks, at the shapes the grid
# forms launch (one block of 512 an SM: Near-Far; four of 256: the BFS).
@pytest.mark.gpu
@pytest.mark.parametrize("blocks_per_sm,width", [(1, 512), (4, 256), (2, 1024)])
def test_every_block_passes_every_barrier_on_the_gpu(blocks_per_sm, width):
    from sssp_demo.grid_forms import barrier_probe_cuda

    passed, tally, _ = barrier_probe_cuda(blocks_per_sm, width, 2000)
    blocks = passed.size
    assert passed.tolist() == [2000] * blocks
    assert (tally == blocks * (blocks + 1) // 2).all()


@pytest.mark.gpu
@pytest.mark.parametrize("stop_after", [0, 37, 998])
def test_a_stop_ends_every_block_at_the_next_barrier_on_the_gpu(stop_after):
    from sssp_demo.grid_forms import barrier_probe_cuda

    passed, tally, _ = barrier_probe_cuda(4, 256, 1000, stop_after)
    blocks = passed.size
    assert passed.tolist() == [stop_after + 1] * blocks
    assert (tally[: stop_after + 2] == blocks * (blocks + 1) // 2).all()
    assert (tally[stop_after + 2:] == 0).all()


# The error comes from the last thread of the last block, so its thread 0 must see a raise by
# another thread of its block before it arrives.
@pytest.mark.gpu
@pytest.mark.parametrize("blocks_per_sm,width,fail_after", [(4, 256, 0), (1, 512, 41), (2, 1024, 999)])
def test_no_block_runs_a_round_after_an_error_on_the_gpu(blocks_per_sm, width, fail_after):
    from sssp_demo.grid_forms import barrier_probe_cuda

    passed, tally, err = barrier_probe_cuda(blocks_per_sm, width, 1000, fail_after=fail_after)
    assert err[0] == K_CORRUPT and err[2] == fail_after
    assert_no_round_after(passed, tally, fail_after)
