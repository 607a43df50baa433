"""Fixed-duration queue micro-benchmarks (seed 001 Sec. V-A, Fig. 4): successful operations per
second of every queue, and of the unsafe ideal ring (the ceiling), against the thread count.

Three layers, as elsewhere in the project: ``run_bench`` (validated settings in, one JSON record
out), ``run_point`` (one queue, kernel, thread count: ``runs`` runs and their median), and the two
launchers (``_CpuBench``: host/bench_runtime.cpp on OS threads; ``_CudaBench``:
kernels/queue_bench.cu through CuPy). The thread program is include/gq/queue_bench.cuh on both.

A run's clock is the device's own (globaltimer on the GPU, CLOCK_MONOTONIC on the host): the
kernel measures its window itself, so launch and compile never count. Each run:
  * initialises a fresh queue, runs warm-up + window, reads the counts;
  * is a stall when its span (first thread start to last completion, on that clock) is far over
    its budget (``is_stall``): its figure is not reported;
  * drains the queue afterwards and checks conservation: successful enqueues over the whole run
    equal successful dequeues plus what the drain took out (the ideal ring has no such law).
Counter runs (``stats``) are separate builds and separate runs, so counters never slow a timed run.

Polite polling (``poll_backoff_ns`` > 0) is a separate build too (GQ_BENCH_POLL_BACKOFF_NS): the
split kernel's threads back off after an EMPTY or FULL answer, doubling from 32 ns up to that cap
(queue_bench.cuh says why). Its split rows carry ``poll_backoff_ns``; rows of the seed's kernel,
which polls back to back, carry no such key. The balanced kernel is the same in both builds.

Persistent kernels need every thread resident (DESIGN.md). On the GPU a thread count above what
one build can keep resident is first retried with launch bounds asking for more blocks per SM
(GQ_BENCH_MIN_BLOCKS: fewer registers per thread); when even that cannot hold it, the run is
capped at the resident count and the row says so (``capped``, ``threads_run``).
"""

from __future__ import annotations

import math
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import hw_counters as hw
from .build import (
    HOST_DIR,
    KERNEL_DIR,
    LIBRARY_FLAGS,
    compile_library,
    cuda_module,
    defines_for,
)
from .errors import GQError, raise_if_flagged
from .provenance import provenance
from .queues import NOT_LINEARIZABLE, QUEUES, STATS_DEFINE, QueueKind

IDEAL = QueueKind("ideal", 0, "ideal ring (unsafe ceiling: ticket FAA + slot exchange)", "ideal_ring.cuh",
                  1 << 31, False, bounded=False)
BENCH_QUEUES: dict[str, QueueKind] = {**QUEUES, "ideal": IDEAL}
# Measured only when named, never in `all` or the default: the project's rule is that a queue
# passes the linearizability check before it is benchmarked, and these do not (queues.py). Their
# rows carry linearizable false and their table and chart labels say so.
BENCH_BY_NAME: dict[str, QueueKind] = {**BENCH_QUEUES, **NOT_LINEARIZABLE}
KERNELS = ("balanced", "split")
KERNEL_IDS = {"balanced": 0, "split": 1}
BLOCK = 256
BENCH_KERNEL = KERNEL_DIR / "queue_bench.cu"
BENCH_HOST = HOST_DIR / "bench_runtime.cpp"
# Counter words of include/gq/queue_bench.cuh (BenchWord).
(ENQ_OK, ENQ_FULL, DEQ_OK, DEQ_EMPTY, ALL_ENQ, ALL_DEQ, START_NS, LAST_NS, PRODUCERS_LEFT,
 PRODUCERS, WORDS) = range(11)
CPU_MAX_THREADS = 1024
MAX_SECONDS = 60.0
# Lanes that share a role in the split kernel (kBenchRoleLanes): a warp on the GPU, a thread on the host.
ROLE_LANES = {"cuda": 32, "cpu": 1}
# A stall: the span is over STALL_FACTOR x the budget plus the backend's slack (the host's
# threads share few cores and can be kept off them for tens of milliseconds).
STALL_FACTOR = 2.0
STALL_SLACK_S = {"cuda": 0.005, "cpu": 0.25}
MIN_CAPACITY = 4096
# queue_stats.cuh's stat_sum_all, in order (max_steps is a maximum, the rest sums).
STATS_WORDS = ("slow", "helps", "completed", "ok", "max_steps", "retries", "cas_fails", "blind")
STATS_FIELDS = ("slow_per_op", "helps_per_op", "completed_per_op", "retries_per_op", "cas_fails_per_op",
                "blind_per_op")
# Polite polling's cap (queue_bench.cuh): 0 is the seed's kernel; at most about the longest sleep
# __nanosleep grants (a millisecond), and a run's window is far longer than that.
POLL_DEFINE = "GQ_BENCH_POLL_BACKOFF_NS"
MAX_POLL_BACKOFF_NS = 1_000_000


# ------------------------------------------------------------------------------------ parsing

_POWER = re.compile(r"^\s*(\d+)\s*\^\s*(\d+)\s*$")


def _number(text: str, option: str) -> int:
    m = _POWER.match(text)
    try:
        value = int(m.group(1)) ** int(m.group(2)) if m else int(text.strip())
    except ValueError:
        raise GQError(f"{option}: expected an integer or BASE^EXP, got {text.strip()!r}") from None
    if value < 1:
        raise GQError(f"{option}: values must be at least 1, got {text.strip()!r}")
    return value


def parse_threads(text: str, option: str = "--threads") -> list[int]:
    """``2^9..2^18`` (every power of two from one end to the other), ``512,1024``, or a mix
    (``2^9..2^12,3000``); sorted, without repeats."""
    out: set[int] = set()
    for item in (p for p in text.split(",")):
        if not item.strip():
            raise GQError(f"{option}: empty item in {text!r}")
        lo_text, sep, hi_text = item.partition("..")
        if not sep:
            out.add(_number(item, option))
            continue
        lo, hi = _number(lo_text, option), _number(hi_text, option)
        if lo > hi or lo & (lo - 1) or hi & (hi - 1):
            raise GQError(f"{option}: a range runs from a power of two up to a larger one (2^9..2^18), got {item.strip()!r}")
        out.update(1 << k for k in range(lo.bit_length() - 1, hi.bit_length()))
    return sorted(out)


def parse_producers(text: str) -> list[int]:
    """Producer percentages of the split kernel, each 1..99."""
    out = []
    for item in text.split(","):
        try:
            pct = int(item.strip())
        except ValueError:
            raise GQError(f"--producers: expected percentages like 25,50,75, got {item.strip()!r}") from None
        if not 1 <= pct <= 99:
            raise GQError(f"--producers: a percentage must be between 1 and 99, got {pct}")
        out.append(pct)
    return sorted(set(out))


def parse_queues(texts) -> list[str]:
    """Queue names (repeatable, or comma-separated); ``all`` is every linearizable queue plus the
    ideal ring; a queue of NOT_LINEARIZABLE only by its name."""
    names: list[str] = []
    for text in texts or ("all",):
        for name in (t.strip() for t in text.split(",")):
            if name == "all":
                names.extend(BENCH_QUEUES)
            elif name in BENCH_BY_NAME:
                names.append(name)
            else:
                raise GQError(f"--queue: unknown queue {name!r}; allowed: all, {', '.join(BENCH_BY_NAME)}")
    return list(dict.fromkeys(names))


def parse_kernels(text: str) -> list[str]:
    if text == "both":
        return list(KERNELS)
    if text not in KERNELS:
        raise GQError(f"--kernel: expected balanced, split or both, got {text!r}")
    return [text]


# ------------------------------------------------------------------------------- the rules


def is_stall(span_s: float, budget_s: float, backend: str) -> bool:
    """A run whose span (first start to last completion on the run's clock) is far over its
    budget (warm-up + window): some operation took that long, or some thread began late."""
    return span_s > STALL_FACTOR * budget_s + STALL_SLACK_S[backend]


def producer_threads(nthreads: int, pct: int, lanes: int) -> int:
    """How many threads produce in a split run (queue_bench.cuh: is_producer of the role unit,
    tid / lanes)."""
    units = np.arange(nthreads, dtype=np.int64) // lanes
    return int(((units + 1) * pct // 100 > units * pct // 100).sum())


def default_capacity(threads: int) -> int:
    """Room for every thread's element (a balanced run never meets FULL), at least MIN_CAPACITY."""
    return max(threads, MIN_CAPACITY)


# ------------------------------------------------------------------------------- launchers


def most(counts: np.ndarray) -> int:
    """The drain's bound: one more than the run can have left behind, so a surplus shows."""
    return int(counts[ALL_ENQ]) - min(int(counts[ALL_DEQ]), int(counts[ALL_ENQ])) + 1


@dataclass
class RunCounts:
    counts: np.ndarray      # WORDS uint64 (queue_bench.cuh)
    drained: int | None     # elements the drain took out; None when not drained
    event_s: float | None   # CUDA-event time of the kernel (GPU only)
    stats: np.ndarray | None = None


class _CpuBench:
    name = "cpu"

    def __init__(self, kind: QueueKind, defines: tuple[str, ...], poll_backoff_ns: int = 0):
        import ctypes

        flags = LIBRARY_FLAGS + ("-pthread",) + defines_for(kind.kind_id, defines)
        lib = ctypes.CDLL(str(compile_library(BENCH_HOST, flags, "libgq_bench")))
        u32, u64, p = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
        lib.gq_bench_words.restype, lib.gq_bench_words.argtypes = u64, [u64, u64]
        lib.gq_bench_init.restype, lib.gq_bench_init.argtypes = None, [p, u64, u64]
        lib.gq_bench.restype = u32
        lib.gq_bench.argtypes = [p, u64, p, u32, u32, u32, u64, u64, p]
        lib.gq_bench_drain.restype, lib.gq_bench_drain.argtypes = u32, [p, u64, u32, u64, p, p]
        lib.gq_bench_stats.restype, lib.gq_bench_stats.argtypes = None, [p, u64, u64, p]
        self.lib, self.kind, self.poll_backoff_ns = lib, kind, poll_backoff_ns

    def resident(self, threads: int) -> tuple[int, int]:
        return threads, 1

    def run(self, kernel: str, threads: int, pct: int, warmup_ns: int, window_ns: int, capacity: int,
            producers: int, drain: bool, stats: bool) -> RunCounts:
        lib, ptr = self.lib, (lambda a: a.ctypes.data)
        buf = np.zeros(int(lib.gq_bench_words(capacity, threads)), np.uint64)
        lib.gq_bench_init(ptr(buf), capacity, threads)
        counts, err = np.zeros(WORDS, np.uint64), np.zeros(4, np.uint32)
        counts[PRODUCERS_LEFT] = producers
        lib.gq_bench(ptr(buf), capacity, ptr(counts), KERNEL_IDS[kernel], threads, pct, warmup_ns, window_ns, ptr(err))
        raise_if_flagged(err, f"gq_bench[cpu, {self.kind.name}]", f"{kernel}, {threads} threads")
        drained = None
        if drain:
            out = np.zeros(1, np.uint64)
            lib.gq_bench_drain(ptr(buf), capacity, threads, most(counts), ptr(out), ptr(err))
            raise_if_flagged(err, f"gq_bench_drain[cpu, {self.kind.name}]", f"{threads} threads")
            drained = int(out[0])
        st = None
        if stats:
            st = np.zeros(len(STATS_WORDS), np.uint64)
            lib.gq_bench_stats(ptr(buf), capacity, threads, ptr(st))
        return RunCounts(counts, drained, None, st)


class _CudaBench:
    name = "cuda"

    def __init__(self, kind: QueueKind, defines: tuple[str, ...], poll_backoff_ns: int = 0):
        self.kind, self.defines, self.poll_backoff_ns = kind, defines, poll_backoff_ns
        self._modules: dict[int, object] = {}

    def module(self, min_blocks: int):
        if min_blocks not in self._modules:
            extra = self.defines + ((f"GQ_BENCH_MIN_BLOCKS={min_blocks}",) if min_blocks > 1 else ())
            self._modules[min_blocks] = cuda_module(self.kind.kind_id, extra, path=BENCH_KERNEL)
        return self._modules[min_blocks]

    def resident(self, threads: int) -> tuple[int, int]:
        """(threads that will run, blocks per SM the build asked for): the request when it can be
        resident, else the most that can."""
        import cupy

        from .cuda_runtime import resident_threads

        limit = resident_threads(self.module(1).get_function("gq_bench"))
        if threads <= limit:
            return threads, 1
        dev = cupy.cuda.Device()
        sms = dev.attributes["MultiProcessorCount"]
        most = dev.attributes["MaxThreadsPerMultiProcessor"] // BLOCK
        blocks = -(-threads // BLOCK)
        want = min(most, -(-blocks // sms))
        limit = resident_threads(self.module(want).get_function("gq_bench"))
        return min(threads, limit), want

    def run(self, kernel: str, threads: int, pct: int, warmup_ns: int, window_ns: int, capacity: int,
            producers: int, drain: bool, stats: bool, min_blocks: int = 1) -> RunCounts:
        import cupy

        mod = self.module(min_blocks)
        u32, u64 = np.uint32, np.uint64
        words_out = cupy.zeros(1, cupy.uint64)
        mod.get_function("gq_bench_words")((1,), (1,), (u64(capacity), u64(threads), words_out))
        words = int(words_out.get()[0])
        buf = cupy.empty(words, cupy.uint64)
        mod.get_function("gq_bench_init")((min(-(-words // BLOCK), 65535),), (BLOCK,),
                                          (buf, u64(capacity), u64(threads), u64(words)))
        host_counts = np.zeros(WORDS, np.uint64)
        host_counts[PRODUCERS_LEFT] = producers
        counts, err = cupy.asarray(host_counts), cupy.zeros(4, cupy.uint32)
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        mod.get_function("gq_bench")((-(-threads // BLOCK),), (BLOCK,),
                                     (buf, u64(capacity), counts, u32(KERNEL_IDS[kernel]), u32(threads), u32(pct),
                                      u64(warmup_ns), u64(window_ns), err))
        stop.record()
        stop.synchronize()
        event_s = cupy.cuda.get_elapsed_time(start, stop) / 1e3
        raise_if_flagged(err.get(), f"gq_bench[cuda, {self.kind.name}]", f"{kernel}, {threads} threads")
        host = counts.get()
        drained = None
        if drain:
            out = cupy.zeros(1, cupy.uint64)
            drainers = min(threads, 4096)
            mod.get_function("gq_bench_drain")((-(-drainers // BLOCK),), (BLOCK,),
                                               (buf, u64(capacity), u32(threads), u32(drainers), u64(most(host)), out, err))
            raise_if_flagged(err.get(), f"gq_bench_drain[cuda, {self.kind.name}]", f"{threads} threads")
            drained = int(out.get()[0])
        st = None
        if stats:
            out = cupy.zeros(len(STATS_WORDS), cupy.uint64)
            mod.get_function("gq_bench_stats")((1,), (1,), (buf, u64(capacity), u64(threads), out))
            st = out.get()
        return RunCounts(host, drained, event_s, st)


def poll_defines(poll_backoff_ns: int) -> tuple[str, ...]:
    """The build's define for polite polling; none for the seed's kernel (its build is unchanged)."""
    return (f"{POLL_DEFINE}={poll_backoff_ns}",) if poll_backoff_ns else ()


def launcher(backend: str, kind: QueueKind, stats: bool = False, poll_backoff_ns: int = 0):
    defines = ((STATS_DEFINE,) if stats else ()) + poll_defines(poll_backoff_ns)
    cls = _CudaBench if backend == "cuda" else _CpuBench
    return cls(kind, defines, poll_backoff_ns)


def poll_tag(bench, kernel: str) -> dict:
    """What a row adds for polite polling: the cap, on split rows of such a build; else nothing."""
    ns = getattr(bench, "poll_backoff_ns", 0)
    return {"poll_backoff_ns": ns} if ns and kernel == "split" else {}


# ------------------------------------------------------------------------------- measuring


def summarize_run(c: RunCounts, budget_s: float, window_s: float, backend: str, ideal: bool) -> dict:
    """One run's figures from its counts: throughput, the outcome counts, the span and the
    stall flag, and conservation (after the drain)."""
    w = c.counts
    span_s = (int(w[LAST_NS]) - int(w[START_NS])) / 1e9
    ok = int(w[ENQ_OK]) + int(w[DEQ_OK])
    stall = is_stall(span_s, budget_s, backend)
    run = {
        "ops_per_s": None if stall else ok / window_s,
        "enq_ok": int(w[ENQ_OK]), "enq_full": int(w[ENQ_FULL]),
        "deq_ok": int(w[DEQ_OK]), "deq_empty": int(w[DEQ_EMPTY]),
        "all_enq_ok": int(w[ALL_ENQ]), "all_deq_ok": int(w[ALL_DEQ]),
        "producers": int(w[PRODUCERS]),
        "span_s": span_s, "stall": stall,
    }
    if c.event_s is not None:
        run["event_s"] = c.event_s
    if c.drained is not None:
        run["drained"] = c.drained
        run["conserved"] = None if ideal else run["all_enq_ok"] == run["all_deq_ok"] + c.drained
    return run


def run_point(bench, backend: str, kind: QueueKind, kernel: str, threads: int, pct: int | None,
              warmup_s: float, window_s: float, capacity: int, runs: int, drain: bool = True,
              progress: Callable[[], None] | None = None) -> dict:
    """``runs`` runs of one configuration and their median (stalled runs give no figure)."""
    threads_run, min_blocks = bench.resident(threads)
    producers = producer_threads(threads_run, pct, ROLE_LANES[backend]) if kernel == "split" else 0
    extra = {"min_blocks": min_blocks} if backend == "cuda" else {}
    budget = warmup_s + window_s
    results = []
    for _ in range(runs):
        c = bench.run(kernel, threads_run, pct or 0, int(warmup_s * 1e9), int(window_s * 1e9), capacity,
                      producers, drain and kind is not IDEAL, False, **extra)
        results.append(summarize_run(c, budget, window_s, backend, kind is IDEAL))
        if progress:
            progress()
        if len(results) == 2 and all(r["stall"] for r in results):
            break  # a configuration that stalls twice gives no figure; more runs only cost time
    figures = [r["ops_per_s"] for r in results if r["ops_per_s"] is not None]
    good = [r for r in results if not r["stall"]]
    ok = sum(r["enq_ok"] + r["deq_ok"] for r in good)
    return {
        "queue": kind.name, "linearizable": kind.linearizable if kind is not IDEAL else None,
        "kernel": kernel, "producers_pct": pct if kernel == "split" else None,
        "threads": threads, "threads_run": threads_run, "capped": threads_run < threads,
        "min_blocks_per_sm": min_blocks if backend == "cuda" else None,
        "producer_threads": producers, "capacity": capacity, "backend": backend,
        "ops_per_s_median": statistics.median(figures) if figures else None,
        "ops_per_s_min": min(figures) if figures else None,
        "ops_per_s_max": max(figures) if figures else None,
        "empty_per_op": sum(r["deq_empty"] for r in good) / ok if ok else None,
        "failed_per_op": sum(r["enq_full"] for r in good) / ok if ok else None,
        "stalls": sum(r["stall"] for r in results),
        "conserved": None if kind is IDEAL or not drain else all(r.get("conserved") for r in results),
        "warmup_s": warmup_s, "window_s": window_s,
        **poll_tag(bench, kernel),
        "runs": results,
    }


def stats_point(backend: str, kind: QueueKind, kernel: str, threads: int, pct: int | None, warmup_s: float,
                window_s: float, capacity: int, poll_backoff_ns: int = 0) -> dict:
    """One counter run (a build with GQ_QUEUE_STATS): the queue's counters per successful
    operation (slow-path entries, helps and completions of the wait-free queues; retries and lost
    CASes of G-LFQ and SFQ; G-LFQ's and G-WFQ's blind tickets), and the most steps one operation
    took (wait-free queues)."""
    bench = launcher(backend, kind, stats=True, poll_backoff_ns=poll_backoff_ns)
    threads_run, min_blocks = bench.resident(threads)
    producers = producer_threads(threads_run, pct, ROLE_LANES[backend]) if kernel == "split" else 0
    extra = {"min_blocks": min_blocks} if backend == "cuda" else {}
    c = bench.run(kernel, threads_run, pct or 0, int(warmup_s * 1e9), int(window_s * 1e9), capacity,
                  producers, False, True, **extra)
    words = dict(zip(STATS_WORDS, (int(x) for x in c.stats)))
    ok = words["ok"]
    row = {"queue": kind.name, "kernel": kernel, "producers_pct": pct if kernel == "split" else None,
           "threads": threads, "threads_run": threads_run, "counted_ops": ok,
           "max_steps": words["max_steps"] if kind.wait_free and ok else None, **poll_tag(bench, kernel)}
    for field in STATS_FIELDS:
        row[field] = words[field.removesuffix("_per_op")] / ok if ok else None
    return row


def configurations(queues: list[str], kernels: list[str], threads: list[int], producers: list[int]):
    for queue in queues:
        for kernel in kernels:
            for pct in (producers if kernel == "split" else [None]):
                for t in threads:
                    yield queue, kernel, pct, t


def validate(backend: str, queues: list[str], threads: list[int], window_s: float, warmup_s: float, runs: int,
             capacity: int | None, poll_backoff_ns: int = 0, hw_counters: bool = False) -> None:
    """Every check before any build or launch; each names the option, the rule and the value."""
    if hw_counters and backend != "cuda":
        raise GQError(f"--hw-counters reads the GPU's counters: it needs the cuda backend, not {backend}")
    if hw_counters and hw.find_ncu() is None:
        raise GQError("--hw-counters needs Nsight Compute's ncu (on PATH or in /usr/local/cuda/bin); none found")
    if not 0 <= poll_backoff_ns <= MAX_POLL_BACKOFF_NS:
        raise GQError(f"--poll-backoff must be between 0 (off) and {MAX_POLL_BACKOFF_NS} ns, got {poll_backoff_ns}")
    if not 0 < window_s <= MAX_SECONDS:
        raise GQError(f"--duration must be above 0 and at most {MAX_SECONDS:g} s, got {window_s:g}")
    if not 0 <= warmup_s <= MAX_SECONDS:
        raise GQError(f"--warmup must be between 0 and {MAX_SECONDS:g} s, got {warmup_s:g}")
    if runs < 1:
        raise GQError(f"--runs must be at least 1, got {runs}")
    if backend == "cpu" and threads[-1] > CPU_MAX_THREADS:
        raise GQError(f"--threads {threads[-1]}: the CPU backend runs one OS thread per queue thread, "
                      f"at most {CPU_MAX_THREADS}")
    if threads[-1] >= 1 << 31:
        raise GQError(f"--threads {threads[-1]}: at most 2^31 - 1")
    for name in queues:
        kind = BENCH_BY_NAME[name]
        if kind.max_threads is not None and threads[-1] > kind.max_threads:
            raise GQError(f"--threads {threads[-1]}: {name} serves at most {kind.max_threads} threads")
        cap = capacity if capacity is not None else default_capacity(threads[-1])
        if not 1 <= cap <= kind.max_capacity:
            raise GQError(f"--capacity {cap}: {name} takes 1..{kind.max_capacity}")


def run_bench(backend: str, queues: list[str], kernels: list[str], threads: list[int], producers: list[int],
              window_s: float, warmup_s: float, runs: int = 5, capacity: int | None = None, stats: bool = False,
              progress: Callable[[str], None] | None = None, on_row: Callable[[dict], None] | None = None,
              command: list[str] | None = None, poll_backoff_ns: int = 0, hw_counters: bool = False) -> dict:
    """The sweep: every queue x kernel (x producer split) x thread count; one record.

    ``backend`` is a resolved one (cuda or cpu). ``progress(label)`` is called after every run;
    ``on_row(record)`` after every configuration with the record so far, so a sweep stopped
    part-way keeps what it measured. ``poll_backoff_ns`` > 0 measures the polite-polling build
    (the split kernel backs off after a failed poll, up to that cap; settings and split rows say so).
    ``hw_counters``: after the sweep, each queue's balanced kernel once more under ncu
    (hw_counters.py), at the largest thread count at which its balanced runs did not stall.
    """
    validate(backend, queues, threads, window_s, warmup_s, runs, capacity, poll_backoff_ns, hw_counters)
    settings = {"backend": backend, "queues": queues, "kernels": kernels, "threads": threads,
                "producers_pct": producers, "window_s": window_s, "warmup_s": warmup_s, "runs": runs,
                "capacity": capacity if capacity is not None else f"max(threads, {MIN_CAPACITY})",
                "block": BLOCK, "stall_rule": f"span > {STALL_FACTOR:g} x (warm-up + window) + "
                                              f"{STALL_SLACK_S[backend]:g} s",
                "throughput": "successful enqueues + dequeues completed in the window / window",
                "poll_backoff_ns": poll_backoff_ns}
    record = provenance(command=command if command is not None else sys.argv, kind="queue-bench",
                        settings=settings, rows=[], stats=[], hw_counters=[])
    benches = {}
    for queue, kernel, pct, t in configurations(queues, kernels, threads, producers):
        kind = BENCH_BY_NAME[queue]
        if queue not in benches:
            benches[queue] = launcher(backend, kind, poll_backoff_ns=poll_backoff_ns)
        cap = capacity if capacity is not None else default_capacity(t)
        label = f"{queue} {kernel}{'' if pct is None else f' {pct}%'} {t}"
        row = run_point(benches[queue], backend, kind, kernel, t, pct, warmup_s, window_s, cap, runs,
                        progress=(lambda label=label: progress(label)) if progress else None)
        record["rows"].append(row)
        if on_row:
            on_row(record)
    if stats:
        for queue, kernel, pct, t in configurations([q for q in queues if q != IDEAL.name], kernels, threads,
                                                     producers):
            cap = capacity if capacity is not None else default_capacity(t)
            record["stats"].append(stats_point(backend, BENCH_BY_NAME[queue], kernel, t, pct, warmup_s, window_s, cap,
                                               poll_backoff_ns))
            if progress:
                progress(f"{queue} counters")
            if on_row:
                on_row(record)
    if hw_counters:
        ncu = hw.find_ncu()
        for queue in queues:
            t = hw_threads(record["rows"], queue, threads)
            record["hw_counters"].append(hw.profile(ncu, queue, t, warmup_s, window_s,
                                                    capacity if capacity is not None else default_capacity(t)))
            if progress:
                progress(f"{queue} hardware counters")
            if on_row:
                on_row(record)
    record["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return record


def hw_threads(rows: list[dict], queue: str, threads: list[int]) -> int:
    """Where --hw-counters profiles a queue: the largest thread count at which its balanced runs
    did not stall (the sweep's largest when it measured no balanced point, its smallest when all
    of them stalled)."""
    balanced = [r for r in rows if r["queue"] == queue and r["kernel"] == "balanced"]
    if not balanced:
        return threads[-1]
    fine = [r["threads"] for r in balanced if not r["stalls"]]
    return max(fine) if fine else min(r["threads"] for r in balanced)


def total_runs(queues: list[str], kernels: list[str], threads: list[int], producers: list[int], runs: int,
               stats: bool, hw_counters: bool = False) -> int:
    n = sum(1 for _ in configurations(queues, kernels, threads, producers)) * runs
    if stats:
        n += sum(1 for _ in configurations([q for q in queues if q != IDEAL.name], kernels, threads, producers))
    return n + (len(queues) if hw_counters else 0)


# ---------------------------------------------------------------------------------- output


def queue_label(queue: str) -> str:
    """A queue's name in tables and charts; a queue that is not linearizable says so."""
    return f"{queue} (not linearizable)" if queue in NOT_LINEARIZABLE else queue


def panel_of(row: dict) -> str:
    return "balanced" if row["kernel"] == "balanced" else f"split {row['producers_pct']}% producers"


def chart(record: dict, png_path) -> str | None:
    """Fig. 4 of the seed: throughput against threads (log2 axis), one panel per kernel/split,
    one line per queue (the ideal ring dashed); with hardware counters, one more panel for them
    (hw_counters.draw). None when drawn, else why not."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return "chart skipped: matplotlib is not installed (pip install 'gpu-queues[plot]')"
    from .files import write_file_atomically

    rows = record["rows"]
    panels = list(dict.fromkeys(panel_of(r) for r in rows))
    if not panels:
        return "chart skipped: no rows"
    profiled = [r for r in record.get("hw_counters", []) if r.get("stall_cycles_per_warp_op")]
    n = len(panels) + (1 if profiled else 0)
    cols = min(n, 2)
    fig = Figure(figsize=(6 * cols, 4 * math.ceil(n / cols)))
    if profiled:
        hw.draw(fig.add_subplot(math.ceil(n / cols), cols, n), profiled)
    for k, panel in enumerate(panels):
        ax = fig.add_subplot(math.ceil(n / cols), cols, k + 1)
        for queue, poll in dict.fromkeys((r["queue"], r.get("poll_backoff_ns", 0)) for r in rows):
            pts = sorted((r["threads_run"], r["ops_per_s_median"]) for r in rows
                         if panel_of(r) == panel and r["queue"] == queue and r.get("poll_backoff_ns", 0) == poll
                         and r["ops_per_s_median"] is not None)
            if pts:
                label = queue_label(queue) + (f", polite polling (cap {poll} ns)" if poll else "")
                ax.plot([p[0] for p in pts], [p[1] / 1e9 for p in pts], marker="o", label=label,
                        linestyle="--" if queue == "ideal" else ":" if poll else "-")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("threads")
        ax.set_ylabel("successful G ops/s (median)")
        ax.set_title(panel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    gpu = record.get("gpu", {})
    fig.suptitle(f"fixed-duration queue throughput, {record['settings']['backend']}"
                 f"{', ' + gpu['name'] if isinstance(gpu, dict) and 'name' in gpu else ''}")
    fig.tight_layout()
    write_file_atomically(png_path, lambda f: fig.savefig(f, format="png"))
    return None


def format_rate(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x / 1e9:.2f} G" if x >= 1e9 else f"{x / 1e6:.1f} M"


def variant_label(row: dict) -> str:
    """A row's kernel in words: ``balanced``, ``split 25%``, ``split 25%, polite polling (cap 1024 ns)``."""
    if row["kernel"] == "balanced":
        return "balanced"
    poll = row.get("poll_backoff_ns", 0)
    return f"split {row['producers_pct']}%" + (f", polite polling (cap {poll} ns)" if poll else "")


def table_lines(record: dict) -> list[str]:
    """The table; a record with polite-polling rows gets a last column, the backoff cap (- for the
    seed's back-to-back polling)."""
    polite = any(r.get("poll_backoff_ns") for r in record["rows"])
    header = (f"{'queue':7s} {'kernel':9s} {'prod%':>5s} {'threads':>8s} {'ran':>8s} {'ops/s':>9s} "
              f"{'empty/op':>9s} {'full/op':>8s} {'stall':>5s} {'conserved':>9s}") + (f" {'poll ns':>7s}" if polite else "")
    lines = [header]
    for r in record["rows"]:
        conserved = "-" if r["conserved"] is None else ("yes" if r["conserved"] else "NO")
        ratio = (lambda v: "-" if v is None else f"{v:.3f}")
        name = r["queue"] + ("*" if r["queue"] in NOT_LINEARIZABLE else "")
        lines.append(f"{name:7s} {r['kernel']:9s} {r['producers_pct'] or '':>5} {r['threads']:>8d} "
                     f"{r['threads_run']:>8d} {format_rate(r['ops_per_s_median']):>9s} {ratio(r['empty_per_op']):>9s} "
                     f"{ratio(r['failed_per_op']):>8s} {r['stalls'] or '':>5} {conserved:>9s}"
                     + (f" {r.get('poll_backoff_ns') or '-':>7}" if polite else ""))
    for queue in dict.fromkeys(r["queue"] for r in record["rows"] if r["queue"] in NOT_LINEARIZABLE):
        lines.append(f"{queue}*: not linearizable (gq queues check --queue {queue} shows a refuting history); "
                     f"measured only because it was named")
    for s in record.get("stats", []):
        per = ", ".join(f"{k} {s[k]:.4f}" for k in STATS_FIELDS if s[k])
        lines.append(f"counters {s['queue']} {s['kernel']} {s['producers_pct'] or ''} {s['threads_run']}"
                     + (f" polite {s['poll_backoff_ns']} ns" if s.get("poll_backoff_ns") else "") + ": "
                     f"{per or ('no counts above zero' if s['counted_ops'] else 'no operations counted')}"
                     + (f"; most steps {s['max_steps']}" if s["max_steps"] is not None else ""))
    if record.get("hw_counters"):
        lines += hw.table_lines(record["hw_counters"])
    return lines


def stall_lines(record: dict) -> list[str]:
    """A line for each point that gave no figure because every run stalled: how long its runs
    took against their budget. When the window closes, each thread still finishes the operation it
    is in, and where operations are slow and the threads many, that drain alone can be longer than
    a short budget: at 2^15 threads SFQ's balanced runs took 0.17 s on the H200 for a budget of
    0.05 s (run 341), and with 0.5 s windows they gave figures (run 351). So a longer window can
    give a figure where a short one stalled."""
    lines = []
    for r in record["rows"]:
        if r["ops_per_s_median"] is None and r["runs"]:
            spans = [run["span_s"] for run in r["runs"]]
            budget = r["warmup_s"] + r["window_s"]
            lines.append(f"{r['queue']} {variant_label(r)} at {r['threads_run']} threads: every run stalled, "
                         f"{min(spans):.3g}-{max(spans):.3g} s for a budget of {budget:g} s (operations in flight "
                         f"when the window closes must finish first; a longer --duration may give a figure)")
    return lines


def pause_lines(record: dict) -> list[str]:
    """A line for each point whose median is 0 while its runs completed operations outside the
    window: the queue paused for longer than the window, as YMC did while one lane scanned its
    hazards (runs 341 and 351: no operation inside the window at 2^14 threads, about 19 a thread
    outside it; run 358 at 2^18 with a warp's scan). The 0 is what the window saw, not a rate."""
    lines = []
    for r in record["rows"]:
        if r["ops_per_s_median"] != 0 or not r["runs"]:
            continue
        outside = max(run["all_enq_ok"] + run["all_deq_ok"] - run["enq_ok"] - run["deq_ok"] for run in r["runs"])
        if outside:
            lines.append(f"{r['queue']} {variant_label(r)} at {r['threads_run']} threads: no operation inside the "
                         f"{r['window_s']:g} s window in most runs, though up to {outside:,} completed outside it: the "
                         f"queue paused for longer than the window (a longer --duration gives a rate)")
    return lines


def default_json_path() -> Path:
    stem = f"queues-{time.strftime('%Y-%m-%d', time.gmtime())}"
    path = Path("benchmarks") / f"{stem}.json"
    n = 2
    while path.exists():
        path = Path("benchmarks") / f"{stem}-{n}.json"
        n += 1
    return path
