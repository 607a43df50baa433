"""parBucketHeap (queues_cuda/include/gq/bucket_heap.cuh) on the CPU: run a program of heap
operations through the native build, for tests and the CPU shortest-path code."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from queues_cuda import build as qbuild
from queues_cuda.errors import GQError, raise_if_flagged

BULK_UPDATE, DELETE, EXTRACT_MIN = 0, 1, 2


@lru_cache(maxsize=None)
def heap_library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(qbuild.compile_library(qbuild.HOST_DIR / "heap_runtime.cpp", qbuild.LIBRARY_FLAGS,
                                                 "libgq_heap")))
    u32, u64, p = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
    lib.gq_heap_entries.restype = u64
    lib.gq_heap_entries.argtypes = [u32, u32]
    lib.gq_heap_levels_for.restype = u32
    lib.gq_heap_levels_for.argtypes = [u64, u32]
    lib.gq_heap_run.restype = u32
    lib.gq_heap_run.argtypes = [p, p, u32, u32, p, p, u64, p, p, p, p, p, p]
    return lib


@dataclass
class HeapProgram:
    """A sequence of operations, built up and then run in one native call."""

    types: list = field(default_factory=list)
    counts: list = field(default_factory=list)
    keys: list = field(default_factory=list)
    prios: list = field(default_factory=list)

    def bulk_update(self, keys, prios) -> None:
        order = np.argsort(np.asarray(keys), kind="stable")
        self.types.append(BULK_UPDATE)
        self.counts.append(len(order))
        self.keys.extend(int(keys[i]) for i in order)
        self.prios.extend(float(prios[i]) for i in order)

    def delete(self, key: int) -> None:
        self.types.append(DELETE)
        self.counts.append(1)
        self.keys.append(int(key))
        self.prios.append(0.0)

    def extract_min(self) -> None:
        self.types.append(EXTRACT_MIN)
        self.counts.append(0)


class BucketHeap:
    """One heap for keys 0..n-1 with bulk updates of up to d entries."""

    def __init__(self, n: int, d: int):
        if d < 1 or d > 4096:
            raise GQError(f"bucket heap: d must be from 1 to 4096, got {d}")
        self.lib = heap_library()
        self.d = d
        self.levels = int(self.lib.gq_heap_levels_for(n, d))
        self.mem = np.zeros(int(self.lib.gq_heap_entries(d, self.levels)) * 2, np.float64)  # 16-byte entries
        self.sizes = np.zeros(2 * self.levels, np.uint32)

    def run(self, prog: HeapProgram) -> list[tuple[int, float] | None]:
        """Run the program; one result per ExtractMin: (key, priority), or None when empty."""
        types = np.asarray(prog.types, np.uint32)
        counts = np.asarray(prog.counts, np.uint32)
        keys = np.asarray(prog.keys + [0], np.uint32)
        prios = np.asarray(prog.prios + [0.0], np.float64)
        n_out = int((types == EXTRACT_MIN).sum())
        out_key = np.zeros(max(n_out, 1), np.uint32)
        out_prio = np.zeros(max(n_out, 1), np.float64)
        out_ok = np.zeros(max(n_out, 1), np.uint8)
        err = np.zeros(4, np.uint32)
        p = lambda a: a.ctypes.data  # noqa: E731
        self.lib.gq_heap_run(p(self.mem), p(self.sizes), self.d, self.levels, p(types), p(counts), len(types),
                             p(keys), p(prios), p(out_key), p(out_prio), p(out_ok), p(err))
        raise_if_flagged(err, "gq_heap_run[cpu]", f"d={self.d}, {self.levels} levels")
        return [(int(k), float(v)) if ok else None for k, v, ok in zip(out_key[:n_out], out_prio[:n_out],
                                                                         out_ok[:n_out])]
