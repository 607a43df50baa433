"""parBucketHeap with one thread block a level (include/sssp/level_bucket_heap.h) on the CPU build:
`levels` blocks of 1 or 2 std::threads, block 0 running the program and the others serving their
levels, emptying signal buffers on their own while the levels above go on. Every ExtractMin must
return what the reference heap and the sequential parBucketHeap return, on the same random
programs, whatever the blocks' interleaving."""

from __future__ import annotations

import numpy as np
import pytest
from test_block_heap import run_block
from test_bucket_heap import random_program

from queues_cuda.errors import KernelError
from sssp_demo.bucket_heap import BucketHeap

# Small d and many keys give deep heaps (up to 7 levels, so 7 blocks) and frequent Empties. Blocks
# of 2 threads double the spinning threads on a 2-core CI machine, where every wait is bounded
# (about 2 s on the CPU build): they run twice.
CASES = ([(1, seed, d, n) for seed in range(6) for d, n in ((1, 20), (1, 300), (2, 50), (4, 200), (16, 1000))]
         + [(2, 0, d, n) for d, n in ((1, 300), (16, 1000))])


@pytest.mark.parametrize("width, seed, d, n_keys", CASES)
def test_level_heap_matches_reference_and_sequential(width, seed, d, n_keys):
    rng = np.random.default_rng(seed * 1000 + d + 7)
    prog, expected = random_program(rng, n_keys, d, steps=400, p_delete=0.1, integer_prios=seed % 2 == 0)
    assert BucketHeap(n_keys, d).levels >= 3
    got = run_block(prog, n_keys, d, width, runner="sssp_level_heap_run")
    assert got == expected
    assert got == BucketHeap(n_keys, d).run(prog)


def test_level_heap_repeats_agree():
    """The same program many times: the blocks interleave differently each run, the answers do not."""
    rng = np.random.default_rng(99)
    prog, expected = random_program(rng, 300, 1, steps=300, p_delete=0.2, integer_prios=True)
    for _ in range(20):
        assert run_block(prog, 300, 1, 1, runner="sssp_level_heap_run") == expected


@pytest.mark.parametrize("runner", ["sssp_level_heap_run", "sssp_block_heap_run"])
@pytest.mark.parametrize("width", [1, 2])
def test_batch_too_large_ends_cleanly(runner, width):
    """A BulkUpdate larger than d raises the flag; every serving block then leaves (no hang), and a
    block of several threads abandons its work at its next barrier (BlockAbandoned) rather than
    running on with its peers' half-done lists."""
    rng = np.random.default_rng(5)
    prog, _ = random_program(rng, 200, 4, steps=50, p_delete=0.0, integer_prios=True)
    prog.types.append(0)
    prog.counts.append(5)  # more than d = 4
    prog.keys.extend([1, 2, 3, 4, 5])
    prog.prios.extend([1.0] * 5)
    with pytest.raises(KernelError):
        run_block(prog, 200, 4, width, runner=runner)
