"""Linearizability checking by Wing and Gong's search with Lowe's memoisation.

The search never knows what a queue is: it asks a model (``init``, ``step``) whether an operation
may take effect in a state. Events (calls and returns) sit in time order on a doubly linked list.
At each point the candidates are the operations called before the first pending return; the
search places one (lifting its call and return out of the list), and when none fits it undoes the
last placement. The cache of (set of placed operations, state) pairs already explored (Lowe) keeps
the search from exploring a configuration twice. A search that runs out of time answers ``None``
(unknown), never a false "linearizable".

Two generic reductions keep real histories fast:
* an operation that is legal now and leaves the state unchanged (an EMPTY or FULL answer) is
  placed at once, without trying alternatives: no linearization is lost by placing it early;
* restarts: a depth-first search is heavy-tailed, so after a step budget it starts again with
  another candidate order (just-in-time, or shuffled within a window that widens each time),
  keeping every cached configuration that was fully
  explored (those are proven dead ends whatever the order) and dropping only the ones on the
  abandoned path. Budgets double, so the total work stays within twice the last search.

A model-specific `priority` and `dead_end` (fifo_model.fifo_hints) may guide the search; neither
can change a verdict.

When a history is not linearizable, the verdict carries the longest linearized prefix found and
the window of operations that could not be placed after it: the counter-example to print.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from .history import History

FIRST_BUDGET = 20_000
# The memo grows by one entry a step; past this many (a few GB in Python) the search answers
# "unknown" rather than let the operating system kill it.
MAX_STATES = 4_000_000


@dataclass
class Verdict:
    linearizable: bool | None           # None: the search ran out of time
    explored: int = 0                   # search steps taken
    prefix: list[int] = field(default_factory=list)   # deepest linearization found (op indices)
    prefix_state: object = None
    window: list[int] = field(default_factory=list)   # candidates where the search got stuck
    reason: str = ""


class _Events:
    """Calls (node 2i) and returns (node 2i+1) of every operation on a doubly linked list."""

    def __init__(self, call: np.ndarray, end: np.ndarray):
        n = len(call)
        times = np.empty(2 * n, np.int64)
        times[0::2], times[1::2] = call, end
        self.head = 2 * n
        self.nxt = [0] * (2 * n + 1)
        self.prv = [0] * (2 * n + 1)
        last = self.head
        for node in np.argsort(times, kind="stable").tolist():
            self.nxt[last], self.prv[node] = node, last
            last = node
        self.nxt[last] = -1

    def lift(self, i: int) -> None:
        nxt, prv = self.nxt, self.prv
        for node in (2 * i, 2 * i + 1):
            p, q = prv[node], nxt[node]
            nxt[p] = q
            if q != -1:
                prv[q] = p

    def unlift(self, i: int) -> None:
        nxt, prv = self.nxt, self.prv
        for node in (2 * i + 1, 2 * i):
            p, q = prv[node], nxt[node]
            nxt[p] = node
            if q != -1:
                prv[q] = node

    def open_calls(self) -> tuple[list[int], int]:
        """Operations called before the first pending return, in time order, and the operation
        of that return (-1 when none is left)."""
        found, node = [], self.nxt[self.head]
        while node != -1 and node % 2 == 0:
            found.append(node // 2)
            node = self.nxt[node]
        return found, (node // 2 if node != -1 else -1)


def check(history: History, model, timeout: float = 30.0, operations=None, priority=None,
          dead_end=None, prerequisites=None) -> Verdict:
    """Is `history` linearizable with respect to `model`?

    `operations[i]` is what `model.step` receives for operation i; by default
    ``(op, value, ok)`` from the history's columns. `priority(i)`, when given, orders the
    candidates tried at each point (lower first). `dead_end(state, candidates)`, when given, must
    answer True only when no linearization can continue from `state` with `candidates` (op
    indices) the operations that may take effect next. `prerequisites(state, urgent, candidates)`,
    when given, names the candidates that let `urgent` (the operation whose return comes first)
    take effect; every other restart then tries `urgent`, then those, then the rest (just-in-time
    linearization, which suits histories where nearly everything overlaps).
    """
    n = len(history)
    if operations is None:
        operations = list(zip(history.op.tolist(), history.value.tolist(), history.ok.tolist()))
    if n == 0:
        return Verdict(True)
    base_rank = priority or (lambda i: 0)
    deadline = time.monotonic() + timeout
    dead: set = set()
    best = Verdict(False)
    steps, budget, attempt = 0, FIRST_BUDGET, 0
    ordinal = {i: k for k, i in enumerate(sorted(range(n), key=base_rank))}
    while True:
        # Attempts alternate between plain priority order and just-in-time order (when the model
        # offers prerequisites); from the third on, the order is shuffled within a window that
        # widens each time.
        jit = prerequisites if attempt % 2 == 1 else None
        if attempt < 2:
            rank = base_rank
        else:
            rng = random.Random(attempt)
            width = 4.0 * 2 ** (attempt // 2 - 1)
            jitter = [ordinal[i] + rng.uniform(0.0, width) for i in range(n)]
            rank = jitter.__getitem__
        outcome, used = _search(history, operations, model, rank, dead_end, jit, dead, best, budget, deadline)
        steps += used
        if outcome is not None:
            best.explored = steps
            if outcome:
                return Verdict(True, steps)
            best.reason = "no order of the operations explains the history"
            return best
        if time.monotonic() > deadline:
            return Verdict(None, steps, reason=f"search timed out after {timeout:g} s")
        if len(dead) > MAX_STATES:
            return Verdict(None, steps, reason=f"search memo full ({MAX_STATES} states)")
        budget, attempt = budget * 2, attempt + 1


def _search(history, operations, model, rank, dead_end, prerequisites, dead, best, budget, deadline):
    """One depth-first search. Returns (True | False | None for out of budget, steps used).

    `dead` holds (placed set, state) keys proven to lead nowhere; configurations on the path
    are added while explored and removed again if the budget runs out before they are settled.
    """
    n = len(history)
    events = _Events(history.call, history.end)
    state = model.init()
    linearized = 0
    path: list[tuple] = []  # cache keys of the configurations on the current path

    def candidates() -> tuple[list[int], list[int]]:
        found, urgent = events.open_calls()
        # Legal and state-preserving: place it alone (nothing is lost by placing it now).
        for i in found:
            ok, new_state = model.step(state, operations[i])
            if ok and new_state == state:
                return [i], found
        if dead_end is not None and dead_end(state, found):
            return [], found
        if prerequisites is None:
            return sorted(found, key=rank), found
        needed = prerequisites(state, urgent, found) if urgent >= 0 else ()
        return sorted(found, key=lambda i: (i != urgent, i not in needed, rank(i))), found

    placed: list[int] = []
    cands, window = candidates()
    frames: list[list] = [[cands, 0, state, -1, window]]  # candidates, next, state before, op, window
    steps = 0
    while frames:
        steps += 1
        if steps > budget or (steps % 8192 == 0 and (time.monotonic() > deadline or len(dead) > MAX_STATES)):
            for key in path:  # unsettled: not proven dead
                dead.discard(key)
            return None, steps
        frame = frames[-1]
        cands, k = frame[0], frame[1]
        advanced = False
        while k < len(cands):
            i = cands[k]
            k += 1
            ok, new_state = model.step(state, operations[i])
            if not ok:
                continue
            key = (linearized | (1 << i), new_state)
            if key in dead:
                continue
            dead.add(key)
            path.append(key)
            frame[1] = k
            linearized = key[0]
            prior, state = state, new_state
            events.lift(i)
            placed.append(i)
            if len(placed) == n:
                return True, steps
            if len(placed) > len(best.prefix):
                best.prefix, best.prefix_state, best.window = list(placed), state, []
            nxt_cands, nxt_window = candidates()
            frames.append([nxt_cands, 0, prior, i, nxt_window])
            advanced = True
            break
        if advanced:
            continue
        # No candidate works here: this configuration is settled; undo the choice that led here.
        if len(placed) == len(best.prefix) and not best.window:
            best.window = list(frame[4])
        frames.pop()
        if frame[3] >= 0:
            path.pop()
            i = placed.pop()
            linearized &= ~(1 << i)
            events.unlift(i)
            state = frame[2]
    return False, steps
