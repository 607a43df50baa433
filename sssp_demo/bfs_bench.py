"""BFS benchmark: the queue-driven BFS with every queue kind against the frontier-compaction
baseline on one graph (`gq bfs --bench`, tools/gpu_bfs_bench.py; seed 001 Fig. 6 measures the
queues against Gunrock the same way).

GPU rows: the graph is uploaded once and every run's buffers allocated once; each run (depth and
parent reset, the two queues' initialisation for the queue form, the persistent kernel) is
bracketed by CUDA events; ``warmup`` runs unmeasured, then the median of ``repeats``. CPU rows:
wall time of the whole call on the CPU build. Every row's depths are compared with scipy's
(reference_depth), and its parents checked (check_bfs: with the edge look-up for the first row of
a graph, the level rule alone for the rest, to keep large graphs quick). GTEPS counts the
directed edges the run examined (edges_scanned) per second.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from queues_cuda.provenance import provenance
from queues_cuda.queues import QUEUES

from .bfs import CudaBfs, DeviceGraph, as_csr, check_bfs, reference_depth, run_cpu

BASELINE = ("compaction", None)


def variants(queues=tuple(QUEUES)) -> list[tuple[str, str | None]]:
    """(algorithm, queue) pairs: the queue form per queue, then the baseline."""
    return [("queue", q) for q in queues] + [BASELINE]


def bench_graph(graph, source: int, queues=tuple(QUEUES), repeats: int = 5, warmup: int = 1, backend: str = "cpu",
                threads: int | None = None, budget_s: float | None = None, progress=None,
                expected: np.ndarray | None = None) -> list[dict]:
    """One row per variant. `budget_s` (GPU): a run past it stops itself and the row records
    that instead of times. `progress(step)` is called after each variant."""
    indptr, indices, n = as_csr(graph)
    if expected is None:
        expected = reference_depth(indptr, indices, n, source)
    device_graph = DeviceGraph.upload(indptr, indices, n) if backend == "cuda" else None
    rows = []
    for k, (algorithm, queue) in enumerate(variants(queues)):
        row = {"algorithm": algorithm, "queue": queue, "backend": backend}
        try:
            if backend == "cuda":
                run = CudaBfs(device_graph, algorithm, queue or "glfq", budget_s=budget_s)
                ms = run.time(source, repeats=repeats, warmup=warmup)
                depth, parent, stats = run.run(source)
                row.update(kernel_ms_median=statistics.median(run.kernel_ms))
                depth, parent = depth.get(), parent.get()
                row.update(blocks=run.blocks, blocks_per_sm=run.blocks_per_sm, threads=run.threads)
                if algorithm == "queue":
                    row.update(queue_capacity=run.capacity, queue_words=run.words)
            else:
                ms = []
                for i in range(warmup + repeats):
                    started = time.perf_counter()
                    depth, parent, stats = run_cpu(indptr, indices, n, source, algorithm, queue or "glfq", threads)
                    if i >= warmup:
                        ms.append((time.perf_counter() - started) * 1e3)
        except Exception as exc:  # a variant that gave up (budget, kernel error) is a row, not the end
            row.update(error=f"{type(exc).__name__}: {exc}", exact=False)
            rows.append(row)
            if progress:
                progress(1)
            continue
        same = np.array_equal(depth, expected)
        problems = [] if same else [f"{int((depth != expected).sum())} depths differ from scipy's"]
        problems += check_bfs(indptr, indices, n, source, depth, parent, edges=(k == 0))
        med = statistics.median(ms)
        row.update(ms_median=med, ms_min=min(ms), ms_max=max(ms), ms_runs=ms, **stats,
                   gteps=stats["edges_scanned"] / (med * 1e-3) / 1e9 if med > 0 else None,
                   reached=int((depth >= 0).sum()), exact=not problems, problems=problems[:3])
        rows.append(row)
        if progress:
            progress(1)
    base = next((r.get("ms_median") for r in rows if (r["algorithm"], r["queue"]) == BASELINE), None)
    for r in rows:
        r["speedup_vs_compaction"] = base / r["ms_median"] if base and r.get("ms_median") else None
    return rows


def label(row: dict) -> str:
    return f"queue/{row['queue']}" if row["algorithm"] == "queue" else row["algorithm"]


def table(rows: list[dict]) -> list[str]:
    lines = [f"{'variant':16s} {'backend':7s} {'ms':>9s} {'min':>9s} {'max':>9s} {'levels':>7s} "
             f"{'edges scanned':>14s} {'GTEPS':>7s} {'vs compaction':>13s}  exact"]
    for r in rows:
        if "error" in r:
            lines.append(f"{label(r):16s} {r['backend']:7s} gave up: {r['error']}")
            continue
        speed = f"{r['speedup_vs_compaction']:.2f}x" if r["speedup_vs_compaction"] else "-"
        gteps = f"{r['gteps']:.2f}" if r["gteps"] is not None else "-"
        lines.append(f"{label(r):16s} {r['backend']:7s} {r['ms_median']:9.3f} {r['ms_min']:9.3f} {r['ms_max']:9.3f} "
                     f"{r['levels']:7,d} {r['edges_scanned']:14,d} {gteps:>7s} {speed:>13s}  "
                     f"{'yes' if r['exact'] else 'NO'}")
    return lines


def record(graphs: list[dict], settings: dict, command: list[str] | None = None) -> dict:
    return provenance(command=command if command is not None else sys.argv, kind="bfs-bench", settings=settings,
                      graphs=graphs)


def chart(result: dict, png_path) -> str | None:
    """Runtime relative to the compaction baseline per graph and variant (bars); None when
    drawn, else why not."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return "chart skipped: matplotlib is not installed (pip install 'gpu-queues[plot]')"
    from queues_cuda.files import write_file_atomically

    graphs = result["graphs"]
    rows = [r for g in graphs for r in g["rows"]]
    # Runs at several blocks per SM (the device benchmark's sweep) are told apart in the legend.
    per_sm = len({r.get("blocks_per_sm") for r in rows}) > 1

    def name_of(r: dict) -> str:
        return f"{label(r)}, {r['blocks_per_sm']}/SM" if per_sm else label(r)

    names = list(dict.fromkeys(name_of(r) for r in rows))
    fig = Figure(figsize=(max(6.0, 1.6 * len(graphs) + 3), 4.5))
    ax = fig.add_subplot()
    width = 0.8 / max(len(names), 1)
    for j, name in enumerate(names):
        ys = []
        for g in graphs:
            row = next((r for r in g["rows"] if name_of(r) == name), None)
            ys.append(1.0 / row["speedup_vs_compaction"] if row and row.get("speedup_vs_compaction") else np.nan)
        ax.bar(np.arange(len(graphs)) + j * width, ys, width, label=name)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(np.arange(len(graphs)) + 0.4 - width / 2)
    ax.set_xticklabels([g["graph"] for g in graphs], rotation=15, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("time / compaction baseline (lower is faster)")
    where = (result.get("gpu") or {}).get("name") or f"backend {result['settings'].get('backend', 'cpu')}"
    ax.set_title(f"level-synchronous BFS, {where}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    write_file_atomically(png_path, lambda f: fig.savefig(f, format="png"))
    return None
