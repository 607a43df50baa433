"""Both queues on the CPU runtime (real OS threads, oversubscribed, with preemption points):
200 histories of 512 operations each, over capacities 1, 2, 3 (not a power of two) and 1024,
balanced, split and alternating mixes, each linearizable against the strict bounded FIFO; and
exactly-once FIFO conformance on more than 1e6 tokens."""

import pytest

from queues_cuda.check import CheckConfig, run_check
from queues_cuda.queues import QUEUES


@pytest.mark.parametrize("queue", list(QUEUES))
def test_histories_and_fifo(queue):
    r = run_check(CheckConfig(queue=queue, backend="cpu", capacities=(1, 2, 3, 1024), threads=64, ops=8,
                              histories=200, fifo_tokens=1_000_000, seed=7))
    assert r.histories == 200 and r.operations == 200 * 512
    assert r.not_linearizable == 0, r.counterexample
    assert r.unknown == 0, r.counterexample
    assert not r.kernel_error, r.kernel_error
    assert r.fifo.tokens >= 1_000_000 and r.fifo.ok, r.fifo


@pytest.mark.parametrize("queue", list(QUEUES))
@pytest.mark.parametrize("queues", [2, 3])
def test_several_queues_at_once(queue, queues):
    """Neighbouring threads use different queues (on the GPU: lanes of one warp, the case warp
    aggregation must group by target word); every value comes out once, from its own queue."""
    from queues_cuda.cpu_runtime import run_multi_queue

    seen = run_multi_queue(QUEUES[queue], queues, threads=48, rounds=200)
    assert (seen == 1).all(), f"{int((seen != 1).sum())} values seen other than once"
