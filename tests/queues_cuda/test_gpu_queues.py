"""The queues on the GPU: histories checked for linearizability at 512 to 2,048 threads, FIFO
conformance on more than 1e8 tokens per queue at 2^9 to 2^16 threads, and a planted fault that
only a real warp can show (the leader's broadcast skipped). The full 1,000 histories per queue are
recorded by tools/gpu_record_histories.py and checked off the GPU machine.

With $GQ_RESULTS_DIR set, the figures are written there as one JSON record per run
(tools/gpu-suite.sh does this on the H200 and the records are committed to benchmarks/results/).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from queues_cuda import cuda_runtime
from queues_cuda.check import CheckConfig, run_check, unproved_histories
from queues_cuda.fifo_conformance import check_tokens
from queues_cuda.provenance import provenance
from queues_cuda.queues import NOT_LINEARIZABLE, QUEUES

pytestmark = pytest.mark.gpu

CAPACITIES = (1, 2, 3, 64, 4096)
# (threads, operations per thread, histories), 1,024 to 2,048 operations each.
HISTORY_RUNS = ((512, 2, 20), (1024, 1, 20), (2048, 1, 20))
# (threads, roles, capacity, tokens): 1.02e8 tokens per queue.
FIFO_RUNS = (
    (2**9, "split", 1 << 20, 10_000_000),
    (2**12, "balanced", 1 << 20, 20_000_000),
    (2**14, "split", 1 << 20, 20_000_000),
    (2**16, "split", 1 << 20, 25_000_000),
    (2**16, "balanced", 1 << 20, 25_000_000),
    (2**12, "split", 64, 1_000_000),
)
RESULTS: dict[str, list] = {"histories": [], "fifo": [], "faults": [], "slow_path": [], "broker": []}


def record(section: str, row: dict) -> None:
    """Keep a result row, print it, and rewrite the JSON record at once: a run stopped by the
    device's time limit still leaves every figure measured so far."""
    RESULTS[section].append(row)
    print(f"\n[{section}] {row}", flush=True)
    out = os.environ.get("GQ_RESULTS_DIR")
    if out:
        path = Path(out) / "queue-check-gpu.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(provenance(extra_note="tests/queues_cuda/test_gpu_queues.py", **RESULTS),
                                   indent=2) + "\n")


def fifo_runs(name: str, kind, runs, blocking: bool, defines: tuple[str, ...] = ()) -> int:
    """Each (threads, roles, capacity, tokens) run of `runs` (half the threads producers in a split
    run, all in a balanced one; capacity None: every token's), its tokens checked and recorded; the
    tokens delivered in all."""
    total = 0
    for threads, roles, capacity, tokens in runs:
        producers = threads // 2 if roles == "split" else threads
        per_producer = -(-tokens // producers)
        capacity = capacity or producers * per_producer
        started = time.perf_counter()
        out, consumers, logged = cuda_runtime.run_fifo(kind, capacity, threads, roles, producers, per_producer, blocking,
                                                       defines)
        seconds = time.perf_counter() - started
        report = check_tokens(out, consumers, logged, producers, per_producer)
        record("fifo", {"queue": name, "threads": threads, "roles": roles, "capacity": capacity,
                        "blocking": blocking, "tokens": report.tokens, "logged": report.logged, "lost": report.lost,
                        "duplicated": report.duplicated, "order_violations": report.order_violations,
                        "out_of_range": report.out_of_range, "run_seconds_wall": round(seconds, 3)})
        assert report.ok, report
        total += report.tokens
        del out, consumers
    return total


@pytest.mark.parametrize("queue", list(QUEUES))
def test_histories_linearizable(queue):
    total = 0
    for threads, ops, n in HISTORY_RUNS:
        r = run_check(CheckConfig(queue=queue, backend="cuda", capacities=CAPACITIES, threads=threads, ops=ops,
                                  histories=n, fifo_tokens=0, seed=threads, timeout=60))
        record("histories", {"queue": queue, "threads": threads, "ops_per_thread": ops,
                                     "histories": r.histories, "operations": r.operations,
                                     "linearizable": r.linearizable, "not_linearizable": r.not_linearizable,
                                     "unknown": r.unknown, "seconds": round(r.seconds, 2),
                                     "capacities": list(CAPACITIES)})
        assert r.ok, r.counterexample or r.kernel_error
        total += r.histories
    assert total >= 60


@pytest.mark.parametrize("queue", list(QUEUES))
def test_fifo_conformance(queue):
    kind = QUEUES[queue]
    assert fifo_runs(queue, kind, FIFO_RUNS, kind.has_blocking) >= 100_000_000


ONE_LAP = ("GQ_SFQ_ONE_LAP=1",)
# FIFO runs of SFQ's one-lap view: a capacity of every token, so that no ticket leaves lap 0.
ONE_LAP_FIFO_RUNS = ((2**12, "split", None, 4_000_000), (2**16, "split", None, 8_000_000),
                     (2**16, "balanced", None, 8_000_000))


def test_sfq_one_lap_view():
    """SFQ's one-lap view (gq/sfq.cuh: SfqView<true>, the one the queue BFS drives), built as the
    kind's queue by the GQ_SFQ_ONE_LAP hook: the histories of test_histories_linearizable on a
    capacity no history fills twice, and FIFO runs through the blocking interface (a split run's
    odd producers in batches, its consumers through try_dequeue)."""
    for threads, ops, n in HISTORY_RUNS:
        r = run_check(CheckConfig(queue="sfq", backend="cuda", capacities=(4096,), threads=threads, ops=ops,
                                  histories=n, fifo_tokens=0, seed=threads + 1, timeout=60, hooks=ONE_LAP))
        record("histories", {"queue": "sfq one-lap", "threads": threads, "ops_per_thread": ops,
                             "histories": r.histories, "operations": r.operations, "linearizable": r.linearizable,
                             "not_linearizable": r.not_linearizable, "unknown": r.unknown, "capacities": [4096]})
        assert r.histories == n and r.ok, r.counterexample or r.kernel_error
    assert fifo_runs("sfq one-lap", QUEUES["sfq"], ONE_LAP_FIFO_RUNS, True, ONE_LAP) >= 20_000_000


@pytest.mark.parametrize("queue", list(QUEUES))
@pytest.mark.parametrize("queues", [2, 3, 32])
def test_several_queues_in_one_warp(queue, queues):
    """Lanes of one warp enqueue into different queues in the same instruction: warp-aggregated
    tickets must come from each lane's own queue (arch.cuh `peers`)."""
    seen = cuda_runtime.run_multi_queue(QUEUES[queue], queues, threads=16384, rounds=64)
    record("faults", {"queue": queue, "check": "several queues per warp", "queues": queues,
                      "values": int(seen.size), "seen_once": int((seen == 1).sum())})
    assert (seen == 1).all(), f"{int((seen != 1).sum())} values seen other than once"


@pytest.mark.parametrize("queues", [2, 3])
def test_several_ymc_queues_in_one_warp_on_a_small_pool(queues):
    """As above, for YMC on a pool of 2 cells a thread plus 4 a slot (GQ_YMC_CELLS_PER_THREAD=2):
    half of it open to tickets, so each queue's pool wraps about 16 times and its frontier is
    raised again and again while a warp's lanes wait on different queues. A scan whose lanes
    pooled the hazards of several queues (675a248) could raise a frontier past a hazard no lane
    read. Written for the GPU proof of the scan by queue and segment (ec1b895); passed on an
    H100 in run 359."""
    seen = cuda_runtime.run_multi_queue(QUEUES["ymc"], queues, threads=16384, rounds=64,
                                        defines=("GQ_YMC_CELLS_PER_THREAD=2",))
    assert (seen == 1).all(), f"{int((seen != 1).sum())} values seen other than once"


# (threads, operations per thread, hazards a scan segment): 2 and 8 segments.
YMC_SEGMENT_RUNS = ((64, 16, 32), (256, 8, 32))


@pytest.mark.parametrize("threads,ops,segment", YMC_SEGMENT_RUNS)
def test_ymc_histories_with_a_small_pool_and_scan_segments(threads, ops, segment):
    """The GPU twin of the CPU test of that name: YMC histories on the smallest pool the ticket
    gate allows (3 cells a thread plus 64), so the enqueue tickets wrap it, its hazards scanned in
    segments of 32 threads, so the frontier is the least of several segments' minima, raised by
    whichever warps wait. Alternating and random mixes (a split could queue more than the pool
    holds); every history linearizable against the unbounded FIFO."""
    defines = ("GQ_YMC_POOL_MIN=64", "GQ_YMC_CELLS_PER_THREAD=1", f"GQ_YMC_SCAN_SEGMENT={segment}")
    bad = unproved_histories(
        lambda capacity, mix, pct, seed: cuda_runtime.record_history(QUEUES["ymc"], capacity, threads, ops, mix, pct,
                                                                     seed, defines),
        20, (1, 3), [("alternate", 50), ("random", 50)], 11 * 1_000_003)
    record("histories", {"queue": "ymc", "threads": threads, "ops_per_thread": ops, "scan_segment": segment,
                         "pool_min": 64, "histories": 20, "not_linearizable_or_unknown": len(bad)})
    assert not bad, f"{len(bad)} of 20 histories not linearizable; first:\n{bad[0]}"


# (threads, roles, capacity, tokens) of SFQ's runs through its non-waiting interface: 4e6 tokens.
SFQ_NON_WAITING_RUNS = (
    (2**10, "split", 3, 500_000),
    (2**12, "split", 64, 1_000_000),
    (2**12, "balanced", 64, 1_000_000),
    (2**14, "balanced", 1 << 20, 1_500_000),
)


def test_sfq_non_waiting_fifo():
    """test_fifo_conformance drives SFQ through its blocking interface; this drives try_enqueue /
    try_dequeue (sfq.cuh: a CAS claim on Tail or Head after reading both), on small and large
    rings. Fewer tokens than the blocking runs: the CAS loop on one word serves about a million
    claims a second (run 347, H200: 4.0e6 tokens in 6.4 s of runs)."""
    assert fifo_runs("sfq", QUEUES["sfq"], SFQ_NON_WAITING_RUNS, False) >= 4_000_000


@pytest.mark.parametrize("queue", [q for q, kind in QUEUES.items() if kind.wait_free])
def test_forced_slow_path(queue):
    """Patience 0 and help delay 1 on a real warp: the slow path and helping run (the counters say
    how often, per successful operation, for the histories and the FIFO runs apart), every history
    stays linearizable, every token of the FIFO runs arrives once and in order.

    The shape is what runs 25-27 (benchmarks/results/README.md) measured. One operation per thread
    takes no slow path at all (1,024 threads: 0 entries); 8 operations at 256 threads do for G-WFQ
    (run 27: 0.10 entries and 0.12 helps per successful operation in the histories). YMC, whose
    dequeuers take no ticket on an empty queue, hardly leaves its fast path on the GPU: 0 entries
    in run 27's histories, 30 in its FIFO runs, and none at all once its frontier scan was quick
    (run 352). So YMC's builds here hold every eighth fast-path enqueue about 200 us between its
    ticket and its write (GQ_YMC_LATE_ENQUEUE_NS, ymc.cuh), longer than the dequeuer's spin on an
    unfilled cell (64 reads; 2 us was not: run 353), and the cell's dequeuer closes it first (run
    354: 1,578 entries in the histories, 362 in the FIFO runs). Whether a helper sees one of its
    requests is still up to the timing: on an H100 its 114 and 40 entries drew no help (runs 328,
    331), on the H200 98 drew 31 (run 329), so helps are required of G-WFQ only. The FIFO part is
    small, because with every operation on the slow path a small queue under many threads moves
    tokens slowly: G-WFQ at capacity 64 delivered 2,000 tokens in about 20 s at 1,024 threads (3
    slow-path entries per operation, each SlowFAA round's exact CAS racing the fast path's
    fetch-adds), and the earlier 2.5e5 tokens at 1,024 threads never finished."""
    hooks = ("GQ_YMC_LATE_ENQUEUE_NS=200000",) if queue == "ymc" else ()
    histories = run_check(CheckConfig(queue=queue, backend="cuda", capacities=(1, 3, 64, 4096), threads=256, ops=8,
                                      histories=40, fifo_tokens=0, seed=17, timeout=60,
                                      patience=0, help_delay=1, stats=True, hooks=hooks))
    fifo = run_check(CheckConfig(queue=queue, backend="cuda", capacities=(64, 4096), threads=256, histories=0,
                                 fifo_tokens=20_000, fifo_threads=256, seed=17, patience=0, help_delay=1, stats=True,
                                 hooks=hooks))
    for part, r in (("histories", histories), ("fifo", fifo)):
        record("slow_path", {"queue": queue, "patience": 0, "help_delay": 1, "part": part, "histories": r.histories,
                             "linearizable": r.linearizable, "not_linearizable": r.not_linearizable,
                             "unknown": r.unknown, "fifo": vars(r.fifo), "stats": r.stats, "per_op": r.per_op(),
                             "kernel_error": r.kernel_error, "seconds": round(r.seconds, 2)})
        assert r.ok, r.counterexample or r.kernel_error or r.fifo
    assert histories.histories == 40 and fifo.fifo.tokens >= 20_000
    for counter in ("slow_path_entries", "helps_given") if queue == "gwfq" else ("slow_path_entries",):
        assert histories.stats[counter] + fifo.stats[counter] > 0, (histories.stats, fifo.stats)


@pytest.mark.parametrize("queue", [q for q, kind in QUEUES.items() if kind.wait_free])
def test_default_slow_path_statistics(queue):
    """The default build's slow-path counters under the FIFO run's contention (2^14 threads, a
    64-slot queue), for the record: how often patience 16 runs out on a real GPU."""
    r = run_check(CheckConfig(queue=queue, backend="cuda", capacities=(64, 1 << 20), threads=1024, ops=1,
                              histories=0, fifo_tokens=4_000_000, fifo_threads=1 << 14, seed=19, stats=True))
    record("slow_path", {"queue": queue, "patience": "default", "fifo": vars(r.fifo), "stats": r.stats,
                         "per_op": r.per_op(), "kernel_error": r.kernel_error, "seconds": round(r.seconds, 2)})
    assert r.ok, r.kernel_error or r.fifo


def test_planted_broadcast_fault_is_caught():
    """Lanes that guess their ticket instead of taking the leader's broadcast share tickets; a
    real warp shows it (the CPU runtime's one-lane warp cannot)."""
    r = run_check(CheckConfig(queue="glfq", backend="cuda", capacities=(64,), threads=1024, ops=1, histories=20,
                              fifo_tokens=1_000_000, fifo_threads=4096, fault="no-broadcast"))
    record("faults", {"queue": "glfq", "fault": "no-broadcast", "caught": not r.ok,
                              "not_linearizable": r.not_linearizable, "fifo": vars(r.fifo),
                              "kernel_error": r.kernel_error})
    assert not r.ok


# The Broker Queue: not linearizable (queues.NOT_LINEARIZABLE), so not among the queues above. On
# the GPU, as on the CPU (tests/queues_cuda/test_broker.py), it is held to what it keeps: every
# token once and in per-producer order, and its histories' successful operations linearizable.
# How many whole histories the checker refutes is recorded, not asserted: a refutation needs a
# dequeuer (enqueuer) delayed between its reservation and its ticket, which a GPU may not show.
BROKER_FIFO_RUNS = (
    (2**12, "balanced", 1 << 20, 4_000_000),
    (2**14, "split", 1 << 20, 4_000_000),
    (2**16, "split", 1 << 20, 8_000_000),
    (2**12, "split", 64, 1_000_000),
)


def test_broker_fifo_tokens():
    assert fifo_runs("broker", NOT_LINEARIZABLE["broker"], BROKER_FIFO_RUNS, False) >= 17_000_000


def test_broker_refutation_recorded():
    r = run_check(CheckConfig(queue="broker", backend="cuda", capacities=CAPACITIES, threads=1024, ops=1,
                              histories=40, fifo_tokens=0, seed=1024, timeout=60))
    record("broker", {"queue": "broker", "threads": 1024, "ops_per_thread": 1, "histories": r.histories,
                      "operations": r.operations, "refuted": r.not_linearizable, "unknown": r.unknown,
                      "successful_only_linearizable": r.successful_linearizable,
                      "successful_only_not_linearizable": r.successful_not_linearizable,
                      "successful_only_unknown": r.successful_unknown, "kernel_error": r.kernel_error,
                      "first_refutation": r.counterexample.splitlines()[0] if r.counterexample else None,
                      "seconds": round(r.seconds, 2), "capacities": list(CAPACITIES)})
    assert not r.kernel_error, r.kernel_error
    assert r.successful_linearizable == r.histories == 40, r.successful_counterexample
