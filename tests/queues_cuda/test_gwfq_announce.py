"""G-WFQ's announce word (queues_cuda/include/gq/wcq_ring.cuh): a slow-path owner that keeps losing
its SlowFAA CAS to the fast path's fetch-adds names itself, and every operation on the ring joins
its request. On by default on the GPU only; here the build defines it (GQ_WFQ_ANNOUNCE_AFTER=1:
announce after the first lost CAS) and the CPU checker runs the histories and the FIFO runs.

The help delay is 2^20, so the round-robin cursor never reaches a peer in these runs: every help
counted comes from the announce word. The control build (announce off) must count none."""

import queues_cuda.check as check
from queues_cuda.check import CheckConfig, run_check

ANNOUNCE = "GQ_WFQ_ANNOUNCE_AFTER"


def _checked(monkeypatch, announce_after: int, seed: int):
    plain = check.tuning_defines
    monkeypatch.setattr(check, "tuning_defines",
                        lambda *a, **k: plain(*a, **k) + (f"{ANNOUNCE}={announce_after}",))
    return run_check(CheckConfig(queue="gwfq", backend="cpu", capacities=(1, 2, 3), threads=48, ops=8,
                                 histories=60, fifo_tokens=4_000, seed=seed, patience=0, help_delay=1 << 20,
                                 stats=True))


def test_announced_requests_are_helped_and_linearizable(monkeypatch):
    r = _checked(monkeypatch, 1, seed=31)
    assert r.histories == 60
    assert r.not_linearizable == 0, r.counterexample
    assert r.unknown == 0, r.counterexample
    assert not r.kernel_error, r.kernel_error
    assert r.fifo.ok, r.fifo
    s = r.stats
    assert s["slow_path_entries"] > 0 and s["helps_given"] > 0 and s["completed_by_others"] > 0, s


def test_without_announce_the_cursor_alone_helps_nobody_here(monkeypatch):
    r = _checked(monkeypatch, 0, seed=31)
    assert r.ok, r.counterexample
    assert r.stats["slow_path_entries"] > 0 and r.stats["helps_given"] == 0, r.stats

