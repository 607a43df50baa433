"""The compiled FIFO search (host/fifo_search.cpp) and the Python engine give the same verdicts:
on the hand-made good and bad histories and on random ones of both kinds."""

import pytest
from test_linearizability import BAD, CAPACITY, GOOD, hist, random_history

from queues_cuda.fifo_checker import check_fifo


@pytest.mark.parametrize("name", sorted(GOOD) + sorted(BAD))
def test_hand_made(name):
    h = hist({**GOOD, **BAD}[name])
    verdict = check_fifo(h, CAPACITY.get(name, 4), 10, engine="native")
    assert verdict.linearizable is (name in GOOD)


@pytest.mark.parametrize("seed", range(60))
def test_engines_agree(seed):
    h, cap = random_history(seed)
    native = check_fifo(h, cap, 10, engine="native").linearizable
    python = check_fifo(h, cap, 10, engine="python").linearizable
    assert native is not None and native == python


def test_counterexample_prefix_is_replayed():
    h = hist(BAD["empty-on-nonempty"])
    v = check_fifo(h, 4, 10, engine="native")
    assert v.linearizable is False and v.prefix == [0] and v.prefix_state == (1,)
