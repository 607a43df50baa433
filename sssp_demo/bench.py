"""Shortest-path benchmarks: every algorithm on the same graph (`gq sssp --bench`), and the
seed's runtime-against-edges sweep (`gq bench sssp`, like seed 000's Figure 3).

Each algorithm runs ``warmup`` times unmeasured, then ``repeats`` times; rows report the median
time (CPU rows: wall time of the whole call; GPU rows: CUDA events around the kernels on a graph
uploaded once, predecessors included), the work done (rounds, relaxations, decrease-keys, heap
updates), the speed-up over scipy's dijkstra measured in the same run, and whether the result
passed the reference check.
"""

from __future__ import annotations

import statistics
import sys
import time

from queues_cuda.provenance import provenance

from .grid_forms import OutOfReach
from .reference import check_distances
from .sssp import ALGORITHMS, SsspStats, as_csr, davidson_delta, sssp

REFERENCE = "scipy"


def bench_graph(graph, source: int, algorithms=ALGORITHMS, repeats: int = 3, warmup: int = 1,
                backend: str = "cpu") -> list[dict]:
    rows, expected = [], None
    device_graph = None
    for algorithm in sorted(algorithms, key=lambda a: a != REFERENCE):  # the reference first
        used = "cpu" if algorithm == REFERENCE else backend
        try:
            if used == "cuda":
                if device_graph is None:
                    from .grid_forms import DeviceGraph

                    indptr, idx, w, n = as_csr(graph)
                    device_graph = DeviceGraph.upload(indptr, idx, w, n)
                seconds, stats, (dist, pred) = time_cuda(device_graph, source, algorithm, repeats, warmup)
            else:
                seconds, stats = [], SsspStats()
                for i in range(warmup + repeats):
                    run_stats = SsspStats()
                    started = time.perf_counter()
                    dist, pred = sssp(graph, indices=source, algorithm=algorithm, backend=used, stats=run_stats)
                    if i >= warmup:
                        seconds.append(time.perf_counter() - started)
                        stats = run_stats
        except OutOfReach as exc:  # an algorithm that refuses this graph (its size) is a row, not the end
            rows.append({"algorithm": algorithm, "backend": used, "skipped": str(exc), "exact": True})
            continue
        if algorithm == REFERENCE:
            expected = dist
        problems = check_distances(graph, source, dist, pred, expected=expected)
        rows.append({"algorithm": algorithm, "backend": used, "seconds_median": statistics.median(seconds),
                     "seconds_min": min(seconds), "seconds_max": max(seconds), "rounds": stats.rounds,
                     "relaxations": stats.relaxations, "improvements": stats.improvements,
                     "heap_updates": stats.heap_updates, "exact": not problems, "problems": problems[:3]})
    base = next((r["seconds_median"] for r in rows if r["algorithm"] == REFERENCE and "skipped" not in r), None)
    for r in rows:
        if "skipped" not in r:
            r["speedup_vs_scipy"] = base / r["seconds_median"] if base and r["seconds_median"] > 0 else None
    return rows


def time_cuda(device_graph, source: int, algorithm: str, repeats: int, warmup: int, d: int | None = None,
              delta: float | None = None, budget_s: float | None = None, **launch):
    """GPU runs timed with CUDA events: (seconds of the measured runs, SsspStats of the last,
    (dist, pred) of the last as NumPy arrays). `launch`: run_cuda's measuring options (own_cap,
    local_passes, block)."""
    import cupy

    from .grid_forms import run_cuda

    if d is None:
        d = device_graph.max_degree or 1
    if delta is None:
        mean_w = float(device_graph.weights.mean()) if device_graph.m else 0.0
        delta = davidson_delta(mean_w, device_graph.mean_degree)
    seconds = []
    for i in range(warmup + repeats):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        dist, pred, run = run_cuda(device_graph, source, algorithm, d=d, delta=delta, budget_s=budget_s, **launch)
        end.record()
        end.synchronize()
        if i >= warmup:
            seconds.append(cupy.cuda.get_elapsed_time(start, end) / 1e3)
    stats = SsspStats(**run)
    return seconds, stats, (dist.get(), pred.get())


def record(rows_by_graph: list[dict], settings: dict) -> dict:
    return provenance(command=sys.argv, kind="sssp-bench", settings=settings, graphs=rows_by_graph)


def chart(result: dict, png_path) -> str | None:
    """Runtime against edges per algorithm (log-log); None when drawn, else why not."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return "chart skipped: matplotlib is not installed (pip install 'gpu-queues[plot]')"
    from queues_cuda.files import write_file_atomically

    fig = Figure(figsize=(7, 4.5))
    ax = fig.add_subplot()
    algorithms = sorted({r["algorithm"] for g in result["graphs"] for r in g["rows"]})
    for algorithm in algorithms:
        pts = sorted((g["edges"], r["seconds_median"]) for g in result["graphs"] for r in g["rows"]
                     if "seconds_median" in r and r["algorithm"] == algorithm)
        ax.plot([p[0] for p in pts], [p[1] * 1e3 for p in pts], marker="o", label=algorithm)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("edges")
    ax.set_ylabel("time (ms, median)")
    ax.set_title(f"SSSP on {result['settings'].get('graph', 'generated graphs')}, "
                 f"backend {result['settings'].get('backend', 'cpu')}")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    write_file_atomically(png_path, lambda f: fig.savefig(f, format="png"))
    return None


#: BlockCounts::Part, in order (include/sssp/block_bucket_heap.h).
COUNT_PARTS = ("other", "merge", "select", "best", "split", "copy", "sort")
COUNT_LEVELS = 16


def round_counts(graph, source: int = 0, d: int | None = None, width: int = 256, first: int = 1,
                 rounds: int = 8) -> dict:
    """parDijkstra's cost model, per round: rounds first .. first + rounds - 1 of the classic form
    replayed on parBucketHeap's block form with `width` CPU threads, counted
    (host/sssp_cpu.cpp, sssp_par_dijkstra_round_counts). Figures are per counted round: block
    barriers (by part and by level, the batch sort's included), binary-search steps (each a
    dependent load), size-word reads (one thread's), entries walked per level, and Empty, Fill
    and Select calls per level."""
    import numpy as np

    from queues_cuda.errors import raise_if_flagged

    from .sssp import MAX_BATCH, _library

    indptr, idx, w, n = as_csr(graph)
    if d is None:
        d = int(np.diff(indptr).max(initial=1)) if n else 1
    d = max(1, min(int(d), MAX_BATCH))
    out = np.zeros(7 + 5 * (COUNT_LEVELS + 1) + 5, np.uint64)
    err = np.zeros(4, np.uint32)
    ptr = lambda a: a.ctypes.data
    _library().sssp_par_dijkstra_round_counts(ptr(indptr), ptr(idx), ptr(w), n, int(source), d, int(width),
                                              int(first), int(rounds), ptr(out), ptr(err))
    raise_if_flagged(err, "sssp_par_dijkstra_round_counts[cpu]", f"{n} vertices, d={d}, rounds {first}+{rounds}")
    counted = int(out[-2])
    if counted == 0:
        return {"rounds": 0}
    per = lambda x: float(x) / counted
    parts = dict(zip(COUNT_PARTS, (per(x) for x in out[:7])))
    parts["sort"] += per(out[-3])
    lv = [out[7 + k * (COUNT_LEVELS + 1):7 + (k + 1) * (COUNT_LEVELS + 1)] for k in range(5)]
    levels = [{"level": i if i < COUNT_LEVELS else "none", "barriers": per(lv[0][i]), "entries": per(lv[1][i]),
               "empties": per(lv[2][i]), "fills": per(lv[3][i]), "selects": per(lv[4][i])}
              for i in range(COUNT_LEVELS + 1) if lv[0][i] or lv[1][i]]
    return {"rounds": counted, "first": first, "d": d, "width": width, "heap_updates": per(out[-1]),
            "barriers": sum(parts.values()), "barriers_by_part": parts, "levels": levels,
            "search_steps": per(out[-5]), "size_reads": per(out[-4]) / width}


def seed_dag_rounds(edges=(1_000_000, 10_000_000), vertices: int = 30_000, repeats: int = 3, warmup: int = 1,
                    out_dir=None, seed: int = 0) -> dict:
    """parDijkstra on the GPU on seed 000's DAG: median time of `repeats` runs after `warmup`
    (CUDA events, graph uploaded once, predecessors included) and that time per round (issue 4
    asks for about 2 us a round at 300M edges). Prints one line a graph; with `out_dir`, writes
    the record there as seed-dag-rounds.json."""
    from pathlib import Path

    import numpy as np

    from queues_cuda.files import write_json_atomically

    from .generators import seed_dag
    from .grid_forms import DeviceGraph, kernel_shape

    rows = []
    for m in edges:
        indptr, idx, w, n = as_csr(seed_dag(vertices, int(m), seed))
        seconds, stats, (dist, _) = time_cuda(DeviceGraph.upload(indptr, idx, w, n), 0, "pardijkstra", repeats,
                                              warmup)
        median = statistics.median(seconds)
        exact = bool((dist == np.arange(n, dtype=float)).all())  # the seed DAG's distances: dist(v) = v
        rows.append({"vertices": n, "edges": int(m), "seconds_median": median, "seconds": seconds,
                     "rounds": stats.rounds, "us_per_round": median / max(stats.rounds, 1) * 1e6,
                     "heap_updates": stats.heap_updates, "exact": exact})
        print(f"seed-dag n={n:,} m={int(m):,}: parDijkstra {median * 1e3:.1f} ms median of {len(seconds)}, "
              f"{rows[-1]['us_per_round']:.2f} us/round over {stats.rounds:,} rounds, exact={exact}", flush=True)
    result = provenance(command=sys.argv, kind="sssp-seed-dag-rounds", kernel=kernel_shape("pardijkstra"),
                        settings={"repeats": repeats, "warmup": warmup, "seed": seed}, rows=rows)
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        write_json_atomically(Path(out_dir) / "seed-dag-rounds.json", result)
    return result
