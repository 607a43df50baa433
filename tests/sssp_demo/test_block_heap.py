"""parBucketHeap's block form (include/sssp/block_bucket_heap.h: parallel Merge, Select, splits
and reductions) on the CPU build, run by blocks of 1 to 8 std::threads: every ExtractMin returns
what the reference heap and the sequential parBucketHeap return, on the same random programs."""

from __future__ import annotations

import numpy as np
import pytest
from test_bucket_heap import random_program

from queues_cuda.errors import raise_if_flagged
from sssp_demo.bucket_heap import BucketHeap
from sssp_demo.sssp import _library


def run_block(prog, n_keys: int, d: int, width: int, runner: str = "sssp_block_heap_run"):
    """The program on the CPU build's `runner`: one block of `width` threads, or (runner
    sssp_level_heap_run) one such block a level."""
    ref = BucketHeap(n_keys, d)  # for the layout (levels, memory) only
    mem, sizes = np.zeros_like(ref.mem), np.zeros_like(ref.sizes)
    types = np.asarray(prog.types, np.uint32)
    counts = np.asarray(prog.counts, np.uint32)
    keys = np.asarray(prog.keys + [0], np.uint32)
    prios = np.asarray(prog.prios + [0.0], np.float64)
    n_out = int((types == 2).sum())
    out_key, out_prio = np.zeros(max(n_out, 1), np.uint32), np.zeros(max(n_out, 1), np.float64)
    out_ok, err = np.zeros(max(n_out, 1), np.uint8), np.zeros(4, np.uint32)
    p = lambda a: a.ctypes.data
    getattr(_library(), runner)(p(mem), p(sizes), d, ref.levels, width, p(types), p(counts), len(types), p(keys),
                                p(prios), p(out_key), p(out_prio), p(out_ok), p(err))
    raise_if_flagged(err, f"{runner}[cpu]", f"d={d}, width={width}")
    return [(int(k), float(v)) if ok else None for k, v, ok in zip(out_key[:n_out], out_prio[:n_out], out_ok[:n_out])]


# Wider blocks of threads on a 2-core CI machine mostly wait at the block barrier: fewer cases.
CASES = ([(1, seed, d, n) for seed in range(4) for d, n in ((1, 20), (2, 50), (4, 200), (16, 1000))]
         + [(3, seed, d, n) for seed in range(2) for d, n in ((1, 20), (4, 200), (16, 1000))]
         + [(8, 0, d, n) for d, n in ((2, 50), (4, 200))])


@pytest.mark.parametrize("width, seed, d, n_keys", CASES)
def test_block_heap_matches_reference_and_sequential(width, seed, d, n_keys):
    rng = np.random.default_rng(seed * 1000 + d)
    prog, expected = random_program(rng, n_keys, d, steps=400, p_delete=0.1, integer_prios=seed % 2 == 0)
    got = run_block(prog, n_keys, d, width)
    assert got == expected
    assert got == BucketHeap(n_keys, d).run(prog)
