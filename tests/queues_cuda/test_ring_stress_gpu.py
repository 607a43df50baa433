"""G-LFQ's rings under the blind-claim stress (GQ_STRESS_BLIND_CLAIM, gq/scq_ring.cuh), on the GPU.

The stress build lets a dequeue whose warp last found plenty take its ticket by a bare fetch-add on
Head, as sCQ itself does, so that many tickets run past Tail. On the H200 that opened interleavings
which the shipped claim makes rare: with four ring accesses relaxed (runs 220 and 223), indices were
left behind Head in unsafe slots of an old cycle, where no dequeuer would ever look again (runs 230,
235-238). The benchmark's split kernel, its drain and its conservation count show such a loss:
every element enqueued over the run was dequeued during it or by the drain, or it was lost.

Both ways are held here: the stress conserves every element in the shipped build, and it catches
those relaxations put back as a planted fault (GQ_FAULT_RELAXED_RING). The figures are recorded
under $GQ_RESULTS_DIR as in test_gpu_queues.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from queues_cuda import bench_queues as bq
from queues_cuda.errors import GQError
from queues_cuda.queues import FAULTS, QUEUES

pytestmark = pytest.mark.gpu

STRESS = "GQ_STRESS_BLIND_CLAIM"
# The configurations of the ring probe that found the loss (runs 235-238): the 75 % split at 2^16
# threads and the 25 % split at 2^18, capacity one element a thread, 20 ms of warm-up, 100 ms
# measured. With the relaxations every run of the probe lost elements (93 to 2,708 of them).
CASES = ((1 << 16, 75), (1 << 18, 25))
WARMUP_NS, WINDOW_NS = 20_000_000, 100_000_000


def record(row: dict) -> None:
    out = os.environ.get("GQ_RESULTS_DIR")
    if out:
        with open(Path(out) / "ring-stress.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")


def stressed_run(bench, threads: int, pct: int) -> dict:
    """One split run of the stress build and its drain: what was lost, or the kernel's error."""
    threads_run, min_blocks = bench.resident(threads)
    producers = bq.producer_threads(threads_run, pct, bq.ROLE_LANES["cuda"])
    try:
        c = bench.run("split", threads_run, pct, WARMUP_NS, WINDOW_NS, threads_run, producers, True, False,
                      min_blocks=min_blocks)
    except GQError as exc:
        return {"threads": threads_run, "pct": pct, "lost": None, "error": str(exc)}
    enq, deq = int(c.counts[bq.ALL_ENQ]), int(c.counts[bq.ALL_DEQ])
    return {"threads": threads_run, "pct": pct, "enqueued": enq, "dequeued": deq, "drained": c.drained,
            "lost": enq - deq - c.drained, "error": None}


def test_blind_claim_stress_conserves_every_element():
    bench = bq._CudaBench(QUEUES["glfq"], (STRESS,))
    rows = [stressed_run(bench, threads, pct) for threads, pct in CASES for _ in range(3)]
    for r in rows:
        record({"build": "stress", **r})
    assert all(r["error"] is None and r["lost"] == 0 for r in rows), rows
    # The runs moved elements through the rings, so the count above held something.
    assert all(r["dequeued"] > r["threads"] for r in rows), rows


def test_blind_claim_stress_catches_the_relaxed_ring():
    bench = bq._CudaBench(QUEUES["glfq"], (STRESS, FAULTS["relaxed-ring"][0]))
    rows = []
    for _ in range(4):  # up to 8 runs; the probe saw a loss in every one
        rows += [stressed_run(bench, threads, pct) for threads, pct in CASES]
        if any(r["error"] or r["lost"] for r in rows):
            break
    for r in rows:
        record({"build": "stress+relaxed-ring", **r})
    assert any(r["error"] or r["lost"] for r in rows), rows
