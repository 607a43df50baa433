"""A deliberately broken queue build must be caught by `gq queues check` on the CPU runtime.

Each fault is a compile flag that breaks one mechanism (queues.FAULTS); the check must fail,
either with a non-linearizable history, a FIFO conformance error, or a thread program that gave
up waiting for an element that was lost.
"""

import pytest

from queues_cuda.check import CheckConfig, run_check


@pytest.mark.parametrize(
    "queue, fault, capacities",
    [
        ("glfq", "skip-cycle", (1, 2, 3)),    # dequeues take a value of another lap
        ("glfq", "eager-full", (1, 2, 3)),    # the seed's FULL: free ring empty, queue not full
        ("glfq", "seed-ring", (1,)),          # 2n-slot rings with 64 threads: stranded elements
        ("sfq", "sfq-no-turn", (1, 2, 3)),    # dequeuers read before the enqueuer's turn
    ],
)
def test_fault_is_caught(queue, fault, capacities):
    r = run_check(CheckConfig(queue=queue, backend="cpu", capacities=capacities, threads=64, ops=8,
                              histories=30, fifo_tokens=20_000, fault=fault, timeout=20, seed=3))
    assert not r.ok
    assert r.not_linearizable or r.kernel_error or not r.fifo.ok
