"""G-WFQ-YMC under split roles, many consumers and a pool of a few hundred cells: every token
arrives once, in order, and the pool never runs out (ymc.cuh, gate).

The GPU failed this shape (2^14 threads, split roles) with "segment pool exhausted". The cause,
found on the CPU runtime with patience 0 (every closed cell sends a dequeue to the slow path): a
pending dequeue request pins the reuse frontier at its start cell while its search runs, and its
search may need every cell up to Tail. Fast dequeuers and enqueuers kept drawing tickets while the
request's scanners lagged, until Head and Tail were a whole pool ahead of the request's start;
then every cell the request could still reach was consumed or closed, the cells it needed lay
beyond the frontier's reach, and every thread waited for a frontier that could never move.

Before the fix the 2-producer case failed with the pool error (after 21 s: the host's minimum wait).
In one-off runs of this shape the queue as it was failed after 6,636 of 8,000 tokens (2 producers)
and 17,617 of 32,000 (8 producers); with the ticketless EMPTY answer alone it still failed, after
2,258 and 20,525. The ticket gate is the fix; the EMPTY answer removes most of the racing. Each
case now takes about a second.
"""

import pytest

from queues_cuda.cpu_runtime import run_fifo
from queues_cuda.fifo_conformance import check_tokens
from queues_cuda.queues import QUEUES, tuning_defines

POOL = ("GQ_YMC_POOL_MIN=64",)  # C = max(64, 16 x 32 + 4, 3 x 32 + 64) = 576 cells


@pytest.mark.parametrize("producers", [2, 8])
def test_split_roles_keep_the_small_pool_usable(producers):
    defines = tuning_defines("ymc", patience=0, help_delay=1) + POOL
    per_producer = 16_000 // producers
    out, consumers, logged = run_fifo(QUEUES["ymc"], 1, 32, "split", producers, per_producer, False, defines)
    report = check_tokens(out, consumers, logged, producers, per_producer)
    assert report.tokens == 16_000 and report.ok, report
