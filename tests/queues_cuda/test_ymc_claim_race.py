"""G-WFQ-YMC's claim race in help_enq, made frequent.

A slow enqueuer reserves its ticket's cell, sees it still open (val = ⊥) and claims its request
there; the cell's dequeuer closes the cell (val := ⊤), finds the reservation and tries the same
claim. When the dequeuer lost that CAS without looking at what it found, it returned the ⊤ it
still read and moved on, and the enqueuer then committed its value into a cell no dequeuer would
visit again: an element stranded behind EMPTY answers or younger elements (once in about 10^4
histories of 128 threads at patience 0). GQ_YMC_WIDEN_CLAIM_RACE gives the core away inside the
claim windows (the CPU runtime only): the unfixed queue then failed 21 of 200 such histories, so
60 catch it with a probability above 99.8%; every one must now be linearizable against the
unbounded FIFO.

The hook also widens help_deq's window between finding a cell for a dequeue request and
announcing it, where a second, rarer stranding lived (1 in 13,700 histories with the claim race
fixed): helpers of one request disagreed whether an empty cell meant EMPTY, and one scanned past
the cell the request ended at (ymc.cuh, verdict; test_ymc_empty_verdict.py replays it on one
thread). With the widened window that one failed about 1 history in 100-250, so these 60 catch it
only now and then; the replay is what guards it.
"""

from queues_cuda import cpu_runtime
from queues_cuda.check import MIX_ROTATION, unproved_histories
from queues_cuda.queues import QUEUES, tuning_defines


def test_ymc_claim_race_strands_nothing():
    defines = tuning_defines("ymc", patience=0, help_delay=1) + ("GQ_YMC_WIDEN_CLAIM_RACE",)
    bad = unproved_histories(
        lambda capacity, mix, pct, seed: cpu_runtime.record_history(QUEUES["ymc"], capacity, 128, 8, mix, pct, seed,
                                                                    defines),
        60, (1, 2, 3), MIX_ROTATION, 6 * 1_000_003)
    assert not bad, f"{len(bad)} of 60 histories not linearizable; first:\n{bad[0]}"
