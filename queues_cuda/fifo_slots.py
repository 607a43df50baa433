"""The slot search (host/fifo_search.cpp, ``gq_fifo_slots``): a decision procedure for the strict
bounded FIFO model built for wide histories, and the independent replay of its witnesses.

The search above it (Wing–Gong with Lowe's memo) picks which enqueue takes effect next, so a
history with a hundred fully overlapping enqueues offers it a hundred interchangeable choices at
every step. The slot search instead lets an enqueue take effect anonymously and names the value
only when a dequeue takes it out (or, for values never dequeued, at the end); it places operations
just before returns only, and tracks FULL and EMPTY answers by the last points where the size
touched C and 0. fifo_search.cpp explains why each of these loses no linearization.

A "linearizable" verdict carries the witness order in ``Verdict.prefix``; ``replay`` re-checks it
here against fifo_model.BoundedFifo and the real-time order, so a bug in the compiled search can
never pass a history.
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import linearizability
from .build import checker_library
from .fifo_model import BoundedFifo, fifo_hints
from .history import DEQ, ENQ, History


def _library():
    lib = checker_library()
    if lib is None:
        return None
    if not getattr(lib, "_gq_slots_bound", False):
        i64, p = ctypes.c_int64, ctypes.c_void_p
        lib.gq_fifo_slots.restype = ctypes.c_int
        lib.gq_fifo_slots.argtypes = [i64, p, p, p, p, i64, i64, ctypes.c_double, i64, p, p, p, p, p]
        lib.gq_fifo_search_wgl.restype = ctypes.c_int
        lib.gq_fifo_search_wgl.argtypes = [i64, p, p, p, p, i64, i64, p, p, ctypes.c_double, p, p, p, p, p]
        lib._gq_slots_bound = True
    return lib


def available() -> bool:
    return _library() is not None


def columns(h: History):
    """kind (0 enqueue ok, 1 FULL, 2 dequeue of a value, 3 EMPTY), dense value ids (a dequeued
    value nobody enqueued gets the id past them all) and their count, as both searches take them."""
    n = len(h)
    enq_ok = (h.op == ENQ) & h.ok
    deq_ok = (h.op == DEQ) & h.ok
    kind = np.where(h.op == ENQ, np.where(h.ok, 0, 1), np.where(h.ok, 2, 3)).astype(np.uint8)
    values = np.unique(h.value[enq_ok])
    n_values = len(values)
    vid = np.full(n, -1, np.int64)
    vid[enq_ok] = np.searchsorted(values, h.value[enq_ok])
    if deq_ok.any():
        found = np.searchsorted(values, h.value[deq_ok]).clip(0, max(n_values - 1, 0))
        known = (values[found] == h.value[deq_ok]) if n_values else np.zeros(int(deq_ok.sum()), bool)
        vid[deq_ok] = np.where(known, found, n_values)
    return kind, vid, n_values


def check_slots(h: History, capacity: int | None, timeout: float, max_states: int = 0) -> linearizability.Verdict:
    """Decide `h` with the slot search. Linearizable: ``prefix`` is a witness order (replayed here).
    Not linearizable: ``prefix`` is the longest prefix the search could name and ``window`` the
    operations pending where it got stuck. Unknown (None): out of time or memo room."""
    lib = _library()
    if lib is None:
        raise RuntimeError("the slot search needs a C++ compiler")
    n = len(h)
    if n == 0:
        return linearizability.Verdict(True)
    kind, vid, n_values = columns(h)
    call = np.ascontiguousarray(h.call, np.int64)
    end = np.ascontiguousarray(h.end, np.int64)
    out = np.zeros(3, np.int64)  # steps, order length, window length
    order, window = np.zeros(n, np.int64), np.zeros(n, np.int64)
    p = lambda a: a.ctypes.data  # noqa: E731
    code = lib.gq_fifo_slots(n, p(kind), p(vid), p(call), p(end), -1 if capacity is None else capacity, n_values,
                             float(timeout), int(max_states), p(out[0:]), p(order), p(out[1:]), p(window), p(out[2:]))
    steps = int(out[0])
    if code == 1:
        witness = order[: out[1]].tolist()
        problem = replay(h, capacity, witness)
        if problem:
            raise RuntimeError(f"slot search: its witness fails the replay ({problem})")
        return linearizability.Verdict(True, steps, witness, reason="witness order replayed")
    if code == 0:
        placed = order[: out[1]].tolist()
        return linearizability.Verdict(False, steps, placed, _state_after(h, placed), window[: out[2]].tolist(),
                                       "no order of the operations explains the history")
    if code == -1:
        return linearizability.Verdict(None, steps, reason=f"slot search ran out of time ({timeout:g} s) or memo room")
    if code == -2:
        raise RuntimeError("slot search: a witness failed its own replay")
    return linearizability.Verdict(None, steps, reason="slot search not applicable (enqueued values not distinct)")


def check_wgl(h: History, capacity: int | None, timeout: float) -> bool | None:
    """The verdict of the compiled Wing–Gong search alone (``gq_fifo_search_wgl``, the checker
    before the slot search), with the same hints fifo_checker gives it: the reference the slot
    search is tested against."""
    lib = _library()
    n = len(h)
    if n == 0:
        return True
    kind, vid, n_values = columns(h)
    deq_ok = kind == 2
    never = int(max(h.call.max(), h.end.max())) + 1
    dq_call = np.full(n_values + 1, never, np.int64)
    known = vid[deq_ok] < n_values
    dq_call[vid[deq_ok][known]] = h.call[deq_ok][known]
    priority = fifo_hints(h)[0]
    rank = np.empty(n, np.int64)
    rank[sorted(range(n), key=priority)] = np.arange(n)
    call = np.ascontiguousarray(h.call, np.int64)
    end = np.ascontiguousarray(h.end, np.int64)
    out = np.zeros(3, np.int64)
    prefix, window = np.zeros(n, np.int64), np.zeros(n, np.int64)
    p = lambda a: a.ctypes.data  # noqa: E731
    code = lib.gq_fifo_search_wgl(n, p(kind), p(vid), p(call), p(end), -1 if capacity is None else capacity, n_values,
                                  p(rank), p(dq_call), float(timeout), p(out[0:]), p(prefix), p(out[1:]), p(window),
                                  p(out[2:]))
    return {1: True, 0: False}.get(code)


def replay(h: History, capacity: int | None, order: list[int]) -> str:
    """Why `order` is not a linearization of `h` ('' when it is): each operation exactly once,
    no operation before one that returned before it was called, legal in the sequential model."""
    n = len(h)
    if sorted(order) != list(range(n)):
        return "not a permutation of the operations"
    calls, ends = h.call[order], h.end[order]
    latest_call = np.maximum.accumulate(calls)
    bad = np.nonzero(latest_call[:-1] > ends[1:])[0]
    if len(bad):
        k = int(bad[0]) + 1
        return f"operation {order[k]} is placed after an operation called after it returned"
    model, state = BoundedFifo(capacity), ()
    for i in order:
        ok, state = model.step(state, (int(h.op[i]), int(h.value[i]), bool(h.ok[i])))
        if not ok:
            return f"operation {i} ({h.describe(i)}) is illegal in queue state {model.describe(state)}"
    return ""


def _state_after(h: History, placed: list[int]) -> tuple:
    queue: list[int] = []
    for i in placed:
        if h.op[i] == ENQ and h.ok[i]:
            queue.append(int(h.value[i]))
        elif h.op[i] == DEQ and h.ok[i] and queue:
            queue.pop(0)
    return tuple(queue)
