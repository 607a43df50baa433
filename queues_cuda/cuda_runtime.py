"""The CUDA backend: the same thread programs as kernels (kernels/queue_check.cu) through CuPy.

Persistent-style kernels here spin on partners (SFQ turns, consumers waiting for producers), so a
launch never has more blocks than can be resident at once; a larger request is refused.
"""

from __future__ import annotations

import numpy as np

from .build import cuda_module
from .cpu_runtime import MIXES, ROLES, merge_stats
from .errors import GQError, raise_if_flagged
from .history import History, from_recording, recording_buffers
from .queues import QueueKind

BLOCK = 256


def _module(kind: QueueKind, defines: tuple[str, ...]):
    return cuda_module(kind.kind_id, defines)


def resident_threads(kernel, block: int = BLOCK, shared_bytes: int = 0) -> int:
    """How many threads of `kernel` in blocks of `block` threads, each block given `shared_bytes`
    of dynamic shared memory, can be resident on the device at once."""
    import cupy

    dev = cupy.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    ptr = kernel.kernel.ptr  # RawKernel -> its loaded cupy.cuda.Function
    try:
        per_sm = cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(ptr, block, shared_bytes)
    except AttributeError:  # this CuPy has no occupancy call: ask the driver through cuda-bindings
        from cuda.bindings import driver

        err, per_sm = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(driver.CUfunction(ptr), block,
                                                                           shared_bytes)
        if err != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuOccupancyMaxActiveBlocksPerMultiprocessor failed: {err}") from None
    return int(per_sm) * sms * block


def _launch(kernel, threads: int, args: tuple, name: str) -> None:
    import cupy

    limit = resident_threads(kernel)
    if threads > limit:
        raise GQError(f"--threads {threads}: more than the {limit} threads of {name} that can be resident "
                      "on this GPU at once (the waits inside assume every thread runs)")
    kernel(((threads + BLOCK - 1) // BLOCK,), (BLOCK,), args)
    cupy.cuda.get_current_stream().synchronize()


def make_queue(kind: QueueKind, capacity: int, threads: int, defines: tuple[str, ...] = ()):
    import cupy

    mod = _module(kind, defines)
    words_out = cupy.zeros(1, cupy.uint64)
    mod.get_function("gq_queue_words")((1,), (1,), (np.uint64(capacity), np.uint64(threads), words_out))
    words = int(words_out.get()[0])
    buf = cupy.empty(words, cupy.uint64)
    mod.get_function("gq_queue_init")((min((words + BLOCK - 1) // BLOCK, 65535),), (BLOCK,),
                                      (buf, np.uint64(capacity), np.uint64(threads), np.uint64(words)))
    return mod, buf


def add_stats(mod, buf, capacity: int, threads: int, stats: np.ndarray | None) -> None:
    """Add the queue's slow-path counters (slow, helps, completed, ok, most steps of one operation)
    to `stats`, when asked for."""
    if stats is not None:
        import cupy

        out = cupy.zeros(5, cupy.uint64)
        mod.get_function("gq_queue_stats")((1,), (1,), (buf, np.uint64(capacity), np.uint64(threads), out))
        merge_stats(stats, out.get())


def record_history(kind: QueueKind, capacity: int, threads: int, ops: int, mix: str, producer_pct: int,
                   seed: int, defines: tuple[str, ...] = (), stats: np.ndarray | None = None) -> History:
    import cupy

    mod, buf = make_queue(kind, capacity, threads, defines)
    cols = recording_buffers(cupy, threads * ops)
    clock, err = cupy.zeros(1, cupy.uint64), cupy.zeros(4, cupy.uint32)
    u32, u64 = np.uint32, np.uint64
    _launch(mod.get_function("gq_history"), threads,
            (buf, u64(capacity), clock, u32(threads), u32(ops), u32(MIXES[mix]), u32(producer_pct), u64(seed),
             *cols, err), "gq_history")
    raise_if_flagged(err.get(), f"gq_history[cuda, {kind.name}]", f"{threads} threads, capacity {capacity}")
    add_stats(mod, buf, capacity, threads, stats)
    return from_recording(threads, ops, *(c.get() for c in cols))


def run_fifo(kind: QueueKind, capacity: int, threads: int, roles: str, producers: int, per_producer: int,
             blocking: bool, defines: tuple[str, ...] = (), stats: np.ndarray | None = None):
    """Returns (tokens, consumer of each token, tokens logged) with the arrays left on the GPU."""
    import cupy

    mod, buf = make_queue(kind, capacity, threads, defines)
    total = producers * per_producer
    pool = cupy.zeros(total, cupy.uint64)
    count = cupy.zeros(1, cupy.uint64)
    tokens, consumers = cupy.zeros(total, cupy.uint64), cupy.zeros(total, cupy.uint32)
    err = cupy.zeros(4, cupy.uint32)
    u32, u64 = np.uint32, np.uint64
    _launch(mod.get_function("gq_fifo"), threads,
            (buf, u64(capacity), u32(ROLES[roles]), u32(producers), u32(threads), u32(int(blocking)),
             u64(per_producer), u64(total), pool, count, tokens, consumers, err), "gq_fifo")
    raise_if_flagged(err.get(), f"gq_fifo[cuda, {kind.name}]", f"{threads} threads, capacity {capacity}")
    add_stats(mod, buf, capacity, threads, stats)
    return tokens, consumers, int(count.get()[0])


def run_multi_queue(kind: QueueKind, queues: int, threads: int, rounds: int, defines: tuple[str, ...] = ()) -> np.ndarray:
    """Several queues driven by every warp at once (include/gq/multi_queue.cuh); returns how
    often each value came out (all ones when the queues are right). `defines`: a build's tuning
    (a small YMC pool, say)."""
    import cupy

    mod = _module(kind, defines)
    capacity = -(-threads // queues)
    words_out = cupy.zeros(1, cupy.uint64)
    mod.get_function("gq_queue_words")((1,), (1,), (np.uint64(capacity), np.uint64(threads), words_out))
    stride = int(words_out.get()[0])
    buf = cupy.empty(queues * stride, cupy.uint64)
    init = mod.get_function("gq_queue_init")
    for k in range(queues):
        init((min((stride + BLOCK - 1) // BLOCK, 65535),), (BLOCK,),
             (buf[k * stride:], np.uint64(capacity), np.uint64(threads), np.uint64(stride)))
    seen = cupy.zeros(threads * rounds, cupy.uint32)
    err = cupy.zeros(4, cupy.uint32)
    u32, u64 = np.uint32, np.uint64
    _launch(mod.get_function("gq_multi_queue"), threads,
            (buf, u64(stride), u64(capacity), u32(queues), u32(threads), u32(rounds), seen, err), "gq_multi_queue")
    raise_if_flagged(err.get(), f"gq_multi_queue[cuda, {kind.name}]", f"{queues} queues, {threads} threads")
    return seen.get()
