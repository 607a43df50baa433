"""A deliberately broken queue build must be caught by `gq queues check` on the CPU runtime.

Each fault is a compile flag that breaks one mechanism (queues.FAULTS); the check must fail,
either with a non-linearizable history, a FIFO conformance error, or a thread program that gave
up waiting for an element that was lost.

Some faults only bite under a rare interleaving: `skip-cycle` needs a dequeuer to reach a slot a
whole lap (2·max(n, threads) tickets) ahead of a slower one, and one round of 30 histories and
20,000 tokens on two cores catches it about half the time. So each fault gets fresh rounds (new
seeds, new interleavings) until one catches it, up to a time budget that makes a miss of a
working checker vanishingly rare; a fault that survives the whole budget fails the test.
"""

import time

import pytest

from queues_cuda.check import CheckConfig, run_check

ROUND_BUDGET_S = 150.0


# The slow path of a wait-free queue only runs when forced: patience 0, help delay 1.
SLOW = {"patience": 0, "help_delay": 1, "fifo_tokens": 0}


@pytest.mark.parametrize(
    "queue, fault, capacities, options",
    [
        ("glfq", "skip-cycle", (1, 2, 3), {}),    # dequeues take a value of another lap
        ("glfq", "eager-full", (1, 2, 3), {}),    # the seed's FULL: free ring empty, queue not full
        ("glfq", "seed-ring", (1,), {}),          # 2n-slot rings with 64 threads: stranded elements
        ("sfq", "sfq-no-turn", (1, 2, 3), {}),    # dequeuers read before the enqueuer's turn
        ("sfq", "sfq-every-lap-fresh", (1, 2, 3), {}),  # enqueuers skip the turn read on every lap
        ("gwfq", "wfq-double-round", (1, 2, 3), SLOW),  # two helpers increment in one round
        ("gwfq", "wfq-slow-empty", (1, 2, 3), SLOW),    # a slow dequeue's round answers EMPTY before Tail
        ("ymc", "ymc-no-deq-claim", (1, 2, 3), SLOW),   # a fast dequeuer leaves the cell to a request too
    ],
)
def test_fault_is_caught(queue, fault, capacities, options):
    started = time.monotonic()
    rounds = 0
    while True:
        settings = {"histories": 30, "fifo_tokens": 20_000, **options}
        r = run_check(CheckConfig(queue=queue, backend="cpu", capacities=capacities, threads=64, ops=8,
                                  fault=fault, timeout=20, seed=3 + rounds, **settings))
        rounds += 1
        if not r.ok:
            break
        assert time.monotonic() - started < ROUND_BUDGET_S, \
            f"fault {fault} survived {rounds} rounds ({time.monotonic() - started:.0f} s): {r}"
    assert r.not_linearizable or r.kernel_error or not r.fifo.ok
