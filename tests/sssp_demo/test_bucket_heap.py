"""parBucketHeap against a reference heap (a dict and a scan) on random programs of BulkUpdate,
Delete and ExtractMin: every ExtractMin returns the same (key, priority)."""

from __future__ import annotations

import numpy as np
import pytest

from sssp_demo.bucket_heap import BucketHeap, HeapProgram


class ReferenceHeap:
    """The specification: Update keeps the smaller priority, ties break on the smaller key."""

    def __init__(self):
        self.items: dict[int, float] = {}

    def update(self, key, prio):
        self.items[key] = min(prio, self.items.get(key, np.inf))

    def delete(self, key):
        self.items.pop(key, None)

    def extract_min(self):
        if not self.items:
            return None
        key = min(self.items, key=lambda k: (self.items[k], k))
        return key, self.items.pop(key)


def random_program(rng, n_keys, d, steps, p_delete, integer_prios):
    prog, ref, expected = HeapProgram(), ReferenceHeap(), []
    for _ in range(steps):
        r = rng.random()
        if r < p_delete:
            k = int(rng.integers(n_keys))
            prog.delete(k)
            ref.delete(k)
        elif r < p_delete + 0.45:
            size = int(rng.integers(1, d + 1))
            keys = rng.choice(n_keys, size=min(size, n_keys), replace=False)
            prios = rng.integers(0, 50, len(keys)).astype(float) if integer_prios else rng.random(len(keys)) * 100
            prog.bulk_update(keys, prios)
            for k, v in zip(keys, prios):
                ref.update(int(k), float(v))
        else:
            prog.extract_min()
            expected.append(ref.extract_min())
    for _ in range(n_keys + 1):  # drain
        prog.extract_min()
        expected.append(ref.extract_min())
    return prog, expected


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("d, n_keys", [(1, 20), (2, 50), (4, 200), (16, 1000)])
def test_matches_reference(seed, d, n_keys):
    rng = np.random.default_rng(seed * 1000 + d)
    prog, expected = random_program(rng, n_keys, d, steps=600, p_delete=0.1, integer_prios=seed % 2 == 0)
    got = BucketHeap(n_keys, d).run(prog)
    for step, (g, e) in enumerate(zip(got, expected)):
        assert g == e, f"extract {step}: heap {g}, reference {e}"


def test_empty_heap_and_reinsert_after_delete():
    prog = HeapProgram()
    prog.extract_min()
    prog.bulk_update([3, 1], [5.0, 7.0])
    prog.delete(3)
    prog.bulk_update([3], [9.0])      # an insert after a delete: the old 5.0 must not come back
    prog.extract_min()
    prog.extract_min()
    prog.extract_min()
    assert BucketHeap(8, 2).run(prog) == [None, (1, 7.0), (3, 9.0), None]
