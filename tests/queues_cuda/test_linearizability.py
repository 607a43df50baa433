"""The checker accepts linearizable histories and rejects the classic bad ones.

Each bad history is hand-made and minimal; each must be rejected, which proves the checker can
fail. Histories are (proc, op, value, ok, call, end) rows; value -1 marks an empty dequeue.
"""

import numpy as np
import pytest

from queues_cuda import linearizability
from queues_cuda.check import check_history
from queues_cuda.fifo_model import BoundedFifo, fifo_hints
from queues_cuda.history import DEQ, ENQ, History


def hist(rows):
    return History.from_columns(*zip(*rows))


GOOD = {
    "sequential": [(0, ENQ, 1, True, 1, 2), (0, ENQ, 2, True, 3, 4), (1, DEQ, 1, True, 5, 6), (1, DEQ, 2, True, 7, 8)],
    # Two overlapping enqueues may take effect in either order.
    "overlap-reordered": [(0, ENQ, 1, True, 1, 10), (1, ENQ, 2, True, 2, 9), (2, DEQ, 2, True, 11, 12),
                          (2, DEQ, 1, True, 13, 14)],
    # A dequeue that overlaps the enqueue may see the queue empty or the value.
    "empty-overlapping": [(0, ENQ, 1, True, 1, 10), (1, DEQ, -1, False, 2, 3), (1, DEQ, 1, True, 11, 12)],
    # Capacity 1: FULL while the one slot is taken.
    "full-legal": [(0, ENQ, 1, True, 1, 2), (1, ENQ, 2, False, 3, 4), (2, DEQ, 1, True, 5, 6)],
    # A FULL answer overlapping the dequeue that frees the slot is still legal (it came first).
    "full-overlapping": [(0, ENQ, 1, True, 1, 2), (1, ENQ, 2, False, 3, 8), (2, DEQ, 1, True, 4, 5)],
}

BAD = {
    "duplicate": [(0, ENQ, 1, True, 1, 2), (1, DEQ, 1, True, 3, 4), (2, DEQ, 1, True, 5, 6)],
    "reordered": [(0, ENQ, 1, True, 1, 2), (0, ENQ, 2, True, 3, 4), (1, DEQ, 2, True, 5, 6), (1, DEQ, 1, True, 7, 8)],
    # 1 vanishes: 2 comes out, then the queue claims to be empty.
    "lost": [(0, ENQ, 1, True, 1, 2), (0, ENQ, 2, True, 3, 4), (1, DEQ, 2, True, 5, 6), (1, DEQ, -1, False, 7, 8)],
    "empty-on-nonempty": [(0, ENQ, 1, True, 1, 2), (1, DEQ, -1, False, 3, 4), (1, DEQ, 1, True, 5, 6)],
    "illegal-full": [(0, ENQ, 1, True, 1, 2), (1, ENQ, 2, False, 3, 4)],        # capacity 2, one queued
    "full-after-free": [(0, ENQ, 1, True, 1, 2), (2, DEQ, 1, True, 3, 4), (1, ENQ, 2, False, 5, 6)],
    "fresh": [(1, DEQ, 7, True, 1, 2), (0, ENQ, 7, True, 3, 4)],                # dequeued before enqueued
    "never-enqueued": [(0, ENQ, 1, True, 1, 2), (1, DEQ, 9, True, 3, 4)],
}

CAPACITY = {"full-legal": 1, "full-overlapping": 1, "illegal-full": 2, "full-after-free": 1}


@pytest.mark.parametrize("name", sorted(GOOD))
@pytest.mark.parametrize("hinted", [False, True])
def test_accepts(name, hinted):
    h = hist(GOOD[name])
    priority, dead_end, prerequisites = fifo_hints(h) if hinted else (None, None, None)
    v = linearizability.check(h, BoundedFifo(CAPACITY.get(name, 4)), priority=priority, dead_end=dead_end,
                              prerequisites=prerequisites)
    assert v.linearizable is True


@pytest.mark.parametrize("name", sorted(BAD))
@pytest.mark.parametrize("hinted", [False, True])
def test_rejects(name, hinted):
    h = hist(BAD[name])
    priority, dead_end, prerequisites = fifo_hints(h) if hinted else (None, None, None)
    v = linearizability.check(h, BoundedFifo(CAPACITY.get(name, 4)), priority=priority, dead_end=dead_end,
                              prerequisites=prerequisites)
    assert v.linearizable is False


def test_counterexample_names_the_stuck_operations():
    verdict, text = check_history(hist(BAD["empty-on-nonempty"]), 4, 5.0, "hand-made")
    assert verdict is False
    assert "dequeue() -> EMPTY" in text and "queue then: [1]" in text


def test_timeout_answers_unknown_not_ok():
    # Many fully overlapping enqueues, dequeued in an order no search heuristic guesses first,
    # and a final impossible dequeue: the unhinted search cannot finish in a millisecond.
    rng = np.random.default_rng(0)
    n = 14
    order = rng.permutation(n)
    rows = [(i, ENQ, i, True, i + 1, 100 + i) for i in range(n)]
    rows += [(n + k, DEQ, int(v), True, 200 + 2 * k, 201 + 2 * k) for k, v in enumerate(order)]
    rows += [(99, DEQ, 55, True, 400, 401)]
    v = linearizability.check(hist(rows), BoundedFifo(None), timeout=0.001)
    assert v.linearizable is None


def sequential_run(rng, ops: int, cap: int):
    """`ops` operations of one thread on a bounded queue of `cap` (enqueue with probability 0.55),
    as rows [instant, op, value, ok]; and the next unused value."""
    rows, queue, value = [], [], 1
    for k in range(ops):
        if rng.random() < 0.55:
            ok = len(queue) < cap
            if ok:
                queue.append(value)
            rows.append([k, ENQ, value, ok])
            value += 1
        else:
            got = queue.pop(0) if queue else -1
            rows.append([k, DEQ, got, got != -1])
    return rows, value


def random_history(seed: int):
    """A sequential bounded queue run, each operation stretched around its instant by a random
    interval (so operations overlap); with probability 1/3 one result is corrupted."""
    rng = np.random.default_rng(seed)
    cap = int(rng.integers(1, 4))
    rows, _ = sequential_run(rng, 14, cap)
    if rng.random() < 1 / 3:
        victim = rows[int(rng.integers(len(rows)))]
        if victim[1] == ENQ:
            victim[3] = not victim[3]
        else:
            victim[2], victim[3] = (-1, False) if victim[3] else (1, True)
    instants = np.arange(len(rows), dtype=float)
    calls = instants - rng.uniform(0, 2.5, len(rows))
    ends = instants + rng.uniform(0.01, 2.5, len(rows))
    ranks = np.argsort(np.argsort(np.concatenate([calls, ends])))  # unique integer timestamps
    for i, r in enumerate(rows):
        r += [int(ranks[i]), int(ranks[len(rows) + i])]
    return hist([tuple(r) for r in rows]), cap


@pytest.mark.parametrize("seed", range(40))
def test_hints_never_change_the_verdict(seed):
    """Hinted and unhinted searches agree: the hints are search order and sound pruning only."""
    h, cap = random_history(seed)
    plain = linearizability.check(h, BoundedFifo(cap), timeout=10).linearizable
    pr, de, pq = fifo_hints(h)
    hinted = linearizability.check(h, BoundedFifo(cap), timeout=10, priority=pr, dead_end=de,
                                   prerequisites=pq).linearizable
    assert plain is not None and plain == hinted


def test_random_histories_include_both_verdicts():
    """The generator above is not vacuous: it yields linearizable and non-linearizable histories."""
    verdicts = set()
    for seed in range(40):
        h, cap = random_history(seed)
        verdicts.add(linearizability.check(h, BoundedFifo(cap)).linearizable)
    assert verdicts == {True, False}
