"""The Broker Queue's shortest refuting history (Kerbl et al., ICS 2018; include/gq/broker.cuh).

Five operations that the Broker Queue can produce and that no sequential bounded FIFO explains:
an EMPTY answer given while an element that a delayed dequeuer reserved is still in the queue.
`gq queues check --queue broker` checks it (alongside the recorded histories) and prints it;
the tests feed it to the checker, which must say not linearizable.
"""

from __future__ import annotations

from .history import DEQ, ENQ, History

# Why the Broker Queue is not linearizable, as the check's report says it.
WHY = ("the Broker Queue answers EMPTY (FULL) from its element count Count alone, and the order in "
       "which operations reserve units of Count need not be the order of their Head (Tail) tickets "
       "(queues_cuda/include/gq/broker.cuh)")

# Capacity of the replay: room for both elements, so no FULL question arises.
CAPACITY = 2
X, Y = 1, 2

# (proc, op, value, ok, call, end, what the queue did), in the order of the steps.
STEPS = (
    (0, ENQ, X, True, 0, 1, "E1(x) reserves (Count 0 -> 1), takes Tail ticket 0, writes x"),
    (1, DEQ, Y, True, 2, 9, "D1 reserves x's unit (Count 1 -> 0), then waits before taking a Head ticket"),
    (2, DEQ, -1, False, 3, 4, "D2 reads Count 0: EMPTY"),
    (3, ENQ, Y, True, 5, 6, "E2(y) reserves (Count 0 -> 1), takes Tail ticket 1, writes y"),
    (4, DEQ, X, True, 7, 8, "D3 reserves (Count 1 -> 0), takes Head ticket 0: x"),
)
# D1 resumes: Head ticket 1, y (its end, 9).


def counterexample() -> History:
    """The five operations as a history: E1(x), D1 -> y, D2 -> EMPTY, E2(y), D3 -> x."""
    cols = list(zip(*(step[:6] for step in STEPS)))
    return History.from_columns(*cols)


def narrative() -> list[str]:
    """What the queue did, step by step (for the report)."""
    return [what for *_, what in STEPS] + ["D1 resumes: takes Head ticket 1 and returns y"]
