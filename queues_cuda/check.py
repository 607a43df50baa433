"""`gq queues check`: record concurrent histories on a backend, check each for linearizability
against the strict bounded FIFO model, and run the exactly-once FIFO conformance check.

Histories rotate over the requested capacities and operation mixes (random, producer/consumer
splits of 25/50/75 percent, strict alternation), so one run covers empty, nominal and full
regimes. The report counts everything and keeps the first counter-example.

A queue kind that does not claim linearizability (queues.NOT_LINEARIZABLE: the Broker Queue) is
recorded and checked the same way, and its refuted histories are reported as expected; it is held
to what its algorithm keeps: the same histories with their FULL and EMPTY answers removed (its
successful operations alone) must be linearizable, and the FIFO token run must pass.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import linearizability
from .backend import resolve
from .errors import GQError, KernelError
from .fifo_checker import check_fifo
from .fifo_conformance import FifoReport, check_tokens
from .fifo_model import BoundedFifo
from .history import History, validate
from .queues import QueueKind, fault_define, queue_kind, tuning_defines

# The slow-path counters of include/gq/queue_stats.cuh, in its order.
STAT_NAMES = ("slow_path_entries", "helps_given", "completed_by_others", "successful_ops", "max_steps_per_op")
MIX_ROTATION = (("random", 50), ("split", 25), ("split", 50), ("split", 75), ("alternate", 50))
SMALL_QUEUE_TOKENS = 50_000


@dataclass
class CheckConfig:
    queue: str = "glfq"
    backend: str = "auto"
    capacities: tuple[int, ...] = (1, 2, 3, 1024)
    threads: int = 64
    ops: int = 16
    histories: int = 200
    fifo_tokens: int = 1_000_000
    fifo_threads: int | None = None
    seed: int = 1
    timeout: float = 60.0
    fault: str | None = None
    save_dir: Path | None = None
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    # Wait-free queues only: a build with this patience / help delay, and its slow-path counters.
    patience: int | None = None
    help_delay: int | None = None
    stats: bool = False
    # Test hooks: more defines for the build (timing windows such as GQ_YMC_LATE_ENQUEUE_NS).
    hooks: tuple[str, ...] = ()

    def validate(self) -> None:
        kind = queue_kind(self.queue, not_linearizable=True)
        resolve(self.backend)
        fault_define(self.fault, self.queue)
        tuning_defines(self.queue, self.patience, self.help_delay, self.stats)
        if self.threads < 1:
            raise GQError(f"--threads must be at least 1, got {self.threads}")
        if self.ops < 1:
            raise GQError(f"--ops must be at least 1, got {self.ops}")
        if self.histories < 0:
            raise GQError(f"--histories must be 0 or more, got {self.histories}")
        if self.fifo_tokens < 0:
            raise GQError(f"--fifo-tokens must be 0 or more, got {self.fifo_tokens}")
        if self.fifo_threads is not None and self.fifo_threads < 2:
            raise GQError(f"--fifo-threads must be at least 2 (a producer and a consumer), got {self.fifo_threads}")
        for c in self.capacities:
            if not 1 <= c <= kind.max_capacity:
                raise GQError(f"--capacity must be between 1 and {kind.max_capacity} for {self.queue}, got {c}")
        most = max(self.threads, self.fifo_threads or 0)
        if kind.max_threads is not None and most > kind.max_threads:
            raise GQError(f"--threads must be at most {kind.max_threads} for {self.queue} (its thread records), "
                          f"got {most}")
        if self.threads * self.ops >= 2**32 - 2:
            raise GQError("--threads x --ops must stay below 2^32 - 2 (values are 32-bit)")


@dataclass
class CheckReport:
    queue: str
    backend: str
    histories: int = 0
    operations: int = 0
    linearizable: int = 0
    not_linearizable: int = 0
    unknown: int = 0
    fifo: FifoReport = field(default_factory=FifoReport)
    seconds: float = 0.0
    counterexample: str = ""
    kernel_error: str = ""  # a thread program gave up (a hang caught by its spin budget)
    # With --stats: the slow-path counters summed over every run (queue_stats.cuh).
    stats: dict | None = None
    # False for a kind of queues.NOT_LINEARIZABLE: refuted histories are expected, and the
    # verdicts that decide are those on its histories of successful operations only.
    claims_linearizable: bool = True
    successful_linearizable: int = 0
    successful_not_linearizable: int = 0
    successful_unknown: int = 0
    successful_counterexample: str = ""

    def per_op(self) -> dict | None:
        """The counters per successful operation (DESIGN.md: how a queue's cost is reported)."""
        if self.stats is None:
            return None
        ok = max(self.stats["successful_ops"], 1)
        return {k: v / ok for k, v in self.stats.items() if k not in ("successful_ops", "max_steps_per_op")}

    @property
    def ok(self) -> bool:
        """Everything the queue kind claims holds: for a linearizable kind every history, for
        the others every history of successful operations only; the FIFO run; no give-up."""
        if self.claims_linearizable:
            histories_ok = self.not_linearizable == 0 and self.unknown == 0
        else:
            histories_ok = self.successful_not_linearizable == 0 and self.successful_unknown == 0
        return histories_ok and not self.kernel_error and (self.fifo.tokens == 0 or self.fifo.ok)


def runtime(backend: str):
    if backend == "cuda":
        from . import cuda_runtime
        return cuda_runtime
    from . import cpu_runtime
    return cpu_runtime


def describe_counterexample(h: History, verdict: linearizability.Verdict, model: BoundedFifo, tag: str) -> str:
    lines = [f"counter-example ({tag}): {verdict.reason}"]
    if verdict.prefix:
        lines.append(f"  longest linearization found: {len(verdict.prefix)} of {len(h)} operations; last ones:")
        lines += ["    " + h.describe(i) for i in verdict.prefix[-4:]]
    lines.append(f"  queue then: {model.describe(verdict.prefix_state if verdict.prefix else model.init())}")
    placed = set(verdict.prefix)
    window = [i for i in verdict.window if i not in placed]
    lines.append(f"  operations that could not be placed next ({len(window)}):")
    lines += ["    " + h.describe(i) for i in window[:24]]
    if len(window) > 24:
        lines.append(f"    ... and {len(window) - 24} more")
    return "\n".join(lines)


def check_history(h: History, capacity: int | None, timeout: float, tag: str,
                  engine: str = "auto") -> tuple[bool | None, str]:
    """Check one history; returns (verdict, counter-example text or '')."""
    validate(h, tag)
    model = BoundedFifo(capacity)
    verdict = check_fifo(h, capacity, timeout, engine)
    if verdict.linearizable is False:
        return False, describe_counterexample(h, verdict, model, tag)
    if verdict.linearizable is None:
        return None, f"{tag}: {verdict.reason} (verdict unknown)"
    return True, ""


def unproved_histories(record, runs: int, capacities, mixes, seed: int) -> list[str]:
    """Record `runs` histories with `record(capacity, mix, pct, seed)`, cycling through
    capacities x mixes ((mix, pct) pairs) with seeds seed, seed + 1, ..., check each against the
    unbounded FIFO (for queues that never answer FULL, as YMC) and return the text of every one
    not proved linearizable: empty when all are."""
    combos = itertools.cycle(itertools.product(capacities, mixes))
    bad = []
    for k in range(runs):
        capacity, (mix, pct) = next(combos)
        verdict, text = check_history(record(capacity, mix, pct, seed + k), None, 60.0,
                                      f"history {k + 1} ({mix} {pct}%)")
        if verdict is not True:
            bad.append(text)
    return bad


def successful_only(h: History) -> History:
    """The history without its FULL and EMPTY answers: the successful operations alone."""
    keep = h.ok
    return History.from_columns(h.proc[keep], h.op[keep], h.value[keep], h.ok[keep], h.call[keep], h.end[keep])


def _check_job(job) -> tuple[bool | None, str]:
    if len(job[0]) == 0:
        return True, ""  # nothing succeeded: the empty history
    return check_history(*job)


def _check_all(jobs, workers: int):
    """Verdicts in order; histories are independent, so several processes may share the work."""
    if workers <= 1 or len(jobs) < 2:
        yield from map(_check_job, jobs)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_check_job, jobs, chunksize=4)


def run_check(cfg: CheckConfig, progress=None) -> CheckReport:
    """Run the whole check; `progress(n)` is called after each unit of work (a history, a FIFO run).

    A queue whose thread program gives up (its spin budget ran out: a lost element, a corrupted
    turn) fails the check with the kernel's message instead of stopping the command.
    """
    cfg.validate()
    report = CheckReport(cfg.queue, resolve(cfg.backend),
                         claims_linearizable=queue_kind(cfg.queue, not_linearizable=True).linearizable)
    started = time.perf_counter()
    try:
        _run(cfg, report, progress)
    except KernelError as exc:
        report.kernel_error = str(exc)
    report.seconds = time.perf_counter() - started
    return report


def _run(cfg: CheckConfig, report: CheckReport, progress) -> None:
    kind: QueueKind = queue_kind(cfg.queue, not_linearizable=True)
    define = fault_define(cfg.fault, cfg.queue)
    # A planted fault has to be caught, not waited out: its build gives up a claim loop after 2^20
    # retries instead of 2^28 (minutes on a GPU whose tickets the fault has corrupted).
    defines = (define, "GQ_CLAIM_BUDGET=(1u<<20)") if define else ()
    defines += tuning_defines(cfg.queue, cfg.patience, cfg.help_delay, cfg.stats) + cfg.hooks
    counters = np.zeros(len(STAT_NAMES), np.uint64) if cfg.stats else None
    # An unbounded queue (YMC) is checked against the unbounded FIFO: it may never answer FULL.
    model_capacity = (lambda c: c) if kind.bounded else (lambda c: None)
    rt = runtime(report.backend)
    if cfg.save_dir is not None:
        cfg.save_dir.mkdir(parents=True, exist_ok=True)

    combos = itertools.cycle(itertools.product(cfg.capacities, MIX_ROTATION))
    jobs = []
    for k in range(cfg.histories):
        capacity, (mix, pct) = next(combos)
        h = rt.record_history(kind, capacity, cfg.threads, cfg.ops, mix, pct, cfg.seed * 1_000_003 + k, defines,
                              stats=counters)
        tag = f"history {k + 1} (capacity {capacity}, mix {mix}{'' if mix != 'split' else f' {pct}%'})"
        if cfg.save_dir is not None:
            h.write_jsonl(cfg.save_dir / f"h{k + 1:04d}.jsonl")
        jobs.append((h, model_capacity(capacity), cfg.timeout, tag))
        if not kind.linearizable:
            jobs.append((successful_only(h), model_capacity(capacity), cfg.timeout,
                         f"{tag}, successful operations only"))
    per_history = 1 if kind.linearizable else 2
    for k, (verdict, text) in enumerate(_check_all(jobs, cfg.workers)):
        if k % per_history == 0:
            report.histories += 1
            report.operations += len(jobs[k][0])
            _count(report, "", verdict, text)
            if progress:
                progress(1)
        else:
            _count(report, "successful_", verdict, text)

    if cfg.fifo_tokens:
        threads = cfg.fifo_threads or max(cfg.threads, 2)
        largest = max(cfg.capacities)
        for capacity, roles in zip(sorted(set(cfg.capacities)), itertools.cycle(("split", "balanced"))):
            # Tiny queues move tokens a hundred times slower (every hand-over waits for a partner):
            # they get a short run, the largest capacity the full count.
            tokens = cfg.fifo_tokens if capacity == largest else min(cfg.fifo_tokens, SMALL_QUEUE_TOKENS)
            producers = threads // 2 if roles == "split" else threads
            per_producer = max(1, -(-tokens // producers))
            out, consumers, logged = rt.run_fifo(kind, capacity, threads, roles, producers, per_producer,
                                                 kind.has_blocking, defines, stats=counters)
            report.fifo += check_tokens(out, consumers, logged, producers, per_producer)
            if progress:
                progress(1)
    if counters is not None:
        report.stats = dict(zip(STAT_NAMES, (int(x) for x in counters)))


def _count(report: CheckReport, prefix: str, verdict: bool | None, text: str) -> None:
    """Add one verdict to the report's counts (prefix "": whole histories; "successful_": their
    successful operations only) and keep the first counter-example."""
    field = "linearizable" if verdict is True else "not_linearizable" if verdict is False else "unknown"
    setattr(report, prefix + field, getattr(report, prefix + field) + 1)
    if text and not getattr(report, prefix + "counterexample"):
        setattr(report, prefix + "counterexample", text)


def check_file(path: Path, capacity: int | None, timeout: float) -> CheckReport:
    """Check a history recorded anywhere (`gq queues check --from-file`)."""
    h = History.read_jsonl(path)
    if capacity is not None and capacity < 1:
        raise GQError(f"--capacity must be at least 1, got {capacity}")
    if capacity is None and not bool((h.op == 0).all() or h.ok[h.op == 0].all()):
        raise GQError(f"{path}: the history has failed (FULL) enqueues; give the queue's --capacity")
    report = CheckReport(queue=Path(path).name, backend="file")
    started = time.perf_counter()
    verdict, text = check_history(h, capacity, timeout, str(path))
    report.histories, report.operations = 1, len(h)
    report.linearizable = int(verdict is True)
    report.not_linearizable = int(verdict is False)
    report.unknown = int(verdict is None)
    report.counterexample = text
    report.seconds = time.perf_counter() - started
    return report
