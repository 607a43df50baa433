"""`bfs`: level-synchronous breadth-first search, queue-driven or by frontier compaction.

    depth, parent = bfs(csgraph, source=0, queue="glfq", algorithm="queue", backend="auto")

The graph is a square sparse (or dense) matrix; every stored entry is a directed edge u -> v
(weights are ignored). ``depth`` (int32) is the hop count from the source, -1 where unreached;
``parent`` (int32) is a BFS-tree parent (depth[parent[v]] = depth[v] - 1 and the edge exists), -1
for the source and for unreached vertices. Parents depend on which thread won a vertex; depths do
not.

Algorithms (seed 001, "Scalable Concurrent Queues for GPU", Sec. V.B.a and VI.D):
``queue`` drains each level's frontier from one concurrent queue of the queue layer (``--queue``:
glfq, sfq, gwfq, ymc) and enqueues the next into a second, alternating
(include/sssp/bfs_queue.h; SFQ through its blocking interface, since a level knows how many
vertices it dequeues); ``compaction`` is the baseline with the same level loop and expansion
but plain frontier arrays filled by warp-aggregated appends (include/sssp/bfs_compaction.h). Both
are one persistent grid with a software grid barrier between levels (include/sssp/grid.h); on
the ``cpu`` backend the same headers run on std::threads (host/bfs_cpu.cpp).

`reference_depth` (scipy) and `check_bfs` (an independent check of depth and parent) are what the
tests and the benchmark compare against.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from queues_cuda import build as qbuild
from queues_cuda.backend import BACKENDS
from queues_cuda.errors import GQError, KernelError, raise_if_flagged
from queues_cuda.queues import QUEUES, queue_kind

ALGORITHMS = ("queue", "compaction")
PACKAGE_DIR = Path(__file__).resolve().parent
KERNEL = PACKAGE_DIR / "kernels" / "bfs.cu"
HOST_SOURCE = PACKAGE_DIR / "host" / "bfs_cpu.cpp"
INCLUDE_DIRS = (qbuild.INCLUDE_DIR, PACKAGE_DIR / "include")
BLOCK = 256
#: Blocks per SM at most (below the occupancy limit), by the graph's average degree: a sparse
#: graph (fewer than SPARSE_DEGREE edges a vertex: road networks, meshes) has many small levels, each
#: a chain of round trips that the fewest, fullest blocks serve best (a cheaper grid barrier, fewer
#: warps at the level's words); a denser one (Kronecker, social) has few, large levels that want
#: the threads. H200, run 289 (kernel ms, 1 / 2 blocks an SM; SFQ's queue form, then compaction):
#: road-24M 56.0-56.1 / 56.2-56.3 and 46.1 / 46.3, road-2M 13.8 / 13.9-14.0 and 10.1 / 10.3,
#: Delaunay-21 6.6 / 6.7 and 5.4-5.5 / 5.4-5.5, but Kron-21 1.65 / 1.37-1.39 and 1.50 / 1.33-1.36.
#: (Before Grid::sync_read, run 287, the sparse graphs gained more: road-24M 58.3 / 59.8-62.4 and
#: 46.9-49.5 / 54.1.)
SPARSE_DEGREE = 16


def default_blocks_per_sm(n: int, m: int) -> int:
    """Blocks per SM for a graph of `n` vertices and `m` (directed) edges: 1 when it is sparse, else 2."""
    return 1 if m < SPARSE_DEGREE * max(n, 1) else 2


WORDS = 16                    # control words (sssp::kBfsWords = 11, rounded up)
GPU_CHUNK = 1024              # sssp::kChunk on the GPU build (32 x 32 lanes)
CPU_CHUNK = 32                # ... and on the CPU build (a warp is one lane there)
#: The compaction baseline is built into every queue kind's module; this one is used for it.
COMPACTION_KIND = "glfq"
SITE_FRONTIER = 31            # gq::kSiteFrontier
ABORT_WORD = 2                # sssp::kAbort
STAT_NAMES = ("levels", "edges_scanned", "vertices_expanded")


@dataclass
class BfsStats:
    levels: int = 0             # frontiers expanded (the deepest reached vertex's depth + 1)
    edges_scanned: int = 0      # out-edges examined
    vertices_expanded: int = 0  # frontier vertices taken (dequeued, or read from the array)
    extra: dict = field(default_factory=dict)


# --------------------------------------------------------------------------- checks


def check_choices(algorithm: str, queue: str, backend: str) -> None:
    """The names exist (cheap: the command calls it before reading any input)."""
    if algorithm not in ALGORITHMS:
        raise GQError(f"--algorithm: unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}")
    queue_kind(queue)
    if backend not in BACKENDS:
        raise GQError(f"--backend: unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if backend == "cuda":
        from queues_cuda.backend import resolve

        resolve(backend)  # no GPU: say so now, before any input is read


def as_csr(csgraph) -> tuple[np.ndarray, np.ndarray, int]:
    """(indptr int64, indices int32, n) of a square matrix, checked."""
    import scipy.sparse as sp

    if not sp.issparse(csgraph) and hasattr(csgraph, "get") and hasattr(csgraph, "tocsr"):
        csgraph = csgraph.tocsr().get()  # a CuPy sparse matrix
    g = csgraph.tocsr() if sp.issparse(csgraph) else sp.csr_matrix(np.asarray(csgraph))
    if g.ndim != 2 or g.shape[0] != g.shape[1]:
        raise GQError(f"csgraph: expected a square matrix, got shape {g.shape}")
    n = g.shape[0]
    if n < 1:
        raise GQError("csgraph: expected at least one vertex, got an empty matrix")
    if n >= 2**31 - 1:
        raise GQError(f"csgraph: at most 2^31 - 2 vertices, got {n}")
    return np.ascontiguousarray(g.indptr, np.int64), np.ascontiguousarray(g.indices, np.int32), n


def check_source(source, n: int) -> int:
    if isinstance(source, (bool, np.bool_)) or not isinstance(source, (int, np.integer)) or not 0 <= source < n:
        raise GQError(f"--source: expected a vertex in 0..{n - 1}, got {source!r}")
    return int(source)


def queue_capacity(queue: str, n: int) -> int:
    """Slots of each frontier queue: a frontier never holds more than n vertices, but a queue kind
    may allow fewer (G-WFQ: 2^22 - 2); a larger frontier then ends the run with a clear error."""
    return max(1, min(n, queue_kind(queue).max_capacity))


def _raise(err, kernel: str, context: str, queue: str | None, capacity: int) -> None:
    code, site, lo = (int(x) for x in err[:3])
    if code == 3 and site == SITE_FRONTIER and queue is not None:
        raise KernelError(f"{kernel}: the {queue} queue of level {lo + 1}'s frontier is full at its capacity of "
                          f"{capacity:,} vertices ({context}); --queue glfq allows up to 2^31 - 2")
    if code == 2 and site == SITE_FRONTIER and queue is not None:
        raise KernelError(f"{kernel}: the {queue} queue lost vertices at level {lo}: it answered EMPTY while "
                          f"enqueued vertices were never dequeued ({context})")
    raise_if_flagged(err, kernel, context)


# --------------------------------------------------------------------------- public function


def bfs(csgraph, source: int = 0, queue: str = "glfq", algorithm: str = "queue", backend: str = "auto",
        threads: int | None = None, stats: BfsStats | None = None):
    """Depths and BFS-tree parents from `source` (see the module). `threads`: std::threads of the
    CPU backend (default: the cores, at most 8)."""
    check_choices(algorithm, queue, backend)
    indptr, indices, n = as_csr(csgraph)
    source = check_source(source, n)
    from queues_cuda.backend import resolve

    used = resolve(backend)
    if used == "cuda":
        run = CudaBfs(DeviceGraph.upload(indptr, indices, n), algorithm, queue)
        depth, parent, st = run.run(source)
        depth, parent = depth.get(), parent.get()
    else:
        depth, parent, st = run_cpu(indptr, indices, n, source, algorithm, queue, threads)
    if stats is not None:
        for name in STAT_NAMES:
            setattr(stats, name, getattr(stats, name) + st[name])
    return depth, parent


# --------------------------------------------------------------------------- CPU


@cache
def _library(kind_id: int) -> ctypes.CDLL:
    flags = qbuild.LIBRARY_FLAGS + ("-pthread",) + qbuild.defines_for(kind_id)
    lib = ctypes.CDLL(str(qbuild.compile_library(HOST_SOURCE, flags, "libbfs_cpu", include_dirs=INCLUDE_DIRS)))
    u32, u64, p = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
    lib.bfs_queue_words.restype = u64
    lib.bfs_queue_words.argtypes = [u64, u64]
    lib.bfs_cpu_queue.restype = u32
    lib.bfs_cpu_queue.argtypes = [p, p, u32, u32, u32, u64, p, p, p, p]
    lib.bfs_cpu_compaction.restype = u32
    lib.bfs_cpu_compaction.argtypes = [p, p, u32, u32, u32, p, p, p, p]
    return lib


def default_threads() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def run_cpu(indptr, indices, n: int, source: int, algorithm: str, queue: str = "glfq", threads: int | None = None,
            capacity: int | None = None):
    """The grid forms on `threads` std::threads: (depth int32, parent int32, stats dict). `capacity`:
    the frontier queues' slots, queue_capacity's unless given (a test gives fewer)."""
    queue = queue or "glfq"
    threads = default_threads() if threads is None else int(threads)
    if not 1 <= threads <= 1024:
        raise GQError(f"--threads: expected 1..1024 CPU threads, got {threads}")
    indptr = np.ascontiguousarray(indptr, np.int64)
    indices = np.ascontiguousarray(indices, np.int32)
    depth = np.empty(n, np.int32)
    parent = np.empty(n, np.int32)
    out = np.zeros(3, np.uint64)
    err = np.zeros(4, np.uint32)
    ptr = lambda a: a.ctypes.data  # noqa: E731
    name = queue if algorithm == "queue" else COMPACTION_KIND
    lib = _library(QUEUES[name].kind_id)
    capacity = queue_capacity(queue, n) if capacity is None else int(capacity)
    if algorithm == "queue":
        lib.bfs_cpu_queue(ptr(indptr), ptr(indices), n, source, threads, capacity, ptr(depth), ptr(parent), ptr(out),
                          ptr(err))
    else:
        lib.bfs_cpu_compaction(ptr(indptr), ptr(indices), n, source, threads, ptr(depth), ptr(parent), ptr(out),
                               ptr(err))
    kernel = f"bfs_{algorithm}[cpu{', ' + queue if algorithm == 'queue' else ''}]"
    _raise(err, kernel, f"{n} vertices, source {source}, {threads} threads", queue if algorithm == "queue" else None,
           capacity)
    return depth, parent, dict(zip(STAT_NAMES, (int(x) for x in out)))


# --------------------------------------------------------------------------- GPU


@dataclass
class DeviceGraph:
    """A CSR on the GPU (indptr int64, indices int32; CuPy), uploaded once."""

    indptr: object
    indices: object
    n: int
    m: int

    @classmethod
    def upload(cls, indptr: np.ndarray, indices: np.ndarray, n: int) -> DeviceGraph:
        import cupy

        return cls(cupy.asarray(np.asarray(indptr, np.int64)), cupy.asarray(np.asarray(indices, np.int32)), n,
                   int(indptr[-1]))


@cache
def cuda_module(kind_id: int):
    return qbuild.cuda_module(kind_id, (), KERNEL, INCLUDE_DIRS)


def compile_sm90(kind_id: int, arch: str = "sm_90") -> tuple[str, int]:
    """kernels/bfs.cu for one queue kind, compiled without a GPU (CI's check)."""
    return qbuild.compile_sm90(kind_id, (), KERNEL, arch, INCLUDE_DIRS)


@cache
def _block(kind_id: int, name: str) -> int:
    """Threads in a block of `name`: BLOCK, but the blocking queue form's has a waiter warp more
    (kernels/bfs.cu's kBfsQueueBlock)."""
    if name != "bfs_queue":
        return BLOCK
    import cupy

    out = cupy.zeros(1, cupy.uint32)
    cuda_module(kind_id).get_function("bfs_queue_block")((1,), (1,), (out,))
    return int(out.get()[0])


@cache
def _blocks(kind_id: int, name: str, per_sm: int) -> int:
    """Blocks of `name`: all resident at once (the grid barrier needs every block running), at
    most `per_sm` per SM."""
    import cupy

    from queues_cuda.cuda_runtime import resident_threads

    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    block = _block(kind_id, name)
    resident = resident_threads(cuda_module(kind_id).get_function(name), block) // block
    if resident < 1:
        raise GQError(f"{name}: not even one block of {block} threads can be resident on this GPU")
    return max(1, min(resident, sms * per_sm))


class CudaBfs:
    """One algorithm (and queue) on one uploaded graph, its buffers allocated once, so that
    repeated runs (the benchmark's) time the search, not the allocation. `run` queues on the
    current stream: reset depth and parent, initialise the queues, the persistent kernel."""

    def __init__(self, g: DeviceGraph, algorithm: str, queue: str = "glfq", budget_s: float | None = None,
                 blocks_per_sm: int | None = None):
        import cupy

        self.g, self.algorithm, self.queue = g, algorithm, queue
        self.budget_s = budget_s
        self.budget_ns = np.uint64(int(budget_s * 1e9) if budget_s else 0)
        self.kind_id = QUEUES[queue if algorithm == "queue" else COMPACTION_KIND].kind_id
        self.name = "bfs_queue" if algorithm == "queue" else "bfs_compaction"
        mod = cuda_module(self.kind_id)
        self.fn = mod.get_function(self.name)
        self.blocks_per_sm = int(blocks_per_sm or default_blocks_per_sm(g.n, g.m))
        self.block = _block(self.kind_id, self.name)
        self.blocks = _blocks(self.kind_id, self.name, self.blocks_per_sm)
        self.threads = self.blocks * self.block
        n = g.n
        self.depth = cupy.empty(n, cupy.int32)
        self.parent = cupy.empty(n, cupy.int32)
        self.chunk_cap = 2 * g.m // GPU_CHUNK + 1
        if self.chunk_cap >= 2**32:
            raise GQError(f"graph too large for the GPU BFS: {self.chunk_cap} chunks do not fit 32-bit counters")
        self.chunks = cupy.empty(self.chunk_cap, cupy.uint64)
        self.stats = cupy.zeros(3, cupy.uint64)
        self.ctl = cupy.zeros(WORDS, cupy.uint32)
        self.err = cupy.zeros(4, cupy.uint32)
        self.capacity = queue_capacity(queue, n)
        if algorithm == "queue":
            kind = QUEUES[queue]
            if kind.max_threads is not None and self.threads > kind.max_threads:
                raise GQError(f"--queue {queue}: serves at most {kind.max_threads} threads, the grid has {self.threads}")
            out = cupy.zeros(1, cupy.uint64)
            mod.get_function("bfs_queue_words")((1,), (1,), (np.uint64(self.capacity), np.uint64(self.threads), out))
            self.words = int(out.get()[0])
            self.queues = [cupy.empty(self.words, cupy.uint64) for _ in range(2)]
        else:
            self.words = 0
            self.frontier = [cupy.empty(max(n, 1), cupy.uint32) for _ in range(2)]
        self.reset = mod.get_function("bfs_reset")
        sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
        self.reset_blocks = max(1, min(-(-max(n, self.words, WORDS) // BLOCK), sms * 16))

    def launch(self, source: int, mid_event=None) -> None:
        """Queue one run on the current stream (no synchronisation); `mid_event`, if given, is
        recorded between the reset (bfs_reset: depth, parent, the words and the queues) and the kernel."""
        u32, u64 = np.uint32, np.uint64
        queues = self.queues if self.algorithm == "queue" else (self.stats, self.stats)  # unread: words 0
        self.reset((self.reset_blocks,), (BLOCK,), (self.depth, self.parent, u32(self.g.n), u32(source), self.stats,
                                                    u32(self.stats.size), self.ctl, u32(self.ctl.size), *queues,
                                                    u64(self.words), u64(self.capacity), u64(self.threads)))
        graph = (self.g.indptr, self.g.indices, u32(self.g.n), u32(source), self.depth, self.parent, self.chunks,
                 u32(self.chunk_cap), self.stats, self.ctl)
        if self.algorithm == "queue":
            if mid_event is not None:
                mid_event.record()
            self.fn((self.blocks,), (self.block,), (*graph, self.queues[0], self.queues[1], u64(self.capacity),
                                               self.budget_ns, self.err))
        else:
            if mid_event is not None:
                mid_event.record()
            self.fn((self.blocks,), (self.block,), (*graph, self.frontier[0], self.frontier[1], self.budget_ns, self.err))

    def check(self, source: int) -> dict:
        """Raise if the run's error flag is up; its stats (synchronises)."""
        kernel = f"{self.name}[cuda{', ' + self.queue if self.algorithm == 'queue' else ''}]"
        _raise(self.err.get(), kernel, f"{self.g.n} vertices, {self.g.m} edges, source {source}, "
                                       f"{self.blocks} blocks x {self.block}",
               self.queue if self.algorithm == "queue" else None, self.capacity)
        stats = dict(zip(STAT_NAMES, (int(x) for x in self.stats.get())))
        if int(self.ctl.get()[ABORT_WORD]):
            from .grid_forms import OverBudget

            raise OverBudget(f"{kernel}: stopped after its time budget of {self.budget_s:g} s "
                             f"({stats['levels']:,} levels done)")
        return stats

    def run(self, source: int):
        """One run: (depth, parent) as CuPy int32 arrays, and the stats dict."""
        self.err.fill(0)
        self.launch(source)
        return self.depth, self.parent, self.check(source)

    def time(self, source: int, repeats: int = 5, warmup: int = 1) -> list[float]:
        """Milliseconds of `repeats` runs after `warmup` (CUDA events around each whole run:
        reset, queue initialisation, kernel); the kernel's own share of each run is left in
        `self.kernel_ms`."""
        import cupy

        self.err.fill(0)
        times, self.kernel_ms = [], []
        for i in range(warmup + repeats):
            start, mid, end = cupy.cuda.Event(), cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            self.launch(source, mid)
            end.record()
            end.synchronize()
            if i >= warmup:
                times.append(cupy.cuda.get_elapsed_time(start, end))
                self.kernel_ms.append(cupy.cuda.get_elapsed_time(mid, end))
            elif i == warmup - 1:
                self.check(source)  # a failed or over-budget warm-up ends it here
        self.check(source)
        return times


# --------------------------------------------------------------------------- references


def reference_depth(indptr, indices, n: int, source: int) -> np.ndarray:
    """Depths by scipy's breadth_first_order (int32, -1 unreached): its predecessor tree is a BFS
    tree, so depth = tree depth, found by pointer jumping (log of the depth numpy passes)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    g = sp.csr_matrix((np.ones(len(indices), np.int8), indices, indptr), shape=(n, n))
    order, pred = breadth_first_order(g, source, directed=True, return_predecessors=True)
    depth = np.full(n, -1, np.int64)
    up = np.where(pred < 0, source, pred).astype(np.int64)  # the tree's parent; the source its own
    hops = (pred >= 0).astype(np.int64)                     # hops to `up`
    while True:  # after k passes, `up` is 2^k steps up (or the source) and `hops` the steps taken
        nxt = up[up]
        if np.array_equal(nxt, up):
            break
        hops = hops + hops[up]
        up = nxt
    depth[order] = hops[order]
    return depth.astype(np.int32)


def check_bfs(indptr, indices, n: int, source: int, depth, parent, edges: bool = True) -> list[str]:
    """Problems with a BFS result, found without a reference search (Graph500's checks): the
    source has depth 0 and no parent; every reached vertex but the source has a parent of depth
    one less with an edge parent -> vertex; no edge leaves a reached vertex for an unreached one
    or for one more than one level deeper. Together these make every depth the hop distance.
    `edges=False` skips the look-up of the parent edges (a sort-sized search on large graphs)."""
    indptr = np.asarray(indptr, np.int64)
    indices = np.asarray(indices, np.int64)
    depth = np.asarray(depth, np.int64)
    parent = np.asarray(parent, np.int64)
    problems = []
    if depth.shape != (n,) or parent.shape != (n,):
        return [f"expected depth and parent of shape ({n},), got {depth.shape} and {parent.shape}"]
    if depth[source] != 0 or parent[source] != -1:
        problems.append(f"source {source}: depth {depth[source]}, parent {parent[source]} (want 0, -1)")
    reached = depth >= 0
    if np.any(depth < -1):
        problems.append(f"{int((depth < -1).sum())} depths below -1")
    others = np.flatnonzero(reached)
    others = others[others != source]
    p = parent[others]
    bad = (p < 0) | (p >= n)
    if bad.any():
        problems.append(f"{int(bad.sum())} reached vertices without a valid parent, e.g. {int(others[bad][0])}")
    ok = ~bad
    v, p = others[ok], p[ok]
    wrong = depth[p] != depth[v] - 1
    if wrong.any():
        problems.append(f"{int(wrong.sum())} parents not one level up, e.g. vertex {int(v[wrong][0])}")
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    if edges and len(v):
        # the edge p -> v exists: look its key up among the edges' keys (sorted already where every
        # row's columns are)
        keys = tails * n + indices
        if np.any(keys[1:] < keys[:-1]):
            keys = np.sort(keys)
        want = p * n + v
        at = np.minimum(np.searchsorted(keys, want), max(len(keys) - 1, 0))
        have = keys[at] == want if len(keys) else np.zeros(len(want), bool)
        if not have.all():
            problems.append(f"{int((~have).sum())} parent edges missing, e.g. {int(p[~have][0])} -> {int(v[~have][0])}")
    unreached_parent = (~reached) & (parent != -1)
    if unreached_parent.any():
        problems.append(f"{int(unreached_parent.sum())} unreached vertices with a parent")
    from_reached = reached[tails]
    heads = indices[from_reached]
    dt = depth[tails[from_reached]]
    lost = depth[heads] < 0
    if lost.any():
        problems.append(f"{int(lost.sum())} edges from a reached vertex to an unreached one")
    far = (~lost) & (depth[heads] > dt + 1)
    if far.any():
        problems.append(f"{int(far.sum())} edges skip a level (head deeper than tail + 1)")
    return problems


def default_source(indptr, seed: int = 0) -> int:
    """A reproducible source with at least one out-edge (Graph500 samples sources so): the first
    such vertex in a seeded random order (0 for an edgeless graph)."""
    deg = np.diff(np.asarray(indptr, np.int64))
    live = np.flatnonzero(deg > 0)
    if not len(live):
        return 0
    return int(live[np.random.default_rng(seed).integers(len(live))])
