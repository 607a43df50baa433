"""Checking a history against the strict bounded FIFO model.

Two engines. The Python one runs linearizability.py's Wing–Gong search with Lowe's memoisation,
its reductions and fifo_model.fifo_hints: model-agnostic, the readable reference. The compiled one
(host/fifo_search.cpp), which GPU histories of a thousand concurrent operations need, runs the
same search specialised to the FIFO model, about fifty times faster, alternating in doubling time
slices with a second exact procedure, the slot search (fifo_slots.py explains it and replays its
witnesses), which decides the wide EMPTY/FULL-heavy histories the first cannot. ``engine="auto"``
takes the compiled engine wherever a C++ compiler exists.
"""

from __future__ import annotations

import numpy as np

from . import linearizability
from .build import checker_library
from .fifo_model import BoundedFifo, fifo_hints
from .fifo_slots import columns
from .history import DEQ, ENQ, History

ENGINES = ("auto", "native", "python")


def check_fifo(h: History, capacity: int | None, timeout: float, engine: str = "auto") -> linearizability.Verdict:
    if engine == "python" or (engine == "auto" and checker_library() is None):
        priority, dead_end, prerequisites = fifo_hints(h)
        return linearizability.check(h, BoundedFifo(capacity), timeout=timeout, priority=priority,
                                     dead_end=dead_end, prerequisites=prerequisites)
    return _native(h, capacity, timeout)


def _native(h: History, capacity: int | None, timeout: float) -> linearizability.Verdict:
    lib = checker_library()
    if lib is None:
        raise RuntimeError("the compiled FIFO search needs a C++ compiler")
    n = len(h)
    kind, vid, n_values = columns(h)
    deq_ok = (h.op == DEQ) & h.ok
    known = vid[deq_ok] < n_values  # a dequeued value nobody enqueued has the id past them all
    never = int(max(h.call.max(), h.end.max())) + 1
    dq_call = np.full(n_values + 1, never, np.int64)
    dq_call[vid[deq_ok][known]] = h.call[deq_ok][known]
    priority = fifo_hints(h)[0]
    rank = np.empty(n, np.int64)
    rank[sorted(range(n), key=priority)] = np.arange(n)
    call = np.ascontiguousarray(h.call, np.int64)
    end = np.ascontiguousarray(h.end, np.int64)
    out = np.zeros(3, np.int64)  # steps, prefix length, window length
    prefix, window = np.zeros(n, np.int64), np.zeros(n, np.int64)
    p = lambda a: a.ctypes.data  # noqa: E731
    code = lib.gq_fifo_search(n, p(kind), p(vid), p(call), p(end), -1 if capacity is None else capacity, n_values,
                              p(rank), p(dq_call), float(timeout), p(out[0:]), p(prefix), p(out[1:]),
                              p(window), p(out[2:]))
    if code == 1:
        return linearizability.Verdict(True, int(out[0]))
    if code == -1:
        return linearizability.Verdict(None, int(out[0]), reason=f"search ran out of time ({timeout:g} s) or memo room")
    placed = prefix[: out[1]].tolist()
    state = _replay(h, placed)
    return linearizability.Verdict(False, int(out[0]), placed, state, window[: out[2]].tolist(),
                                   "no order of the operations explains the history")


def _replay(h: History, placed: list[int]) -> tuple:
    """The queue contents after the placed operations (for the counter-example)."""
    queue: list[int] = []
    for i in placed:
        if h.op[i] == ENQ and h.ok[i]:
            queue.append(int(h.value[i]))
        elif h.op[i] == DEQ and h.ok[i]:
            queue.pop(0)
    return tuple(queue)
