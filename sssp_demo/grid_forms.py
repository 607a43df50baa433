"""The grid forms of the shortest-path algorithms: the CUDA backend of `sssp`, and the same code on
the CPU build for the tests.

Each algorithm is ONE persistent kernel (kernels/near_far.cu, kernels/par_dijkstra.cu) launched
with no more blocks than the occupancy API says are resident, its rounds separated by the
software grid barrier of include/sssp/grid.h, so the host waits once per run instead of once per
round (and rounds with few work items run on block 0 alone, with block barriers only); then the
predecessor passes (kernels/predecessors.cu) pick, from the final distances, a predecessor tree
whose links realise every distance. Frontier Bellman-Ford is Near-Far with
Delta = +inf. What runs where inside parDijkstra: include/sssp/par_dijkstra_grid.h (the grid
relaxes, block 0 runs parBucketHeap with block-parallel Merge/Select/splits,
include/sssp/block_bucket_heap.h; one block for all levels: the seed's block per level,
include/sssp/level_bucket_heap.h, runs heap programs only so far).
pardijkstra-sliced (kernels/slice_dijkstra.cu, include/sssp/slice_dijkstra.h) has no software
grid barrier: one thread-block cluster whose blocks push their minima into each other's shared
memory where its slices fit, else one block per SM meeting at round-stamped slots.

`run_cuda` takes a `DeviceGraph` (the CSR uploaded once, so benchmarks time the algorithm, not
the copy) and returns CuPy arrays; `run_cpu_grid` runs the same headers on std::threads (one
thread per block) and returns NumPy arrays.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from queues_cuda.errors import GQError, raise_if_flagged

PACKAGE_DIR = Path(__file__).resolve().parent
KERNEL_DIR = PACKAGE_DIR / "kernels"
INCLUDE_DIR = PACKAGE_DIR / "include"
KERNELS = {"near-far": ("near_far", "sssp_near_far_grid"), "bellman-ford": ("near_far", "sssp_near_far_grid"),
           "pardijkstra": ("par_dijkstra", "sssp_par_dijkstra_grid"),
           "pardijkstra-batched": ("par_dijkstra", "sssp_par_dijkstra_grid"),
           "pardijkstra-sliced": ("slice_dijkstra", "sssp_slice_dijkstra_grid")}
GRID_ALGORITHMS = tuple(KERNELS)
BLOCK = 256
#: Blocks per SM at most, below the occupancy limit: every block arrives at each grid barrier, so
#: fewer, fuller blocks make a barrier cheaper. (Measured on an H200: see tools/gpu_sssp_bench.py.)
BLOCKS_PER_SM = 4
MAX_BATCH = 4096  # sssp::kMaxBatch: block 0 sorts a BulkUpdate batch in shared memory
#: A round with at most this many block-widths of lanes' work runs on block 0 alone (no grid
#: barrier): local_items = passes * block width / lanes. LOCAL_PASSES is the most a launch may
#: ask for, and parDijkstra's default.
LOCAL_PASSES = 4
#: Near-Far and Bellman-Ford's block widths (kernels/near_far.cu's launch bounds allow up to 512),
#: and what they launch by default: one block of 512 threads an SM (their 115 registers a thread
#: leave room for no more), with block 0 taking rounds of up to one pass alone. On the H200 a
#: 4096^2 maze took 167 ms with Bellman-Ford, against 209-212 ms with two blocks of 256 an SM;
#: block 0's local rounds have twice the lanes and the grid barrier half the blocks. One pass:
#: on an open strip 512 pixels across (rounds of about 900 items), 41 ms against 59-76 ms with
#: 2-4, and the same elsewhere (a sweep of both widths and 1-4 passes, run 54).
NEAR_FAR_BLOCKS = (256, 512)
NEAR_FAR_BLOCK = 512
NEAR_FAR_LOCAL_PASSES = 1
#: Items in each of block 0's own frontier lists in near-far's local rounds (sssp::kOwnItems, the
#: kernel's shared arrays: a launch may ask for fewer, to exercise the spill).
OWN_ITEMS = 1024
WORDS = 16         # control words (barrier, abort, the algorithm's counters; see the headers)
ABORT_WORD = 2     # sssp::kAbort
INF_BITS = 0x7FF0000000000000


class OverBudget(GQError):
    """A run passed its time budget; the kernel stopped itself (the result is incomplete)."""


class OutOfReach(GQError):
    """An algorithm's form that cannot take a graph this large (pardijkstra-sliced's slices)."""


#: pardijkstra-sliced on the CPU build scans each thread's slice every round (about n^2 / threads
#: steps in all): beyond this many vertices it is refused rather than left to run for hours.
SLICED_CPU_MAX_VERTICES = 250_000


def advance_shape(mean_degree: float, warp: int = 32) -> tuple[int, int]:
    """(lanes per work item, edges per chunk): include/sssp/advance.h's advance_shape."""
    lanes = 1
    while lanes < warp and lanes * 4.0 < mean_degree:
        lanes *= 2
    return lanes, lanes * 4


def levels_for(n: int, d: int) -> int:
    """gq::BucketHeap::levels_for."""
    q = 1
    while (d << (2 * (q - 1) + 1)) < 2 * n + 2:
        q += 1
    return q + 1


def heap_entries(d: int, levels: int) -> int:
    """gq::BucketHeap::entries."""
    return d * ((1 << (2 * levels)) - 1) + 2 * (3 * d << (2 * (levels - 1)))


def level_scratch_entries(d: int, levels: int) -> int:
    """sssp::LevelSched::scratch_entries: every level's two scratch lists of 2d 4^(i+1) entries."""
    return 16 * d * ((1 << (2 * levels)) - 1) // 3


# ------------------------------------------------------------------------------------------ GPU


#: Host arrays at least this large are page-locked for their copy (to_device, from_device).
PINNED_FROM_BYTES = 1 << 22


class _PageLocked:
    """The host memory of a large array page-locked (cudaHostRegister) while a copy runs, so the
    copy goes at the bus's speed. On the H200's host, for 67 MB: registering took 2.2-2.6 ms and
    the copy 1.3 ms, against 12-86 ms for a pageable copy and 12-92 ms staged through new pinned
    memory (runs 47 and 51). Memory the driver will not lock is copied as it is."""

    def __init__(self, a: np.ndarray):
        self.ptr = a.ctypes.data if a.nbytes >= PINNED_FROM_BYTES else None
        self.nbytes = a.nbytes

    def __enter__(self):
        import cupy

        if self.ptr is not None:
            try:
                cupy.cuda.runtime.hostRegister(self.ptr, self.nbytes, 0)
            except cupy.cuda.runtime.CUDARuntimeError:  # already locked (a view of locked memory), or refused
                self.ptr = None
        return self

    def __exit__(self, *exc):
        import cupy

        if self.ptr is not None:
            cupy.cuda.get_current_stream().synchronize()  # the copy is done before the memory is unlocked
            cupy.cuda.runtime.hostUnregister(self.ptr)


def to_device(a: np.ndarray):
    """A host array on the GPU (page-locked for the copy when large)."""
    import cupy

    a = np.ascontiguousarray(a)
    with _PageLocked(a):
        return cupy.asarray(a)


def from_device(d, out: np.ndarray) -> None:
    """A GPU array copied into the contiguous host array `out` (page-locked for the copy when large)."""
    with _PageLocked(out):
        d.get(out=out)


@dataclass
class DeviceGraph:
    """A CSR on the GPU: indptr int64, indices int32, weights float64 (CuPy), and what the
    launchers need to know about it."""

    indptr: object
    indices: object
    weights: object
    n: int
    m: int
    w_min: float  # NaN if a weight is NaN (the reductions propagate it)
    mean_degree: float
    max_degree: int
    w_max: float = 0.0
    sliced: dict = field(default_factory=dict)  # (blocks, slice) -> pardijkstra-sliced's edge layout

    @classmethod
    def upload(cls, indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray, n: int) -> DeviceGraph:
        """Copies the arrays as they are (a planner's int32 rows and float32 weights are half the
        bytes) and widens them on the GPU, where the summaries are taken too."""
        import cupy

        d_indptr = to_device(indptr).astype(cupy.int64, copy=False)
        d_indices = to_device(indices).astype(cupy.int32, copy=False)
        d_weights = to_device(weights).astype(cupy.float64, copy=False)
        m = int(indptr[-1]) if n else 0
        return cls(d_indptr, d_indices, d_weights, n, m, float(d_weights.min()) if m else 0.0, m / n if n else 0.0,
                   int(cupy.diff(d_indptr).max()) if n else 0, float(d_weights.max()) if m else 0.0)

    def weights_finite(self) -> bool:
        """Whether every weight is finite, from the extremes the upload took (sssp's GPU path
        checks it). A reduction of its own (isfinite, then all) added 45-50 ms to a 4096^2 maze's
        upload, warm-up or not (run 58); the maximum costs what the minimum does."""
        return not self.m or (math.isfinite(self.w_min) and math.isfinite(self.w_max))

    def sliced_edges(self, blocks: int, slice_: int) -> tuple:
        """pardijkstra-sliced's layout (sssp/slice_dijkstra.h, SlicedEdges): the edges
        grouped by the block that owns their target, then by source, and the offset table, (n + 1)
        entries a block; and the follower's table (SliceDijkstraState::light: each vertex's least
        target over its edges of the least weight). Made the first time a graph runs with this
        shape, and kept, like the upload: (indices, weights, offsets, light, seconds it took). Rows
        sorted by target (the generators' graphs, canonical scipy matrices) take two passes and a
        prefix sum (kernels/slice_dijkstra.cu); others a device sort."""
        import cupy

        key = (blocks, slice_)
        if key not in self.sliced:
            if self.m >= 2**32:
                raise OutOfReach(f"pardijkstra-sliced: {self.m:,} edges do not fit its 32-bit edge offsets")
            self.sliced.clear()  # one layout at a time: each is as large as the graph
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            layout = self._sliced_by_rows(blocks, slice_) if self._rows_by_target() else \
                self._sliced_by_sort(blocks, slice_)
            light = cupy.empty(self.n, cupy.uint32)
            _module("slice_dijkstra").get_function("sssp_light_successors")(
                (min(-(-self.n * 32 // BLOCK), 65535 * 8),), (BLOCK,),
                (self.indptr, self.indices, self.weights, np.uint32(self.n), np.float64(self.w_min), light))
            end.record()
            end.synchronize()
            self.sliced[key] = (*layout, light, cupy.cuda.get_elapsed_time(start, end) / 1e3)
        return self.sliced[key]

    def _rows_by_target(self) -> bool:
        import cupy

        if self.m < 2:
            return True
        starts = cupy.zeros(self.m, cupy.bool_)
        starts[self.indptr[:-1][self.indptr[:-1] < self.m]] = True
        return bool(cupy.all((self.indices[1:] >= self.indices[:-1]) | starts[1:]))

    def _sliced_by_rows(self, blocks: int, slice_: int) -> tuple:
        import cupy

        mod, u32 = _module("slice_dijkstra"), np.uint32
        counts = cupy.zeros(blocks * (self.n + 1), cupy.uint32)
        launch = (min(-(-blocks * self.n // BLOCK), 65535 * 8),)
        mod.get_function("sssp_slice_layout_count")(
            launch, (BLOCK,), (self.indptr, self.indices, u32(self.n), u32(blocks), u32(slice_), counts))
        offsets = cupy.cumsum(counts, dtype=cupy.uint32)  # counts[b (n + 1) + u + 1]: the prefix sum is the table
        indices = cupy.empty(self.m, cupy.int32)
        weights = cupy.empty(self.m, cupy.float64)
        mod.get_function("sssp_slice_layout_copy")(
            (min(-(-blocks * self.n * 32 // BLOCK), 65535 * 8),), (BLOCK,),
            (self.indptr, self.indices, self.weights, u32(self.n), u32(blocks), u32(slice_), offsets, indices, weights))
        return indices, weights, offsets

    def _sliced_by_sort(self, blocks: int, slice_: int) -> tuple:
        import cupy

        rows = cupy.searchsorted(self.indptr, cupy.arange(self.m, dtype=cupy.int64), side="right") - 1
        group = (self.indices // slice_).astype(cupy.int64) * self.n + rows
        del rows
        order = cupy.argsort(group)
        group = group[order]
        table = (cupy.arange(blocks, dtype=cupy.int64)[:, None] * self.n
                 + cupy.arange(self.n + 1, dtype=cupy.int64)[None, :]).ravel()
        offsets = cupy.searchsorted(group, table).astype(cupy.uint32)
        return self.indices[order], self.weights[order], offsets


@cache
def _module(stem: str):
    from queues_cuda.build import INCLUDE_DIR as GQ_INCLUDE
    from queues_cuda.build import cuda_module

    return cuda_module(0, (), KERNEL_DIR / f"{stem}.cu", include_dirs=(GQ_INCLUDE, INCLUDE_DIR))


@cache
def _blocks(stem: str, name: str, block: int = BLOCK) -> int:
    """Blocks of `name`, `block` threads each, to launch: all resident at once (the barrier needs
    every block running), at most BLOCKS_PER_SM per SM."""
    import cupy

    from queues_cuda.cuda_runtime import resident_threads

    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    resident = resident_threads(_module(stem).get_function(name), block) // block
    if resident < 1:
        raise GQError(f"{name}: not even one block of {block} threads can be resident on this GPU")
    return max(1, min(resident, sms * BLOCKS_PER_SM))


def block_width(algorithm: str, block: int | None = None) -> int:
    """Threads a block of `algorithm`'s grid kernel: near-far and bellman-ford take `block` (one
    of NEAR_FAR_BLOCKS; default NEAR_FAR_BLOCK); the parDijkstra forms set their own."""
    stem = KERNELS[algorithm][0]
    if stem != "near_far":
        if block is not None:
            raise GQError(f"block: only near-far and bellman-ford take a block width; {algorithm} sets its own")
        return BLOCK
    if block is None:
        return NEAR_FAR_BLOCK
    if block not in NEAR_FAR_BLOCKS:
        raise GQError(f"block: expected one of {', '.join(map(str, NEAR_FAR_BLOCKS))}, got {block!r}")
    return block


def warm_up(algorithm: str) -> float:
    """Start the GPU's context and load every kernel an upload and a run of `algorithm` use (its
    own, the predecessor pass, CuPy's conversions and reductions), by uploading a one-edge graph
    in a planner's dtypes and running `algorithm` on it; so that a run timed next times the
    work, not the start-up (on a fresh machine, where the kernels are compiled: 2.86 s, run 50).
    Returns the seconds it took, which the commands print apart."""
    started = time.perf_counter()
    tiny = DeviceGraph.upload(np.array([0, 1, 1], np.int32), np.array([1], np.int32), np.array([1.0], np.float32), 2)
    run_cuda(tiny, 0, algorithm)
    return time.perf_counter() - started


def kernel_shape(algorithm: str) -> dict:
    """Blocks, threads and the compile's register count of an algorithm's kernel (for logs; for
    pardijkstra-sliced, its cluster form, which graphs of up to about 230,000 vertices take)."""
    stem, name = KERNELS[algorithm]
    if stem == "slice_dijkstra":
        blocks = PORTABLE_CLUSTER_BLOCKS if _large_cluster_ok[0] is False else CLUSTER_BLOCKS
        width = 512
        name = CLUSTER_KERNELS[blocks, width]
    else:
        width = block_width(algorithm)
        blocks = _blocks(stem, name, width)
    a = _module(stem).get_function(name).attributes
    return {"kernel": name, "blocks": blocks, "threads_per_block": width,
            "registers": int(a["num_regs"]), "local_bytes": int(a["local_size_bytes"])}


def run_cuda(g: DeviceGraph, source: int, algorithm: str, limit: float = np.inf, d: int = 1,
             delta: float = 1.0, budget_s: float | None = None, own_cap: int = OWN_ITEMS,
             local_passes: int | None = None, block: int | None = None):
    """Shortest paths on the GPU: (dist float64, pred int64 with -9999, stats dict), CuPy arrays.
    The work is queued on the current stream; reading the stats synchronises. `own_cap` (near-far
    and bellman-ford, 1..OWN_ITEMS): block 0's own frontier lists in its local rounds; smaller
    only to test their spill into the device lists. `local_passes` (0..LOCAL_PASSES): how large a
    round block 0 takes alone (default: NEAR_FAR_LOCAL_PASSES for near-far and bellman-ford,
    LOCAL_PASSES for the others); 0, none (tools/gpu_round_probe.py prices the grid's rounds so).
    `block`: threads a block (near-far and bellman-ford: one of NEAR_FAR_BLOCKS)."""
    import cupy

    if algorithm not in KERNELS:
        raise GQError(f"--algorithm: {algorithm!r} has no GPU form; GPU forms: {', '.join(KERNELS)}")
    n, u32, u64, f64 = g.n, np.uint32, np.uint64, np.float64
    stem, name = KERNELS[algorithm]
    lanes, ch = advance_shape(g.mean_degree)
    width = block_width(algorithm, block)
    if stem == "slice_dijkstra":
        return _run_sliced(g, source, limit, budget_s, lanes)
    fn = _module(stem).get_function(name)
    blocks = _blocks(stem, name, width)
    if stem == "near_far" and not 1 <= own_cap <= OWN_ITEMS:
        raise GQError(f"own_cap: expected 1..{OWN_ITEMS}, got {own_cap!r}")
    if local_passes is None:
        local_passes = NEAR_FAR_LOCAL_PASSES if stem == "near_far" else LOCAL_PASSES
    if not 0 <= local_passes <= LOCAL_PASSES:  # near-far's device lists keep a spare for this many (local_spare)
        raise GQError(f"local_passes: expected 0..{LOCAL_PASSES}, got {local_passes!r}")
    local = local_passes * width // lanes
    item_cap = n + -(-g.m // ch) + 1
    if stem == "near_far":  # its local rounds may push past that: sssp::local_spare
        item_cap += min(local, item_cap + own_cap) * ch + own_cap
    if item_cap >= 2**32:
        raise GQError(f"graph too large for the GPU forms: {item_cap} work items do not fit 32-bit counters")
    dist = cupy.full(n, INF_BITS, cupy.uint64)
    dist[source] = 0
    ctl = cupy.zeros(WORDS, cupy.uint32)
    err = cupy.zeros(4, cupy.uint32)
    stats = cupy.zeros(4, cupy.uint64)
    mark = cupy.zeros(n, cupy.uint32)
    budget_ns = u64(int(budget_s * 1e9) if budget_s else 0)
    local = u32(local)
    graph = (g.indptr, g.indices, g.weights, u32(n), u32(source), f64(limit))
    if stem == "near_far":
        step = np.inf if algorithm == "bellman-ford" else float(delta)
        items = [cupy.empty(item_cap, cupy.uint64) for _ in range(2)]
        far = [cupy.empty(max(n, 1), cupy.uint32) for _ in range(2)]
        in_far = cupy.zeros(n, cupy.uint32)
        nearest = cupy.full(2, INF_BITS, cupy.uint64)
        fn((blocks,), (width,), (*graph, f64(step), dist, items[0], items[1], u32(item_cap), far[0], far[1], in_far,
                                 mark, nearest, stats, ctl, u32(lanes), u32(ch), budget_ns, local, u32(own_cap),
                                 err))
    else:
        d = max(1, min(int(d), MAX_BATCH))
        levels = levels_for(n, d)
        _ensure_stack(fn, levels)
        heap_mem = cupy.empty(heap_entries(d, levels) * 2, cupy.uint64)  # 16-byte entries
        heap_sizes = cupy.zeros(2 * levels, cupy.uint32)
        w_min = g.w_min if algorithm == "pardijkstra-batched" else -1.0
        items = cupy.empty(item_cap, cupy.uint64)
        updates = cupy.empty(max(n, 1), cupy.uint32)
        settled = cupy.zeros(n, cupy.uint8)
        batch = cupy.empty(2 * d, cupy.uint64)
        fn((blocks,), (BLOCK,), (*graph, f64(w_min), heap_mem, heap_sizes, u32(d), u32(levels), dist, items,
                                 u32(item_cap), updates, mark, settled, batch, stats, ctl, u32(lanes), u32(ch),
                                 budget_ns, local, err))
    return _finish_run(g, algorithm, name, f"{n} vertices, {g.m} edges, source {source}, {blocks} blocks x {width}",
                       err, ctl, stats, dist, source, lanes, budget_s)


def _finish_run(g: DeviceGraph, algorithm: str, kernel: str, context: str, err, ctl, stats, dist, source: int,
                lanes: int, budget_s: float | None):
    """The end of every GPU run: the error flag, the budget stop, then the predecessor passes."""
    import cupy

    raise_if_flagged(err.get(), f"{kernel}[cuda, {algorithm}]", context)
    if int(ctl.get()[ABORT_WORD]):
        raise OverBudget(f"{algorithm}: stopped after its time budget of {budget_s:g} s "
                         f"({int(stats.get()[0]):,} rounds done)")
    pred = predecessors_cuda(g, dist, source, lanes)
    names = ("rounds", "relaxations", "improvements", "heap_updates")
    return dist.view(cupy.float64), pred, dict(zip(names, (int(x) for x in stats.get())))


#: pardijkstra-sliced's GPU forms: "cluster" (one thread-block cluster) where the slices of the
#: portable cluster (PORTABLE_CLUSTER_BLOCKS) fit, else "grid" (one block of BLOCK threads per SM).
SLICED_FORMS = ("auto", "grid", "cluster")
#: Blocks of the cluster form: 16, a size over the portable 8 that needs the non-portable
#: attribute (the H200 places it), and 8 where a GPU cannot launch 16. At 16 the seed DAG takes
#: 1.97 against 2.39 us a round at 1 M edges, 2.72 against 3.34 at 300 M (run 89).
CLUSTER_BLOCKS = 16
PORTABLE_CLUSTER_BLOCKS = 8
#: The cluster form's kernels by (blocks, block width) (kernels/slice_dijkstra.cu).
CLUSTER_KERNELS = {(8, 512): "sssp_slice_dijkstra_cluster", (8, 1024): "sssp_slice_dijkstra_cluster_wide",
                   (16, 512): "sssp_slice_dijkstra_cluster16", (16, 1024): "sssp_slice_dijkstra_cluster16_wide"}
SLICED_KERNELS = {"grid": "sssp_slice_dijkstra_grid", "cluster": CLUSTER_KERNELS[CLUSTER_BLOCKS, 512]}


def cluster_width(g: DeviceGraph, blocks: int = CLUSTER_BLOCKS) -> int:
    """Threads a cluster block. On 16 blocks 512 (it beat 1024 at 1 M and at 300 M edges on the
    seed DAG: 1.97 against 2.36 and 2.72 against 2.89 us a round, run 89). On 8, 1024 once an
    average round gives each block more edges than 512 threads load in one pass, else 512 (run
    42: 512 won at 1 M and 30 M edges, 3.30 and 3.80 us a round against 3.57 and 4.04; 1024 at 300
    M, 4.73 against 5.30)."""
    if blocks > PORTABLE_CLUSTER_BLOCKS:
        return 512
    per_block = g.m / max(g.n, 1) / blocks
    return 1024 if per_block > 512 else 512


#: Whether this process's GPU launched (None: not tried yet) a cluster of CLUSTER_BLOCKS.
_large_cluster_ok: list[bool | None] = [None]


@cache
def _sliced_limits() -> tuple[int, int]:
    """(SMs, shared memory a block may opt in to) of this GPU, read once."""
    import cupy

    attrs = cupy.cuda.Device().attributes
    return attrs["MultiProcessorCount"], attrs["MaxSharedMemoryPerBlockOptin"]


def sliced_shape(n: int, form: str = "grid", cluster_blocks: int = CLUSTER_BLOCKS) -> tuple[int, int, bool]:
    """(blocks, vertices a block owns, whether a block's offset table fits in its shared memory
    too) of pardijkstra-sliced's `form` on this GPU: the grid's one block per SM, or the
    cluster's `cluster_blocks`; each block's slice of keys in its shared memory. Raises when the
    slice does not fit there."""
    sms, optin = _sliced_limits()
    blocks = cluster_blocks if form == "cluster" else sms
    slice_ = max(1, -(-n // blocks))
    room = optin - SLICED_STATIC_SHARED
    if slice_ * 8 > room:
        raise OutOfReach(f"pardijkstra-sliced: {n:,} vertices do not fit: each of the {blocks} blocks keeps "
                         f"{slice_:,} keys (8 bytes each) in its shared memory, which has room for {room // 8:,}; "
                         f"at most {room // 8 * blocks:,} vertices on this GPU (use pardijkstra or near-far)")
    return blocks, slice_, slice_ * 8 + (n + 1) * 4 <= room


#: Static shared memory of the sliced kernels besides their dynamic part (SliceScratch, the grid's
#: verdict word, the cluster's inbox of offers and its two mbarriers, rounded up); the launcher
#: checks the compiled figure.
SLICED_STATIC_SHARED = 2048
#: sssp::kProfileWords: a block's words of pardijkstra-sliced's profile
SLICED_PROFILE_WORDS = 6
#: sssp::kSlotWords: words of one published slot (a 128-byte line of its own)
SLICED_SLOT_WORDS = 16


#: Edges a vertex on average from which "auto" takes the grid form even where the cluster fits:
#: with rows this long a round waits on its edge loads, which the grid's 132 blocks share out
#: more thinly than the cluster's 16. The seed DAG (n = 30,000, follower on), grid against
#: cluster: 48-50 / 40-42 ms at 1 M edges (runs 95-98), 61.0 / 45.6 at 100 M and 60.6 / 55.0 at
#: 200 M (run 99), 58.8-59.6 / 60.9-62.8 at 300 M (runs 95-98): the lines cross near 270 M,
#: 9,000 edges a vertex. (Run 99 ran with 5,000, which took the grid at 200 M.)
GRID_EDGES_PER_VERTEX = 9_000


def sliced_form(n: int, m: int = 0) -> str:
    """The form "auto" picks for n vertices and m edges: the cluster where the portable
    cluster's slices (n / PORTABLE_CLUSTER_BLOCKS keys a block) fit, about 230,000 vertices on an
    H200, unless the rows are long (GRID_EDGES_PER_VERTEX); else the grid. (Larger slices would fit
    16 blocks, but a round's rescan of the winner's slice grows with them.)"""
    try:
        sliced_shape(n, form="cluster", cluster_blocks=PORTABLE_CLUSTER_BLOCKS)
    except OutOfReach:
        return "grid"
    return "grid" if m >= GRID_EDGES_PER_VERTEX * max(n, 1) else "cluster"


def _run_sliced(g: DeviceGraph, source: int, limit: float, budget_s: float | None, lanes: int,
                form: str = "auto", width: int | None = None, profile=None, cluster_blocks: int | None = None,
                follow: bool = True):
    """pardijkstra-sliced: its edge layout (made once per graph, DeviceGraph.sliced_edges), the
    persistent kernel, then the predecessor passes. `form`: SLICED_FORMS. Measuring aids
    (tools/gpu_slice_probe.py): `width`, the cluster form's block width (512 or 1024) instead of
    cluster_width's choice; `cluster_blocks`, the cluster's blocks (8 or 16) instead of
    CLUSTER_BLOCKS with its fallback to PORTABLE_CLUSTER_BLOCKS; `profile`, a
    CuPy uint64[SLICED_PROFILE_WORDS x blocks] each block adds its thread 0's cycles in reduce,
    tournament and relax, its slot re-reads, and its cycles in relax and count of the rounds whose
    minimum it owned, to; `follow`, False to run without the follower (sssp/slice_dijkstra.h)."""
    if form not in SLICED_FORMS:
        raise GQError(f"sliced form: {form!r}; allowed: {', '.join(SLICED_FORMS)}")
    if form == "auto":
        form = sliced_form(g.n, g.m)
    if form == "grid" or cluster_blocks is not None:
        return _launch_sliced(g, source, limit, budget_s, lanes, form, width, profile, cluster_blocks, follow)
    if _large_cluster_ok[0] is not False:
        try:
            result = _launch_sliced(g, source, limit, budget_s, lanes, form, width, profile, CLUSTER_BLOCKS, follow)
            _large_cluster_ok[0] = True
            return result
        except _Unplaceable:
            _large_cluster_ok[0] = False  # this GPU cannot place CLUSTER_BLOCKS blocks: the portable size
    return _launch_sliced(g, source, limit, budget_s, lanes, form, width, profile, PORTABLE_CLUSTER_BLOCKS, follow)


class _Unplaceable(Exception):
    """A cluster over the portable size that this GPU refused to launch."""


def _launch_sliced(g: DeviceGraph, source: int, limit: float, budget_s: float | None, lanes: int, form: str,
                   width: int | None, profile, cluster_blocks: int | None, follow: bool = True):
    """_run_sliced's launch of one form ("grid" or "cluster" of `cluster_blocks` blocks)."""
    import cupy

    n = g.n
    if form == "cluster":
        width = width or cluster_width(g, cluster_blocks)
        name = CLUSTER_KERNELS[cluster_blocks, width]
    else:
        width, name = BLOCK, SLICED_KERNELS["grid"]
    fn = _module("slice_dijkstra").get_function(name)
    if form == "cluster" and cluster_blocks > PORTABLE_CLUSTER_BLOCKS:
        # CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED (cuda.h), which CuPy does not name
        cupy.cuda.driver.funcSetAttribute(fn.kernel.ptr, 14, 1)
    blocks, slice_, table_in_shared = sliced_shape(n, form, cluster_blocks or CLUSTER_BLOCKS)
    static = int(fn.attributes["shared_size_bytes"])
    if static > SLICED_STATIC_SHARED:
        raise GQError(f"{name} uses {static} bytes of static shared memory, more than the "
                      f"{SLICED_STATIC_SHARED} its launcher reserves")
    dynamic = slice_ * 8 + ((n + 1) * 4 if table_in_shared else 0)
    # The cluster's offers carry the follower (sssp/slice_dijkstra.h): each block's slice of the
    # light successors in its shared memory after the rest, where it fits.
    room = _sliced_limits()[1] - SLICED_STATIC_SHARED
    light_in_shared = form == "cluster" and follow and dynamic + slice_ * 4 <= room
    dynamic += slice_ * 4 if light_in_shared else 0
    fn.max_dynamic_shared_size_bytes = max(fn.max_dynamic_shared_size_bytes, dynamic)
    per_sm = cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(fn.kernel.ptr, width, dynamic)
    if per_sm < 1:
        raise GQError(f"{name}: a block of {width} threads with {dynamic} bytes of shared "
                      "memory cannot be resident on this GPU")
    indices, weights, offsets, light, _ = g.sliced_edges(blocks, slice_)
    dist = cupy.empty(n, cupy.uint64)  # every block writes its slice's
    slots = cupy.zeros(2 * blocks * SLICED_SLOT_WORDS, cupy.uint64)
    ctl = cupy.zeros(WORDS, cupy.uint32)
    err = cupy.zeros(4, cupy.uint32)
    stats = cupy.zeros(4, cupy.uint64)
    budget_ns = np.uint64(int(budget_s * 1e9) if budget_s else 0)
    head = (np.uint32(n), np.uint32(source), np.float64(limit), dist, indices, weights, offsets,
            np.uint32(table_in_shared))
    tail = (np.uint32(slice_), stats, ctl, budget_ns, profile if profile is not None else np.uint64(0), err,
            light if follow else np.uint64(0), np.float64(g.w_min))
    try:
        fn((blocks,), (width,), (*head, slots, *tail) if form == "grid" else (*head, *tail, np.uint32(light_in_shared)),
           shared_mem=dynamic)
    except cupy.cuda.driver.CUDADriverError as e:
        if form == "cluster" and cluster_blocks > PORTABLE_CLUSTER_BLOCKS and not _large_cluster_ok[0]:
            raise _Unplaceable(str(e)) from e
        raise
    return _finish_run(g, "pardijkstra-sliced", name,
                       f"{n} vertices, {g.m} edges, source {source}, {blocks} blocks x {width}, slice {slice_}",
                       err, ctl, stats, dist, source, lanes, budget_s)


# Stack a heap level can take on the GPU: Fill(i) calls Empty(i + 1) and Fill(i + 1), each a
# frame of the wrapper, the scheduler and the body (empty_at / fill_at); about 270 bytes each for
# sm_90 today (ptxas -v), with room to spare.
LEVEL_STACK = 2 * 320


def _ensure_stack(fn, levels: int) -> None:
    """Empty and Fill recurse down the heap's levels (block_bucket_heap.h), so ptxas cannot size
    the stack: CUDA's limit (1 KiB a thread by default) must hold the kernel's own frame
    (`local_size_bytes`) plus LEVEL_STACK a level. The limit is per context and reserves memory for
    every resident thread, so it only ever grows. (A kernel frame of 3.7 KB once overflowed the
    old fixed 1 KiB + 384 bytes a level: every later launch in the process failed.)"""
    import cupy

    rt = cupy.cuda.runtime
    stack = getattr(rt, "cudaLimitStackSize", 0)  # cudaLimit's value 0 where CuPy has no name for it
    need = int(fn.attributes["local_size_bytes"]) + (levels + 2) * LEVEL_STACK
    if rt.deviceGetLimit(stack) < need:
        rt.deviceSetLimit(stack, need)


def predecessors_cuda(g: DeviceGraph, dist, source: int, lanes: int):
    """include/sssp/predecessors.h's passes on the GPU: pass 1, then passes 2, 3, ... only while
    tight equal-distance edges leave vertices unclaimed."""
    import cupy

    fn = _module("predecessors").get_function("sssp_predecessor_pass")
    pred = cupy.full(g.n, -9999, cupy.int64)
    level = cupy.zeros(g.n, cupy.uint32)
    level[source] = 1
    count = cupy.zeros(1, cupy.uint32)
    blocks = max(1, min(-(-g.n * lanes // BLOCK), 65535))
    for p in range(1, g.n + 2):
        count.fill(0)
        fn((blocks,), (BLOCK,), (g.indptr, g.indices, g.weights, np.uint32(g.n), dist, np.uint32(source),
                                 np.uint32(p), np.uint32(lanes), pred, level, count))
        if int(count.get()[0]) == 0:
            break
    return pred


def run_block_heap_cuda(prog, n_keys: int, d: int, width: int = BLOCK, per_level: bool = False) -> list:
    """A heap program (sssp_demo.bucket_heap.HeapProgram) run by ONE block of `width` threads
    through parBucketHeap's block form (kernels/block_heap.cu), or with `per_level` by one such
    block a level (sssp/level_bucket_heap.h); one result per ExtractMin: (key, priority), or None
    when the heap was empty."""
    import cupy

    levels = levels_for(n_keys, d)
    mem = cupy.empty(heap_entries(d, levels) * 2, cupy.uint64)
    sizes = cupy.zeros(2 * levels, cupy.uint32)
    batch = cupy.empty(2 * d, cupy.uint64)
    types = np.asarray(prog.types, np.uint32)
    n_out = max(int((types == 2).sum()), 1)
    out_key, out_prio = cupy.zeros(n_out, cupy.uint32), cupy.zeros(n_out, cupy.float64)
    out_ok, err = cupy.zeros(n_out, cupy.uint8), cupy.zeros(4, cupy.uint32)
    program = (batch, cupy.asarray(types), cupy.asarray(np.asarray(prog.counts, np.uint32)), np.uint64(len(types)),
               cupy.asarray(np.asarray(prog.keys + [0], np.uint32)),
               cupy.asarray(np.asarray(prog.prios + [0.0], np.float64)), out_key, out_prio, out_ok, err)
    heap = (mem, sizes, np.uint32(d), np.uint32(levels))
    name = "sssp_level_heap_program" if per_level else "sssp_block_heap_program"
    fn = _module("block_heap").get_function(name)
    _ensure_stack(fn, levels)
    if per_level:  # one block a level: all resident at once (levels is far below the SM count)
        scratch = cupy.empty(2 * level_scratch_entries(d, levels), cupy.uint64)  # 16-byte entries
        mail = cupy.zeros(2 * levels, cupy.uint32)  # req, then ack
        fn((levels,), (width,), (*heap, scratch, mail[:levels], mail[levels:], *program))
    else:
        fn((1,), (width,), (*heap, *program))
    raise_if_flagged(err.get(), f"{name}[cuda]", f"d={d}, {levels} levels, {width} threads")
    n = int((types == 2).sum())
    keys, prios, oks = out_key.get()[:n], out_prio.get()[:n], out_ok.get()[:n]
    return [(int(k), float(v)) if ok else None for k, v, ok in zip(keys, prios, oks)]


#: The grid barrier probe's "no stop" and "no error" (sssp::BarrierProbe::stop_after, fail_after).
NO_STOP = 0xFFFFFFFF


def barrier_probe_cuda(blocks_per_sm: int, width: int, rounds: int, stop_after: int | None = None,
                       tally: bool = True, fail_after: int | None = None) -> tuple:
    """The grid barrier alone on the GPU (kernels/grid_barrier.cu): `blocks_per_sm` blocks of
    `width` threads on every SM meet at `rounds` barriers, with the round tally checked after each
    (`tally`) or not (then a round is the barrier alone: its cost), the leader's stop after round
    `stop_after`, and an error the last thread raises in round `fail_after`. Returns (passed per
    block, tally per round or None, seconds by CUDA events); with `fail_after`, whose error is
    expected, the four error words come back in place of the seconds instead of an exception."""
    import cupy

    from queues_cuda.cuda_runtime import resident_threads

    fn = _module("grid_barrier").get_function("sssp_grid_barrier_probe")
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    per_sm = resident_threads(fn, width) // (width * sms)
    if not 1 <= blocks_per_sm <= per_sm:
        raise GQError(f"blocks_per_sm: {blocks_per_sm}; blocks of {width} threads fit 1..{per_sm} an SM here "
                      "(the barrier needs every block resident)")
    blocks = sms * blocks_per_sm
    passed = cupy.zeros(blocks, cupy.uint32)
    counts = cupy.zeros(max(rounds, 1), cupy.uint64) if tally else None
    ctl, err = cupy.zeros(WORDS, cupy.uint32), cupy.zeros(4, cupy.uint32)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    fn((blocks,), (width,), (np.uint32(rounds), np.uint32(NO_STOP if stop_after is None else stop_after),
                            np.uint32(NO_STOP if fail_after is None else fail_after), passed,
                            counts if tally else np.uint64(0), ctl, err))
    end.record()
    end.synchronize()
    if fail_after is not None:
        return passed.get(), (counts.get() if tally else None), err.get()
    raise_if_flagged(err.get(), "sssp_grid_barrier_probe[cuda]", f"{blocks} blocks x {width}, {rounds} rounds")
    return passed.get(), (counts.get() if tally else None), cupy.cuda.get_elapsed_time(start, end) / 1e3


# ------------------------------------------------------------------------------------------ CPU


def run_cpu_grid(indptr, indices, weights, n: int, source: int, algorithm: str, limit: float = np.inf,
                 d: int = 1, delta: float = 1.0, threads: int = 4, ch: int = 4, local_items: int = 2,
                 sliced_form: str = "grid", own_cap: int = OWN_ITEMS, follow: bool = True):
    """The grid forms on the CPU build: `threads` one-thread blocks, `ch` edges per work item,
    rounds of at most `local_items` items on block 0 alone (near-far's in own lists of `own_cap`
    items, spilling past them); pardijkstra-sliced with the grid's tournament or the cluster's
    (`sliced_form`), with its follower or (`follow` False) without. Returns (dist, pred, stats
    dict) as NumPy arrays."""
    from .sssp import _library

    lib = _library()
    dist = np.empty(n, np.float64)
    pred = np.empty(n, np.int64)
    out = np.zeros(4, np.uint64)
    err = np.zeros(4, np.uint32)
    indptr = np.ascontiguousarray(indptr, np.int64)
    indices = np.ascontiguousarray(indices, np.int32)
    weights = np.ascontiguousarray(weights, np.float64)
    ptr = lambda a: a.ctypes.data
    graph = (ptr(indptr), ptr(indices), ptr(weights), n, int(source), float(limit))
    if algorithm in ("near-far", "bellman-ford"):
        step = np.inf if algorithm == "bellman-ford" else float(delta)
        lib.sssp_grid_near_far(*graph, step, threads, ch, local_items, max(1, int(own_cap)), ptr(dist), ptr(pred),
                               ptr(out), ptr(err))
    elif algorithm in ("pardijkstra", "pardijkstra-batched"):
        w_min = (float(weights.min()) if weights.size else 0.0) if algorithm == "pardijkstra-batched" else -1.0
        lib.sssp_grid_par_dijkstra(*graph, w_min, max(1, min(int(d), MAX_BATCH)), threads, ch, local_items,
                                   ptr(dist), ptr(pred), ptr(out), ptr(err))
    elif algorithm == "pardijkstra-sliced":
        if sliced_form not in SLICED_FORMS[1:]:
            raise GQError(f"sliced form: {sliced_form!r}; allowed: {', '.join(SLICED_FORMS[1:])}")
        if n > SLICED_CPU_MAX_VERTICES:
            raise OutOfReach(f"pardijkstra-sliced on the CPU: {n:,} vertices; its CPU build scans every slice "
                             f"each round, so it takes at most {SLICED_CPU_MAX_VERTICES:,} "
                             "(use pardijkstra or near-far on the CPU, or the GPU)")
        lib.sssp_grid_slice_dijkstra(*graph, threads, int(sliced_form == "cluster"), int(follow), ptr(dist), ptr(pred),
                                     ptr(out), ptr(err))
    else:
        raise GQError(f"--algorithm: {algorithm!r} has no grid form; grid forms: {', '.join(KERNELS)}")
    raise_if_flagged(err, f"{algorithm}[cpu grid form]", f"{n} vertices, source {source}, {threads} threads")
    return dist, pred, dict(zip(("rounds", "relaxations", "improvements", "heap_updates"), (int(x) for x in out)))
