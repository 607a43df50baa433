"""The bounded FIFO specification, step by step."""

import pytest

from queues_cuda.fifo_model import BoundedFifo
from queues_cuda.history import DEQ, ENQ


@pytest.mark.parametrize(
    "capacity, state, operation, legal, after",
    [
        (2, (), (ENQ, 5, True), True, (5,)),
        (2, (5,), (ENQ, 6, True), True, (5, 6)),
        (2, (5, 6), (ENQ, 7, True), False, None),      # no room
        (2, (5, 6), (ENQ, 7, False), True, (5, 6)),    # FULL is legal when full
        (2, (5,), (ENQ, 7, False), False, None),       # ... and only then
        (None, (5,) * 0, (ENQ, 7, False), False, None),  # unbounded: never full
        (2, (5, 6), (DEQ, 5, True), True, (6,)),
        (2, (5, 6), (DEQ, 6, True), False, None),      # not the oldest
        (2, (), (DEQ, 0, False), True, ()),            # EMPTY when empty
        (2, (5,), (DEQ, 0, False), False, None),       # ... and only then
    ],
)
def test_step(capacity, state, operation, legal, after):
    ok, new_state = BoundedFifo(capacity).step(state, operation)
    assert ok is legal
    if legal:
        assert new_state == after
