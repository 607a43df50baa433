"""Every queue on the CPU runtime (real OS threads, oversubscribed, with preemption points):
200 histories of 512 operations each, over capacities 1, 2, 3 (not a power of two) and 1024,
balanced, split and alternating mixes, each linearizable against the strict bounded FIFO; and
exactly-once FIFO conformance on more than 1e6 tokens."""

import pytest

from queues_cuda import cpu_runtime
from queues_cuda.check import CheckConfig, run_check, unproved_histories
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


@pytest.mark.parametrize("roles", ["split", "balanced"])
@pytest.mark.parametrize("capacity", [1, 3, 1024])
def test_sfq_non_waiting_fifo(roles, capacity):
    """SFQ's FIFO runs elsewhere go through its blocking interface; this one goes through
    try_enqueue / try_dequeue, the CAS claims on Tail and Head, on rings small enough that FULL and
    EMPTY answers are frequent: every token arrives once, in per-producer order."""
    from queues_cuda.cpu_runtime import run_fifo
    from queues_cuda.fifo_conformance import check_tokens

    producers = 32 if roles == "split" else 64
    per_producer = 200_000 // producers
    out, consumers, logged = run_fifo(QUEUES["sfq"], capacity, 64, roles, producers, per_producer, False)
    report = check_tokens(out, consumers, logged, producers, per_producer)
    assert report.tokens == 200_000 and report.ok, report


@pytest.mark.parametrize("roles", ["split", "balanced"])
def test_sfq_one_lap_view(roles):
    """SFQ's one-lap view (gq/sfq.cuh: SfqView<true>, the one the queue BFS drives), built as the
    kind's queue by the GQ_SFQ_ONE_LAP hook, on capacities no run fills twice: its histories are
    linearizable, and every token of a FIFO run arrives once, in per-producer order, through the
    blocking interface (a split run's odd producers in batches, enqueue_batch; its consumers
    through try_dequeue)."""
    from queues_cuda.cpu_runtime import run_fifo
    from queues_cuda.fifo_conformance import check_tokens

    one_lap = ("GQ_SFQ_ONE_LAP=1",)
    r = run_check(CheckConfig(queue="sfq", backend="cpu", capacities=(1024,), threads=64, ops=8, histories=100,
                              fifo_tokens=0, seed=13 if roles == "split" else 17, hooks=one_lap))
    assert r.histories == 100 and r.ok, r.counterexample or r.kernel_error
    producers = 32 if roles == "split" else 64
    per_producer = 200_000 // producers
    total = producers * per_producer
    out, consumers, logged = run_fifo(QUEUES["sfq"], total, 64, roles, producers, per_producer, True, one_lap)
    report = check_tokens(out, consumers, logged, producers, per_producer)
    assert report.tokens == total and report.ok, report


WAIT_FREE = [q for q, kind in QUEUES.items() if kind.wait_free]


@pytest.mark.parametrize("queue", WAIT_FREE)
def test_forced_slow_path_is_linearizable(queue):
    """Patience 0 and help delay 1: almost every operation gives up on the fast path at once and
    publishes a request, and every operation first looks at a peer's. The counters prove that the
    slow path ran and that requests were finished by helpers; every history stays linearizable and
    every token arrives once, in order."""
    r = run_check(CheckConfig(queue=queue, backend="cpu", capacities=(1, 2, 3), threads=64, ops=8,
                              histories=100, fifo_tokens=5_000, seed=11, patience=0, help_delay=1, stats=True))
    assert r.histories == 100
    assert r.not_linearizable == 0, r.counterexample
    assert r.unknown == 0, r.counterexample
    assert not r.kernel_error, r.kernel_error
    assert r.fifo.tokens >= 15_000 and r.fifo.ok, r.fifo
    s = r.stats
    assert s["slow_path_entries"] > 0 and s["helps_given"] > 0 and s["completed_by_others"] > 0, s
    assert s["max_steps_per_op"] > 0, s


@pytest.mark.parametrize("queue", WAIT_FREE)
def test_default_build_counts_nothing_without_stats(queue):
    """Without --stats the counters are not compiled in: no report, and the same verdicts."""
    r = run_check(CheckConfig(queue=queue, backend="cpu", capacities=(2,), threads=16, ops=8, histories=4,
                              fifo_tokens=0, seed=5))
    assert r.ok and r.stats is None


@pytest.mark.parametrize("scan", [None, 4], ids=["one-scan-segment", "scan-segments-of-4"])
@pytest.mark.parametrize("roles", ["split", "balanced"])
def test_ymc_segment_pool_is_reused(roles, scan):
    """G-WFQ-YMC with a pool of 384 cells carrying 64,000 tokens: every cell is reused well over a
    hundred times (lap tags, hazard frontier), and every token still arrives once, in order. With
    scan segments of 4 threads the frontier is the least of 16 segments' minima, each raised by
    whichever waiter scans it (ymc.cuh, raise_frontier); with the default 1,024, one segment.

    A pool this small is full most of the time, so enqueuers wait for the frontier, which a
    preempted thread's hazard holds back for as long as the OS keeps it off its core. On a loaded
    machine that can exceed the 2 s a host wait lasts at least before the pool error
    (GQ_HOST_MIN_WAIT_NS); here one wait for room gives up only after 30 s, which a frontier that
    really stops (a leaked hazard, a cell never freed) still reaches, and then the run fails."""
    from queues_cuda.cpu_runtime import run_fifo
    from queues_cuda.fifo_conformance import check_tokens

    defines = ("GQ_YMC_POOL_MIN=384", "GQ_YMC_CELLS_PER_THREAD=2", "GQ_HOST_MIN_WAIT_NS=30000000000ull")
    defines += (f"GQ_YMC_SCAN_SEGMENT={scan}",) if scan else ()
    producers = 32 if roles == "split" else 64
    per_producer = 64_000 // producers
    out, consumers, logged = run_fifo(QUEUES["ymc"], 1, 64, roles, producers, per_producer, False, defines)
    report = check_tokens(out, consumers, logged, producers, per_producer)
    assert report.tokens == 64_000 and report.ok, report


def test_ymc_histories_with_a_small_pool_and_scan_segments():
    """G-WFQ-YMC histories of 64 threads x 16 operations on the smallest pool the ticket gate allows
    (3 x 64 + 64 = 256 cells, 128 of them open to tickets), its hazards scanned in segments of 4
    threads: each history's 512-odd enqueue tickets wrap the pool about four times, so the frontier
    is raised from the 16 segments' minima again and again, and every history must be linearizable
    against the unbounded FIFO. Alternating and random mixes only: they keep at most 64 elements
    queued, where a split could queue more than the pool holds (the pool error, by design)."""
    defines = ("GQ_YMC_POOL_MIN=64", "GQ_YMC_CELLS_PER_THREAD=1", "GQ_YMC_SCAN_SEGMENT=4",
               "GQ_HOST_MIN_WAIT_NS=30000000000ull")
    bad = unproved_histories(
        lambda capacity, mix, pct, seed: cpu_runtime.record_history(QUEUES["ymc"], capacity, 64, 16, mix, pct, seed,
                                                                    defines),
        40, (1, 3), [("alternate", 50), ("random", 50)], 7 * 1_000_003)
    assert not bad, f"{len(bad)} of 40 histories not linearizable; first:\n{bad[0]}"


@pytest.mark.parametrize("queue", WAIT_FREE)
def test_steps_per_operation_under_oversubscription(queue):
    """256 threads on CI's two cores, most of them preempted at any instant: every operation still
    finishes in a bounded number of its own steps (fast-path attempts, slow-path rounds, CAS
    retries and waits, help given included; queue_stats.cuh). The maximum is printed and must stay
    far below the spin budgets (2^18 waits, 2^28 claims) that would otherwise end a stuck run."""
    r = run_check(CheckConfig(queue=queue, backend="cpu", capacities=(1024,), threads=256, ops=4, histories=10,
                              fifo_tokens=0, seed=23, stats=True))
    assert r.ok, r.counterexample or r.kernel_error
    print(f"\n{queue}: most steps of one operation with 256 threads: {r.stats['max_steps_per_op']}")
    assert 0 < r.stats["max_steps_per_op"] < 100_000, r.stats
