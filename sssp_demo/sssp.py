"""`sssp`: single-source shortest paths with a scipy-like interface.

    dist, pred = sssp(csgraph, indices=0, algorithm="pardijkstra", backend="auto")

mirrors ``scipy.sparse.csgraph.dijkstra(csgraph, indices=..., return_predecessors=True,
limit=...)``: a square sparse (or dense) matrix of non-negative weights, where every stored
entry is an edge (explicit zeros are zero-weight edges); distances float64 with inf where
unreachable; predecessors int64 with scipy's -9999 where there is none.

Algorithms: ``pardijkstra`` (seed 000: Dijkstra's rounds over parBucketHeap, BulkUpdate batches
of up to d entries, d = the largest out-degree unless given), ``pardijkstra-batched`` (each round
settles every vertex within the smallest edge weight of the minimum: Crauser et al.'s criterion,
exact, far fewer rounds where weights are large against the spread of distances),
``pardijkstra-sliced`` (the same rounds as ``pardijkstra`` over a priority queue cut into one
slice of vertices per block, its keys in shared memory, ExtractMin a tournament of the slices'
minima: include/sssp/slice_dijkstra.h; graphs of up to a few million vertices), the
baselines ``near-far`` (delta-stepping with a near and a far pile, Delta = 32 x mean weight /
mean degree unless given, as Davidson et al. choose it) and ``bellman-ford`` (the frontier
"workfront sweep"), and ``scipy`` (the reference).
Backends: ``cpu`` runs the serial forms (include/sssp/par_dijkstra.h, near_far.h,
bellman_ford.h) built by the system compiler (``pardijkstra-sliced``: its grid form on
SLICED_CPU_THREADS std::threads); ``cuda`` runs the grid forms (one persistent kernel
per run, sssp_demo/grid_forms.py); ``auto`` takes ``cuda`` where a GPU answers. ``scipy`` always
runs on the CPU. Both backends give exactly scipy's distances; predecessors may differ from
scipy's where two shortest paths tie, but every one of them realises its vertex's distance.
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from queues_cuda import build as qbuild
from queues_cuda.backend import BACKENDS
from queues_cuda.errors import GQError, raise_if_flagged

from . import graph_io

ALGORITHMS = ("pardijkstra", "pardijkstra-batched", "pardijkstra-sliced", "near-far", "bellman-ford", "scipy")
#: std::threads (one-thread blocks) pardijkstra-sliced runs on with the CPU backend.
SLICED_CPU_THREADS = 4
NO_PREDECESSOR = graph_io.NO_PREDECESSOR
MAX_BATCH = 4096
PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass
class SsspStats:
    rounds: int = 0          # extract-min rounds (one vertex each for pardijkstra)
    relaxations: int = 0     # edges examined
    improvements: int = 0    # relaxations that lowered a tentative distance
    heap_updates: int = 0    # entries handed to BulkUpdate
    # Wall seconds by phase (added to): the graph's copy to the GPU, the search (with the
    # predecessors; all of a CPU run), the results' copy back.
    upload_seconds: float = 0.0
    search_seconds: float = 0.0
    download_seconds: float = 0.0
    copied_out: str = ""  # what the copy back held, where it was not every distance and predecessor

    def phases(self, backend: str) -> str:
        """The phases' seconds as the commands print them."""
        search = f"search {self.search_seconds:.3f} s, {self.rounds:,} rounds"
        if backend != "cuda":
            return search
        what = f" ({self.copied_out})" if self.copied_out else ""
        return f"copy in {self.upload_seconds:.3f} s, {search}, copy out {self.download_seconds:.3f} s{what}"


@lru_cache(maxsize=None)
def _library() -> ctypes.CDLL:
    flags = qbuild.LIBRARY_FLAGS + ("-pthread",)  # the grid forms' CPU build runs std::threads
    include_dirs = (qbuild.INCLUDE_DIR, PACKAGE_DIR / "include")
    lib = ctypes.CDLL(str(qbuild.compile_library(PACKAGE_DIR / "host" / "sssp_cpu.cpp", flags, "libsssp_cpu",
                                                 include_dirs=include_dirs)))
    u32, p = ctypes.c_uint32, ctypes.c_void_p
    lib.sssp_par_dijkstra.restype = u32
    f64 = ctypes.c_double
    lib.sssp_par_dijkstra.argtypes = [p, p, p, u32, u32, f64, f64, u32, p, p, p, p]
    lib.sssp_bellman_ford.restype = u32
    lib.sssp_bellman_ford.argtypes = [p, p, p, u32, u32, f64, p, p, p]
    lib.sssp_near_far.restype = u32
    lib.sssp_near_far.argtypes = [p, p, p, u32, u32, f64, f64, p, p, p]
    lib.sssp_grid_near_far.restype = u32
    lib.sssp_grid_near_far.argtypes = [p, p, p, u32, u32, f64, f64, u32, u32, u32, u32, p, p, p, p]
    lib.sssp_grid_par_dijkstra.restype = u32
    lib.sssp_grid_par_dijkstra.argtypes = [p, p, p, u32, u32, f64, f64, u32, u32, u32, u32, p, p, p, p]
    lib.sssp_grid_slice_dijkstra.restype = u32
    lib.sssp_grid_slice_dijkstra.argtypes = [p, p, p, u32, u32, f64, u32, u32, u32, p, p, p, p]
    for run in (lib.sssp_block_heap_run, lib.sssp_level_heap_run):
        run.restype = u32
        run.argtypes = [p, p, u32, u32, u32, p, p, ctypes.c_uint64, p, p, p, p, p, p]
    lib.sssp_par_dijkstra_round_counts.restype = u32
    lib.sssp_par_dijkstra_round_counts.argtypes = [p, p, p, u32, u32, u32, u32, u32, u32, p, p]
    lib.sssp_grid_barrier_probe.restype = u32
    lib.sssp_grid_barrier_probe.argtypes = [u32, u32, u32, u32, p, p, p]
    return lib


def check_choices(algorithm: str, backend: str) -> None:
    """The algorithm and backend exist (cheap: commands call it before reading any input)."""
    if algorithm not in ALGORITHMS:
        raise GQError(f"--algorithm: unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}")
    if backend not in BACKENDS:
        raise GQError(f"--backend: unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if backend == "cuda":
        resolve_backend(algorithm, backend)  # no GPU: say so now, before any input is read


def resolve_backend(algorithm: str, backend: str) -> str:
    """The backend that will run: ``cuda`` or ``cpu`` (scipy's dijkstra is always ``cpu``)."""
    from queues_cuda.backend import resolve

    used = resolve(backend)
    return "cpu" if algorithm == "scipy" else used


def check_weights(finite: bool, w_min: float) -> None:
    """The edge weights' rule (finite, >= 0), from their reductions (on the host or the GPU)."""
    if not finite:
        raise GQError("csgraph: edge weights must be finite; found NaN or inf")
    if w_min < 0:
        raise GQError(f"csgraph: negative edge weight {w_min}; shortest paths here need weights >= 0")


def as_csr(csgraph, native: bool = False):
    """The graph as (indptr int64, indices int32, weights float64, n), checked. `native`: the
    arrays as they come (float32 or float64 weights; the GPU path converts them on the device,
    a third of the bytes to copy for a planner's graph) and the weights NOT checked: the GPU path
    checks them there (_upload), where a 4096^2 terrain's 128.8 M weights take a fraction of the
    host's time."""
    import scipy.sparse as sp

    if not sp.issparse(csgraph) and hasattr(csgraph, "get") and hasattr(csgraph, "tocsr"):
        csgraph = csgraph.tocsr().get()  # a CuPy sparse matrix: checked here like any other
    g = sp.csr_matrix(csgraph) if not sp.issparse(csgraph) else csgraph.tocsr()
    if g.ndim != 2 or g.shape[0] != g.shape[1]:
        raise GQError(f"csgraph: expected a square matrix, got shape {g.shape}")
    if g.shape[0] >= 2**31:
        raise GQError(f"csgraph: at most 2^31 - 1 vertices, got {g.shape[0]}")
    keep = native and g.data.dtype in (np.float32, np.float64)
    w = g.data if keep else np.asarray(g.data, np.float64)
    if native:
        return g.indptr, g.indices, w, g.shape[0]
    if w.size:
        check_weights(bool(np.isfinite(w).all()), float(w.min()))
    return np.asarray(g.indptr, np.int64), np.asarray(g.indices, np.int32), w, g.shape[0]


@dataclass
class _Search:
    """What sssp() and route_search() settle before a search: the backend, the CSR, the
    sources, parDijkstra's batch and Near-Far's Delta."""

    used: str
    csr: tuple
    sources: np.ndarray
    d: int
    delta: float | None  # None: Near-Far's default, taken on the GPU from the uploaded weights


def _setup(csgraph, indices, algorithm: str, backend: str, limit: float, d: int | None,
           delta: float | None) -> _Search:
    check_choices(algorithm, backend)
    if not limit >= 0:
        raise GQError(f"limit: expected a number >= 0, got {limit!r}")
    used = resolve_backend(algorithm, backend)
    indptr, idx, w, n = as_csr(csgraph, native=used == "cuda")
    sources = np.atleast_1d(np.asarray(indices))
    if sources.dtype.kind not in "iu" or sources.ndim != 1:
        raise GQError(f"indices: expected a vertex number or a list of them, got {indices!r}")
    for s in sources:
        if not 0 <= s < n:
            raise GQError(f"source {int(s)} is out of range: the graph has {n} vertices (0..{n - 1})")
    if d is None:  # the batch only parDijkstra's heap uses: a pass over the rows spared the others
        d = int(np.diff(indptr).max(initial=1)) if n and algorithm in ("pardijkstra", "pardijkstra-batched") else 1
    d = max(1, min(int(d), MAX_BATCH))
    if delta is None:
        # On the GPU the mean weight is a reduction there (a 4096^2 map's 16.7 M weights took
        # about 25 ms on the host, run 55).
        delta = None if used == "cuda" else near_far_delta(w, n) if algorithm == "near-far" else 1.0
    elif not delta > 0:
        raise GQError(f"delta: expected a number > 0, got {delta!r}")
    return _Search(used, (indptr, idx, w, n), sources, d, delta)


def _search_cuda(device_graph, source: int, algorithm: str, limit: float, setup: _Search, stats: SsspStats):
    """One GPU search, timed into `stats`: the distances and predecessors, still on the GPU."""
    from . import grid_forms

    started = time.perf_counter()
    delta = setup.delta
    if delta is None:
        delta = 1.0
        if algorithm == "near-far" and device_graph.m:
            delta = davidson_delta(float(device_graph.weights.mean()), device_graph.mean_degree)
    d_dist, d_pred, run_stats = grid_forms.run_cuda(device_graph, source, algorithm, limit=limit, d=setup.d,
                                                     delta=delta)  # synchronised: its stats are read
    stats.search_seconds += time.perf_counter() - started
    for name, value in run_stats.items():
        setattr(stats, name, getattr(stats, name) + value)
    return d_dist, d_pred


def _upload(csr: tuple, stats: SsspStats):
    """The graph on the GPU (timed into `stats`), its weights checked there (as_csr's native
    arrays are not)."""
    from . import grid_forms

    started = time.perf_counter()
    device_graph = grid_forms.DeviceGraph.upload(*csr)
    check_weights(device_graph.weights_finite(), device_graph.w_min)
    stats.upload_seconds += time.perf_counter() - started
    return device_graph


def sssp(csgraph, indices=0, algorithm: str = "pardijkstra", backend: str = "auto",
         return_predecessors: bool = True, limit: float = np.inf, d: int | None = None, stats: SsspStats | None = None,
         delta: float | None = None):
    """Shortest paths from `indices` (an int, or a sequence: one row per source, like scipy)."""
    setup = _setup(csgraph, indices, algorithm, backend, limit, d, delta)
    dist, pred = _search_rows(setup, algorithm, limit, stats if stats is not None else SsspStats())
    if np.ndim(indices) == 0:
        dist, pred = dist[0], pred[0]
    return (dist, pred) if return_predecessors else dist


def _search_rows(setup: _Search, algorithm: str, limit: float, stats: SsspStats):
    """sssp()'s searches, one row of distances and predecessors per source."""
    used, sources, d, delta = setup.used, setup.sources, setup.d, setup.delta
    indptr, idx, w, n = setup.csr
    dist = np.empty((len(sources), n), np.float64)
    pred = np.empty((len(sources), n), np.int64)
    device_graph = None
    for row, s in enumerate(sources):
        if used == "cuda":
            from . import grid_forms

            if device_graph is None:
                device_graph = _upload(setup.csr, stats)
            d_dist, d_pred = _search_cuda(device_graph, int(s), algorithm, limit, setup, stats)
            started = time.perf_counter()
            grid_forms.from_device(d_dist, dist[row])  # straight into the result rows
            grid_forms.from_device(d_pred, pred[row])
            stats.download_seconds += time.perf_counter() - started
            continue
        started = time.perf_counter()
        if algorithm == "scipy":
            import scipy.sparse as sp
            from scipy.sparse.csgraph import dijkstra

            g = sp.csr_matrix((w, idx, indptr), shape=(n, n))
            dist[row], p = dijkstra(g, indices=int(s), return_predecessors=True, limit=limit)
            pred[row] = p
            stats.search_seconds += time.perf_counter() - started
            continue
        if algorithm == "pardijkstra-sliced":
            from .grid_forms import run_cpu_grid

            dist[row], pred[row], run_stats = run_cpu_grid(indptr, idx, w, n, int(s), algorithm, limit=limit,
                                                           threads=SLICED_CPU_THREADS)
            stats.search_seconds += time.perf_counter() - started
            for name, value in run_stats.items():
                setattr(stats, name, getattr(stats, name) + value)
            continue
        lib = _library()
        out = np.zeros(4, np.uint64)
        err = np.zeros(4, np.uint32)
        ptr = lambda a: a.ctypes.data  # noqa: E731
        graph = (ptr(indptr), ptr(idx), ptr(w), n, int(s), float(limit))
        if algorithm == "bellman-ford":
            lib.sssp_bellman_ford(*graph, ptr(dist[row]), ptr(pred[row]), ptr(out))
        elif algorithm == "near-far":
            lib.sssp_near_far(*graph, float(delta), ptr(dist[row]), ptr(pred[row]), ptr(out))
        else:
            w_min = (float(w.min()) if w.size else 0.0) if algorithm == "pardijkstra-batched" else -1.0
            lib.sssp_par_dijkstra(*graph, w_min, d, ptr(dist[row]), ptr(pred[row]), ptr(out), ptr(err))
        raise_if_flagged(err, f"sssp_{algorithm}[cpu]", f"{n} vertices, source {int(s)}, d={d}")
        stats.search_seconds += time.perf_counter() - started
        for name, value in zip(("rounds", "relaxations", "improvements", "heap_updates"), out):
            setattr(stats, name, getattr(stats, name) + int(value))
    return dist, pred


def route_search(csgraph, source: int, target: int, algorithm: str = "near-far", backend: str = "auto",
                 stats: SsspStats | None = None) -> tuple[float, np.ndarray]:
    """What a route planner needs from a search from `source`: the distance to `target` (inf if
    it is not reached) and every vertex's predecessor (int32, -9999 where none), from which the
    route is walked back. The search is sssp()'s, over every vertex. On the GPU only these come
    back: a 4096^2 map's int32 predecessors are 67 MB, where sssp()'s float64 distances and
    int64 predecessors are 268 MB, whose copy into fresh host memory took 57-81 ms (runs 52-53)."""
    setup = _setup(csgraph, source, algorithm, backend, np.inf, None, None)
    n = setup.csr[3]
    if not 0 <= target < n:
        raise GQError(f"target {int(target)} is out of range: the graph has {n} vertices (0..{n - 1})")
    stats = stats if stats is not None else SsspStats()
    if setup.used != "cuda":
        dist, pred = _search_rows(setup, algorithm, np.inf, stats)
        return float(dist[0, target]), pred[0].astype(np.int32)
    from . import grid_forms

    d_dist, d_pred = _search_cuda(_upload(setup.csr, stats), int(source), algorithm, np.inf, setup, stats)
    started = time.perf_counter()
    pred = np.empty(n, np.int32)
    grid_forms.from_device(d_pred.astype(np.int32), pred)
    cost = float(d_dist[int(target)].get())
    stats.download_seconds += time.perf_counter() - started
    stats.copied_out = "the predecessors and the goal's distance"
    return cost, pred


def near_far_delta(weights: np.ndarray, n: int) -> float:
    """Davidson et al.'s Delta: warp width (32) x mean edge weight / mean out-degree."""
    if weights.size == 0 or n == 0:
        return 1.0
    return davidson_delta(float(weights.mean(dtype=np.float64)), weights.size / n)


def davidson_delta(mean_weight: float, mean_degree: float) -> float:
    return 32.0 * mean_weight / mean_degree if mean_weight > 0 and mean_degree > 0 else 1.0


def reconstruct_path(pred: np.ndarray, target: int) -> list[int]:
    """Vertices from the source to `target` along the predecessors. A lone ``[target]`` is the
    source itself or a vertex that was not reached (its distance says which), as in scipy, where
    both have predecessor -9999."""
    path = [int(target)]
    while pred[path[-1]] != NO_PREDECESSOR:
        path.append(int(pred[path[-1]]))
        if len(path) > len(pred):
            raise GQError("predecessors form a cycle; they do not come from a shortest-path run")
    path.reverse()
    return path
