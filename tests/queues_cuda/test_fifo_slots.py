"""The slot search (host/fifo_search.cpp, queues_cuda/fifo_slots.py) decides what the Wing–Gong
search decides, with the same verdict, on hand-made and random histories of both kinds; its
witnesses replay; its refutations without search name the operations at fault; and it settles the
wide GPU history (512 threads, capacity 64) that the Wing–Gong search could not in 120 s."""

import time
from pathlib import Path

import numpy as np
import pytest
from test_linearizability import BAD, CAPACITY, GOOD, hist, random_history, sequential_run

from queues_cuda.check import check_history
from queues_cuda.fifo_slots import available, check_slots, check_wgl, replay
from queues_cuda.history import DEQ, ENQ, load_many

pytestmark = pytest.mark.skipif(not available(), reason="needs a C++ compiler")

WIDE = Path(__file__).parent / "data" / "glfq-512x2-cap64-wide.npz"


def wide_history(seed: int, ops: int, capmax: int, spread: float):
    """A sequential bounded queue run of `ops` operations, each stretched around its instant by up
    to `spread` instants either side (so up to ~2*spread operations overlap); with probability 1/2
    one planted fault: a flipped answer, two dequeued values swapped, a dequeue of a value whose
    enqueue failed, or a failed enqueue turned into a success."""
    rng = np.random.default_rng(seed)
    cap = int(rng.integers(1, capmax + 1))
    rows, value = sequential_run(rng, ops, cap)
    if rng.random() < 0.5:
        fault, r = int(rng.integers(4)), rows[int(rng.integers(len(rows)))]
        taken = [x for x in rows if x[1] == DEQ and x[3]]
        failed = [x for x in rows if x[1] == ENQ and not x[3]]
        if fault == 0 and r[1] == ENQ:
            r[3] = not r[3]
        elif fault == 0:
            r[2], r[3] = (-1, False) if r[3] else (int(rng.integers(1, value + 1)), True)
        elif fault == 1 and len(taken) >= 2:
            a, b = rng.choice(len(taken), 2, replace=False)
            taken[a][2], taken[b][2] = taken[b][2], taken[a][2]
        elif fault == 2 and failed and r[1] == DEQ:
            r[2], r[3] = failed[0][2], True
        elif fault == 3 and failed:
            failed[0][3] = True
    instants = np.arange(len(rows), dtype=float)
    calls = instants - rng.uniform(0, spread, len(rows))
    ends = instants + rng.uniform(0.01, spread, len(rows))
    ranks = np.argsort(np.argsort(np.concatenate([calls, ends])))
    for i, r in enumerate(rows):
        r += [int(ranks[i]), int(ranks[len(rows) + i])]
    h = hist([tuple(r) for r in rows])
    # Now and then the unbounded model (only where no enqueue failed, which it would refute).
    if seed % 7 == 0 and not ((h.op == ENQ) & ~h.ok).any():
        cap = None
    return h, cap


@pytest.mark.parametrize("name", sorted(GOOD) + sorted(BAD))
def test_hand_made(name):
    v = check_slots(hist({**GOOD, **BAD}[name]), CAPACITY.get(name, 4), 10)
    assert v.linearizable is (name in GOOD)


def test_agrees_with_wing_gong_on_small_histories():
    """The 14-operation histories of test_linearizability, capacity 1 to 3."""
    verdicts = set()
    for seed in range(300):
        h, cap = random_history(seed)
        slots = check_slots(h, cap, 10).linearizable
        assert slots is not None and slots == check_wgl(h, cap, 10), seed
        verdicts.add(slots)
    assert verdicts == {True, False}


@pytest.mark.parametrize("ops,capmax,spread", [(24, 2, 3.0), (40, 4, 5.0), (60, 6, 4.0)])
def test_agrees_with_wing_gong_on_wider_histories(ops, capmax, spread):
    verdicts, decided = [], 0
    for seed in range(150):
        h, cap = wide_history(seed, ops, capmax, spread)
        slots = check_slots(h, cap, 5).linearizable
        old = check_wgl(h, cap, 5)
        if slots is not None and old is not None:
            assert slots == old, seed
            decided += 1
        verdicts.append(slots)
    assert decided >= 140 and {True, False} <= set(verdicts)


def test_witness_replays_and_a_broken_one_does_not():
    h, cap = hist(GOOD["overlap-reordered"]), 4
    v = check_slots(h, cap, 10)
    assert v.linearizable is True and replay(h, cap, v.prefix) == ""
    assert sorted(v.prefix) == list(range(len(h)))
    assert "illegal" in replay(h, cap, [0, 1, 2, 3])  # 1 goes in first, yet 2 comes out first
    assert "called after it returned" in replay(h, cap, [2, 3, 0, 1])  # dequeues before the enqueues
    assert "permutation" in replay(h, cap, [0, 1, 2])


def rows_of(*ops):
    """(op, value, ok, call, end) tuples; proc = row number."""
    return hist([(k, *o) for k, o in enumerate(ops)])


PATTERNS = {
    # 1 enqueued before 2 (real time), yet 2 dequeued before 1 was even called.
    "fifo-pair": (rows_of((ENQ, 1, True, 1, 2), (ENQ, 2, True, 3, 4), (DEQ, 2, True, 5, 6), (DEQ, 1, True, 7, 8)),
                  4, "dequeue() -> 2"),
    # 1 is never dequeued, though 2, enqueued after it, is.
    "tail-first": (rows_of((ENQ, 1, True, 1, 2), (ENQ, 2, True, 3, 4), (DEQ, 2, True, 5, 6)), 4, "dequeue() -> 2"),
    # EMPTY while 1 was certainly queued.
    "empty-while-queued": (rows_of((ENQ, 1, True, 1, 2), (DEQ, -1, False, 3, 4), (DEQ, 1, True, 5, 6)), 4,
                           "dequeue() -> EMPTY"),
    # FULL with capacity 2 when at most one value can have been queued.
    "full-by-counting": (rows_of((ENQ, 1, True, 1, 2), (ENQ, 2, False, 3, 4)), 2, "enqueue(2) -> FULL"),
    "dequeued-before-enqueued": (rows_of((DEQ, 7, True, 1, 2), (ENQ, 7, True, 3, 4)), 4, "dequeue() -> 7"),
    "dequeued-twice": (rows_of((ENQ, 1, True, 1, 2), (DEQ, 1, True, 3, 4), (DEQ, 1, True, 5, 6)), 4, "dequeue() -> 1"),
}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_bad_patterns_refute_without_search(name):
    h, cap, culprit = PATTERNS[name]
    v = check_slots(h, cap, 10)
    assert v.linearizable is False and v.explored == 0
    assert any(culprit in h.describe(i) for i in v.window)
    verdict, text = check_history(h, cap, 10, name)
    assert verdict is False and culprit in text


def test_wide_gpu_history_is_settled():
    """512 threads x 2 operations on G-LFQ, capacity 64 (run 5): 1,024 operations that nearly all
    overlap, ~300 FULL and ~400 EMPTY answers; unknown to the Wing–Gong search at 120 s."""
    [(tag, h)] = load_many(WIDE)
    started = time.perf_counter()
    v = check_slots(h, 64, 60)
    assert v.linearizable is True and replay(h, 64, v.prefix) == ""
    assert time.perf_counter() - started < 20
    verdict, text = check_history(h, 64, 60, tag)
    assert verdict is True and text == ""
    assert check_wgl(h, 64, 1.0) is None  # the search before this one, for contrast


def test_out_of_time_is_unknown():
    [(tag, h)] = load_many(WIDE)
    v = check_slots(h, 64, 1e-4)
    assert v.linearizable is None and "out of time" in v.reason
    verdict, text = check_history(h, 64, 1e-4, tag)
    assert verdict is None and "unknown" in text
