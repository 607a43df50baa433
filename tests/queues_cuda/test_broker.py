"""The Broker Queue (include/gq/broker.cuh), registered apart from the linearizable queues.

What is claimed and tested on the CPU runtime:
  * its shortest refuting history (queues_cuda/broker_history.py) is NOT linearizable, and
    without its EMPTY answer it is: the EMPTY decided by Count alone is what breaks it;
  * recorded histories: some are refuted (the refutation is real, not only on paper), while the
    same histories with their FULL and EMPTY answers removed are all linearizable, and the FIFO
    token run delivers every token once in per-producer order;
  * a planted fault in the ticket ring (pairs of tickets swapping slots) is caught by that
    successful-operations check, so the check can fail;
  * applications refuse it, `all` leaves it out, `gq queues check --queue broker` explains it and
    exits 0, and `gq bench queues --queue broker` labels its rows;
  * every build of it compiles for sm_90.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from click.testing import CliRunner

from queues_cuda import bench_queues as bq
from queues_cuda import broker_history, cpu_runtime
from queues_cuda.build import compile_sm90
from queues_cuda.check import CheckConfig, check_history, run_check, successful_only
from queues_cuda.errors import GQError, KernelError
from queues_cuda.history import DEQ
from queues_cuda.queues import NOT_LINEARIZABLE, QUEUES, queue_kind

BROKER = NOT_LINEARIZABLE["broker"]
ROUND_BUDGET_S = 90.0


@pytest.mark.parametrize("capacity", [2, 3, 1024, None])
def test_replayed_counterexample_is_not_linearizable(capacity):
    h = broker_history.counterexample()
    verdict, text = check_history(h, capacity, 10.0, "replay")
    assert verdict is False, text
    assert "dequeue() -> EMPTY" in text
    # The same operations without D2's EMPTY answer are linearizable (D1 after D3).
    keep = ~((h.op == DEQ) & ~h.ok)
    rest = type(h).from_columns(h.proc[keep], h.op[keep], h.value[keep], h.ok[keep], h.call[keep], h.end[keep])
    assert len(rest) == 4
    assert check_history(rest, capacity, 10.0, "replay without the EMPTY") == (True, "")


def test_successful_only_keeps_exactly_the_successful_operations():
    h = broker_history.counterexample()
    s = successful_only(h)
    assert len(s) == int(h.ok.sum()) == 4 and s.ok.all()
    assert np.array_equal(s.call, h.call[h.ok])


def test_recorded_histories_refuted_but_successful_operations_linearizable():
    """Rounds of 40 histories (capacities 1, 2, 3, 1024) until one is refuted; every round's
    histories of successful operations must be linearizable and its FIFO run must pass. The
    refutation rate measured here was 5 to 25 percent of histories, so a round without one is rare
    and a whole budget without one means the queue no longer behaves like the Broker Queue."""
    started, rounds, refuted = time.monotonic(), 0, 0
    while not refuted:
        r = run_check(CheckConfig(queue="broker", backend="cpu", capacities=(1, 2, 3, 1024), threads=64, ops=8,
                                  histories=40, fifo_tokens=20_000 if rounds == 0 else 0, seed=31 + rounds))
        rounds += 1
        assert not r.claims_linearizable
        assert r.histories == 40 and r.operations == 40 * 512
        assert r.successful_linearizable == 40, r.successful_counterexample
        assert not r.kernel_error, r.kernel_error
        if rounds == 1:
            assert r.fifo.tokens >= 20_000 and r.fifo.ok, r.fifo
        assert r.ok, r
        refuted = r.not_linearizable
        assert refuted or time.monotonic() - started < ROUND_BUDGET_S, \
            f"no broker history refuted in {rounds} rounds of 40"
    assert "no order of the operations explains the history" in r.counterexample


def test_planted_ticket_fault_is_caught():
    """Tickets 2k and 2k + 1 writing each other's slot (GQ_FAULT_BROKER_SWAP_PAIRS) deliver
    elements out of order; the histories of successful operations must show it. (The last of an
    odd number of enqueues leaves its partner's dequeuer waiting: such a history ends in the error
    flag instead and does not count.)"""
    defines = ("GQ_FAULT_BROKER_SWAP_PAIRS", "GQ_SPIN_BUDGET=(1u<<12)", "GQ_HOST_MIN_WAIT_NS=200000000ull")
    started, k = time.monotonic(), 0
    while True:
        mix = ("alternate", "random", "split")[k % 3]
        try:
            h = cpu_runtime.record_history(BROKER, 1024, 64, 8, mix, 50, 77 + k, defines)
        except KernelError:
            h = None
        if h is not None and check_history(successful_only(h), 1024, 20.0, f"fault history {k}")[0] is False:
            break
        k += 1
        assert time.monotonic() - started < ROUND_BUDGET_S, f"the planted fault survived {k} histories"


def test_several_queues_at_once():
    seen = cpu_runtime.run_multi_queue(BROKER, 3, threads=48, rounds=200)
    assert (seen == 1).all(), f"{int((seen != 1).sum())} values seen other than once"


def test_counter_build_counts_successful_operations():
    r = run_check(CheckConfig(queue="broker", backend="cpu", capacities=(1, 1024), threads=16, ops=8, histories=4,
                              fifo_tokens=0, seed=5, stats=True))
    assert r.ok, r.successful_counterexample or r.kernel_error
    assert 0 < r.stats["successful_ops"] <= 4 * 16 * 8, r.stats


def test_registered_apart_from_the_linearizable_queues():
    assert "broker" not in QUEUES and not BROKER.linearizable and BROKER.kind_id not in {q.kind_id for q in QUEUES.values()}
    with pytest.raises(GQError, match="--queue broker: not linearizable"):
        queue_kind("broker")  # what the applications (bfs, render) call
    assert queue_kind("broker", not_linearizable=True) is BROKER
    assert "broker" not in bq.parse_queues(()) and "broker" not in bq.parse_queues(("all",))
    assert bq.parse_queues(("broker",)) == ["broker"]


def test_check_command_explains_and_exits_0():
    from gq.queues_cli import queues

    result = CliRunner().invoke(queues, ["check", "--queue", "broker", "--backend", "cpu", "--histories", "0",
                                         "--fifo-tokens", "2000"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "none refuted" in out
    assert "broker: not linearizable (a property of the algorithm)" in out
    assert broker_history.WHY in out
    assert "FIFO per producer: 8,128 tokens, each once, in order" in out  # 2,000 at each of 4 capacities, rounded up
    assert "checked now (not linearizable)" in out and "dequeue() -> EMPTY" in out
    assert "no order of the operations explains the history" in out


def test_bench_rows_are_labelled():
    record = bq.run_bench("cpu", ["broker"], ["balanced"], [4], [50], 0.02, 0.005, runs=2)
    rows = record["rows"]
    assert rows and all(r["queue"] == "broker" and r["linearizable"] is False for r in rows)
    assert all(r["conserved"] for r in rows), rows
    lines = bq.table_lines(record)
    assert lines[1].startswith("broker* ")
    assert any(line.startswith("broker*: not linearizable") for line in lines)
    assert bq.queue_label("broker") == "broker (not linearizable)" and bq.queue_label("sfq") == "sfq"


@pytest.mark.parametrize("defines, kernel", [
    ((), "check"), (("GQ_FAULT_BROKER_SWAP_PAIRS",), "check"), (("GQ_QUEUE_STATS",), "check"), ((), "bench"),
])
def test_compiles_for_sm90(defines, kernel):
    path = bq.BENCH_KERNEL if kernel == "bench" else None
    compiler, size = compile_sm90(BROKER.kind_id, defines, *((path,) if path else ()))
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"
