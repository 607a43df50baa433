"""A queue built holding items (include/gq/queue_fill.cuh) is the queue one thread's enqueues of
those items leave: word for word but for the words the build says it leaves alone, and it
answers every later operation as they would (CPU runtime)."""

from collections import deque

import numpy as np
import pytest

from queues_cuda.cpu_runtime import fill_queue, fill_skips, make_queue, run_sequential
from queues_cuda.queues import ALL_QUEUE_KINDS, QUEUES

FILLED = ("glfq", "gwfq", "sfq")
# (capacity, threads, items): empty, full, part full, more users than room, one slot.
SHAPES = [(1, 1, 0), (1, 1, 1), (5, 3, 3), (8, 32, 8), (64, 16, 40), (100, 4, 0), (37, 37, 36)]


def _items(k: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 31, k, dtype=np.uint32)


def _model(capacity: int, start, ops, values):
    """A bounded FIFO's answers to `ops` (1 enqueue, 0 dequeue) from contents `start`."""
    q, ok, out = deque(start), [], []
    for op, v in zip(ops, values):
        if op:
            ok.append(len(q) < capacity)
            if ok[-1]:
                q.append(int(v))
            out.append(int(v))
        else:
            ok.append(bool(q))
            out.append(q.popleft() if ok[-1] else int(v))
    return np.array(ok), np.array(out, np.uint32)


@pytest.mark.parametrize("name", FILLED)
@pytest.mark.parametrize("capacity,threads,k", SHAPES)
def test_filled_queue_is_the_enqueues_state(name, capacity, threads, k):
    kind = QUEUES[name]
    items = _items(k, capacity * 7 + k)
    lib, filled, could = fill_queue(kind, capacity, threads, items)
    assert could
    _, enqueued = make_queue(kind, capacity, threads)
    ok, _ = run_sequential(kind, lib, enqueued, capacity, threads, np.ones(k, np.uint8), items)
    assert ok.all()
    skips = fill_skips(lib, capacity, threads, len(filled))
    differ = np.flatnonzero(filled != enqueued)
    assert skips[differ].all(), f"{name}: words {differ[~skips[differ]][:8]} differ from the enqueues' state"
    # The ring words are most of the queue and must be checked, not skipped.
    assert skips.sum() < len(filled) // 2

    # Every later operation gets the same answer from both, and the answer a bounded FIFO gives.
    rng = np.random.default_rng(k + 1)
    count = 6 * capacity + 8
    ops = (rng.random(count) < 0.5).astype(np.uint8)
    values = rng.integers(0, 1 << 31, count, dtype=np.uint32)
    want_ok, want_out = _model(capacity, items.tolist(), ops, values)
    for buf in (filled, enqueued):
        got_ok, got_out = run_sequential(kind, lib, buf, capacity, threads, ops, values)
        np.testing.assert_array_equal(got_ok, want_ok)
        np.testing.assert_array_equal(got_out[got_ok], want_out[want_ok])
    differ = np.flatnonzero(filled != enqueued)
    assert skips[differ].all()


@pytest.mark.parametrize("name", sorted(set(ALL_QUEUE_KINDS) - set(FILLED)))
def test_other_queues_are_built_empty(name):
    """Queues without a filled build say so and get a fresh queue's words (the tile renderer then
    enqueues its blocks itself)."""
    kind = ALL_QUEUE_KINDS[name]
    _, filled, could = fill_queue(kind, 16, 4, _items(5, 1))
    _, fresh = make_queue(kind, 16, 4)
    assert not could
    np.testing.assert_array_equal(filled, fresh)


def test_more_items_than_room_are_refused():
    with pytest.raises(ValueError, match="do not fit"):
        fill_queue(QUEUES["glfq"], 4, 2, _items(5, 3))
