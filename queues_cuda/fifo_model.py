"""The sequential specification the linearizability checker tests against: a bounded FIFO queue.

State: the tuple of queued values, oldest first. An operation is ``(op, value, ok)``:

* enqueue(v) -> ok:     legal iff fewer than `capacity` values are queued; appends v
* enqueue(v) -> FULL:   legal iff exactly `capacity` values are queued; no change
* dequeue() -> v:       legal iff v is the oldest queued value; removes it
* dequeue() -> EMPTY:   legal iff nothing is queued; no change

`capacity=None` is an unbounded queue, in which a failed enqueue is never legal.
"""

from __future__ import annotations

from .history import ENQ

State = tuple


class BoundedFifo:
    def __init__(self, capacity: int | None):
        self.capacity = capacity

    def init(self) -> State:
        return ()

    def step(self, state: State, operation: tuple) -> tuple[bool, State]:
        op, value, ok = operation
        if op == ENQ:
            room = self.capacity is None or len(state) < self.capacity
            if ok:
                return (True, state + (value,)) if room else (False, state)
            return (not room, state)
        if ok:
            return (True, state[1:]) if state and state[0] == value else (False, state)
        return (not state, state)

    def describe(self, state: State) -> str:
        if len(state) > 12:
            head = ", ".join(map(str, state[:6]))
            tail = ", ".join(map(str, state[-3:]))
            return f"[{head}, ... ({len(state)} values) ..., {tail}]"
        return "[" + ", ".join(map(str, state)) + "]"


def fifo_hints(history):
    """Search hints for the linearizability checker on one history: (priority, dead_end,
    prerequisites).

    Neither changes a verdict: `priority` only orders the candidates, and `dead_end` stops only
    where no linearization can continue.

    * priority: operations are tried in the order their effects surface: an enqueue ranks at the
      call time of the dequeue that returned its value (values never dequeued last), just before
      that dequeue; every other operation ranks at its own call time.
    * dead_end: a FIFO queue hands out its values in order. A dequeue that must return v can only
      take effect after every value queued ahead of v was dequeued, and an EMPTY answer, or a
      dequeue of a value not yet enqueued, only after every queued value was. A dequeue takes
      effect after its call, so if the dequeue of some value that must go first is called after
      the pending operation returns, the state is a dead end. A value never dequeued counts as
      dequeued at infinity.
    * prerequisites: what lets the operation that must take effect next do so: the dequeue of the
      queue's head (for a dequeue of a later or not yet enqueued value, an EMPTY answer, or an
      enqueue into a full queue), the enqueue of the value a dequeue returns, or any enqueue (for a
      FULL answer).
    """
    op, value, ok, call, end = history.op, history.value, history.ok, history.call, history.end
    taken = (op == 1) & ok
    never = int(max(call.max(), end.max())) + 1 if len(call) else 0
    dq_call = dict(zip(value[taken].tolist(), call[taken].tolist()))
    keys = []
    for o, v, good, c in zip(op.tolist(), value.tolist(), ok.tolist(), call.tolist()):
        keys.append((dq_call.get(v, never), 0, c) if o == ENQ and good else (c, 1, c))
    ops, values, oks, ends = op.tolist(), value.tolist(), ok.tolist(), end.tolist()

    def dead_end(state: State, candidates: list[int]) -> bool:
        if not state:
            return False
        # ahead[k]: latest dequeue call among the values queued before position k.
        ahead, latest = {}, -1
        for x in state:
            ahead[x] = latest
            latest = max(latest, dq_call.get(x, never))
        for j in candidates:
            if ops[j] == ENQ:
                continue
            must_go_first = latest if not oks[j] or values[j] not in ahead else ahead[values[j]]
            if must_go_first > ends[j]:
                return True
        return False

    enq_of = {v: i for i, (o, v, good) in enumerate(zip(ops, values, oks)) if o == ENQ and good}

    def prerequisites(state: State, urgent: int, candidates: list[int]) -> set[int]:
        if ops[urgent] == ENQ and not oks[urgent]:
            return {j for j in candidates if ops[j] == ENQ and oks[j]}
        needed = {j for j in candidates if ops[j] != ENQ and oks[j] and state and values[j] == state[0]}
        if ops[urgent] != ENQ and oks[urgent] and values[urgent] not in state and values[urgent] in enq_of:
            needed.add(enq_of[values[urgent]])
        return needed

    return keys.__getitem__, dead_end, prerequisites
