"""The CPU backend: runs the queue headers' thread programs on OS threads (host/runtime.cpp).

Same entry points as cuda_runtime.py; arrays are numpy.
"""

from __future__ import annotations

import numpy as np

from .build import cpu_library
from .errors import raise_if_flagged
from .history import History, from_recording, recording_buffers
from .queues import QueueKind

MIXES = {"random": 0, "split": 1, "alternate": 2}
ROLES = {"split": 0, "balanced": 1}


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


def make_queue(kind: QueueKind, capacity: int, threads: int, defines: tuple[str, ...] = ()):
    lib = cpu_library(kind.kind_id, defines)
    buf = np.zeros(int(lib.gq_queue_words(capacity, threads)), np.uint64)
    lib.gq_queue_init(_ptr(buf), capacity, threads)
    return lib, buf


def fill_queue(kind: QueueKind, capacity: int, threads: int, items: np.ndarray) -> tuple[object, np.ndarray, bool]:
    """A queue built holding `items` in order (include/gq/queue_fill.cuh): (library, words, whether
    the kind could be built filled; if not, the words are a fresh empty queue's)."""
    lib = cpu_library(kind.kind_id)
    buf = np.zeros(int(lib.gq_queue_words(capacity, threads)), np.uint64)
    items = np.ascontiguousarray(items, np.uint32)
    filled = lib.gq_queue_fill(_ptr(buf), capacity, threads, len(items), _ptr(items))
    if filled < 0:
        raise ValueError(f"{len(items)} items do not fit a queue of capacity {capacity}")
    return lib, buf, bool(filled)


def fill_skips(lib, capacity: int, threads: int, words: int) -> np.ndarray:
    """Mask of the words a filled build leaves as a fresh queue has them (Glfq::fill_skips)."""
    return np.array([bool(lib.gq_queue_fill_skips(capacity, threads, i)) for i in range(words)])


def run_sequential(kind: QueueKind, lib, buf: np.ndarray, capacity: int, threads: int, ops: np.ndarray,
                   values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One thread's operations in order on the queue in `buf` (ops: 1 enqueue values[j], 0 dequeue);
    returns (ok, values), the dequeued values in place of the dequeues' entries."""
    ops = np.ascontiguousarray(ops, np.uint8)
    values = np.array(values, np.uint32)
    ok = np.zeros(len(ops), np.uint8)
    err = np.zeros(4, np.uint32)
    lib.gq_queue_sequential(_ptr(buf), capacity, threads, len(ops), _ptr(ops), _ptr(values), _ptr(ok), _ptr(err))
    raise_if_flagged(err, f"gq_queue_sequential[cpu, {kind.name}]", f"capacity {capacity}")
    return ok.astype(bool), values


def add_stats(lib, buf: np.ndarray, capacity: int, threads: int, stats: np.ndarray | None) -> None:
    """Add the queue's slow-path counters (include/gq/queue_stats.cuh: slow, helps, completed, ok,
    and the most steps of one operation) to `stats` (5 uint64), when asked for."""
    if stats is not None:
        out = np.zeros(5, np.uint64)
        lib.gq_queue_stats(_ptr(buf), capacity, threads, _ptr(out))
        merge_stats(stats, out)


def merge_stats(stats: np.ndarray, out: np.ndarray) -> None:
    """Counts add up over runs; the most steps of one operation is a maximum."""
    stats[:4] += out[:4]
    stats[4] = max(stats[4], out[4])


def record_history(kind: QueueKind, capacity: int, threads: int, ops: int, mix: str, producer_pct: int,
                   seed: int, defines: tuple[str, ...] = (), stats: np.ndarray | None = None) -> History:
    lib, buf = make_queue(kind, capacity, threads, defines)
    cols = recording_buffers(np, threads * ops)
    clock, err = np.zeros(1, np.uint64), np.zeros(4, np.uint32)
    lib.gq_history(_ptr(buf), capacity, _ptr(clock), threads, ops, MIXES[mix], producer_pct, seed,
                   *map(_ptr, cols), _ptr(err))
    raise_if_flagged(err, f"gq_history[cpu, {kind.name}]", f"{threads} threads, capacity {capacity}")
    add_stats(lib, buf, capacity, threads, stats)
    return from_recording(threads, ops, *cols)


def run_fifo(kind: QueueKind, capacity: int, threads: int, roles: str, producers: int, per_producer: int,
             blocking: bool, defines: tuple[str, ...] = (),
             stats: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Returns (tokens, consumer of each token, tokens logged)."""
    lib, buf = make_queue(kind, capacity, threads, defines)
    total = producers * per_producer
    pool = np.zeros(total, np.uint64)
    count = np.zeros(1, np.uint64)
    tokens, consumers = np.zeros(total, np.uint64), np.zeros(total, np.uint32)
    err = np.zeros(4, np.uint32)
    lib.gq_fifo(_ptr(buf), capacity, ROLES[roles], producers, threads, int(blocking), per_producer, total,
                _ptr(pool), _ptr(count), _ptr(tokens), _ptr(consumers), _ptr(err))
    raise_if_flagged(err, f"gq_fifo[cpu, {kind.name}]", f"{threads} threads, capacity {capacity}")
    add_stats(lib, buf, capacity, threads, stats)
    return tokens, consumers, int(count[0])


def run_multi_queue(kind: QueueKind, queues: int, threads: int, rounds: int) -> np.ndarray:
    """Several queues driven at once (include/gq/multi_queue.cuh); returns how often each value
    came out (all ones when the queues are right)."""
    lib = cpu_library(kind.kind_id)
    capacity = -(-threads // queues)
    stride = int(lib.gq_queue_words(capacity, threads))
    buf = np.zeros(queues * stride, np.uint64)
    for k in range(queues):
        lib.gq_queue_init(_ptr(buf[k * stride:]), capacity, threads)
    seen = np.zeros(threads * rounds, np.uint32)
    err = np.zeros(4, np.uint32)
    lib.gq_multi_queue(_ptr(buf), stride, capacity, queues, threads, rounds, _ptr(seen), _ptr(err))
    raise_if_flagged(err, f"gq_multi_queue[cpu, {kind.name}]", f"{queues} queues, {threads} threads")
    return seen
