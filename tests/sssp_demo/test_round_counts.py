"""parDijkstra's cost model (sssp_demo.bench.round_counts, host/sssp_cpu.cpp): rounds replayed on
parBucketHeap's block form must extract exactly what the sequential heap extracted and leave the
same level sizes (else the harness raises kCorrupt), and the counts must show the block form's
contract: merges that fit kStageKeys search shared memory only (no dependent device loads),
longer lists search one stride of device memory, a radix Select costs 2 barriers a pass."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sssp_demo.bench import round_counts
from sssp_demo.generators import seed_dag

STAGE_KEYS = 8192  # sssp::kStageKeys
SELECT_BARRIERS = 1 + 12 * 2  # the histogram's clearing, then 12 passes of 2


def star(n: int, extra: int, seed: int) -> sp.csr_matrix:
    """Vertex 0 reaches every other vertex in one round (so BulkUpdates fill the heap's deeper
    levels at once), plus random edges."""
    rng = np.random.default_rng(seed)
    src = np.concatenate([np.zeros(n - 1, np.int64), rng.integers(1, n, extra)])
    dst = np.concatenate([np.arange(1, n), rng.integers(1, n, extra)])
    w = rng.integers(1, 1000, len(src)).astype(float)
    g = sp.coo_matrix((w, (src, dst)), shape=(n, n)).tocsr()
    g.sum_duplicates()
    return g


def test_small_lists_search_shared_memory_only():
    g = seed_dag(3000, 60_000, 0)
    counts = round_counts(g, width=4, first=200, rounds=30)
    assert counts["rounds"] == 30
    assert counts["search_steps"] == 0  # every list fits kStageKeys: no search reads device memory
    selects = sum(level["selects"] for level in counts["levels"])
    assert selects > 0
    assert counts["barriers_by_part"]["select"] == pytest.approx(SELECT_BARRIERS * selects)
    assert counts["barriers_by_part"]["best"] > 0 and counts["barriers_by_part"]["merge"] > 0


def test_lists_longer_than_the_stage_search_one_stride():
    g = star(5 * STAGE_KEYS, 20_000, 1)
    counts = round_counts(g, d=4096, width=2, first=1, rounds=2)
    assert counts["rounds"] == 2
    assert counts["search_steps"] > 0  # lists over kStageKeys: strided staging, searched within a stride
    assert max(level["level"] for level in counts["levels"] if level["level"] != "none") >= 1
