"""The token check finds each kind of planted fault, and passes a clean log."""

import numpy as np
import pytest

from queues_cuda.fifo_conformance import check_tokens

P, K = 4, 50


def clean_log(seed=0):
    """Two consumers; each takes every producer's tokens in order, interleaved at random."""
    rng = np.random.default_rng(seed)
    tokens, consumers = [], []
    queues = [[(p << 32) | (s + 1) for s in range(K)] for p in range(P)]
    while any(queues):
        p = rng.choice([i for i in range(P) if queues[i]])
        tokens.append(queues[p].pop(0))
        consumers.append(p % 2)  # producer p's tokens all reach consumer p % 2, in order
    return np.array(tokens, np.uint64), np.array(consumers, np.uint32)


def test_clean():
    tok, who = clean_log()
    r = check_tokens(tok, who, len(tok), P, K)
    assert r.ok and r.tokens == P * K


@pytest.mark.parametrize("fault, field", [
    ("duplicate", "duplicated"), ("loss", "lost"), ("swap", "order_violations"), ("range", "out_of_range"),
])
def test_faults(fault, field):
    tok, who = clean_log()
    if fault == "duplicate":
        tok[10] = tok[11]
    elif fault == "loss":
        tok, who = tok[:-1], who[:-1]
    elif fault == "swap":
        # Two tokens of one producer taken by one consumer, in the wrong order.
        idx = [i for i in range(len(tok)) if tok[i] >> 32 == 0][:2]
        tok[idx[0]], tok[idx[1]] = tok[idx[1]], tok[idx[0]]
    elif fault == "range":
        tok[5] = np.uint64((P + 3) << 32 | 1)
    r = check_tokens(tok, who, len(tok), P, K)
    assert not r.ok and getattr(r, field) > 0
