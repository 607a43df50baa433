"""`gq bfs`: level-synchronous breadth-first search, queue-driven (seed 001, Sec. V.B.a) or by
frontier compaction, on a graph file or a generated stand-in graph.

    gq bfs --generate kron --scale 21 --queue glfq
    gq bfs graph.mtx --source 0 -o result.npz
    gq bfs graph.mtx --source 0 --bench --json bfs.json

Writes ``depth`` (int32, -1 unreached) and ``parent`` (int32, -1 none) into the .npz. ``--bench``
runs the queue form with every queue and the compaction baseline on the same graph (median of
``--repeats`` runs, CUDA events on the GPU) and checks every result against scipy.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
import numpy as np

from gq.output_paths import check_output_path
from queues_cuda.backend import BACKENDS
from queues_cuda.errors import GQError
from queues_cuda.queues import QUEUES

GENERATED = ("kron", "delaunay", "road")
EDGE_FACTOR = 16  # Graph500's


def generate_graph(name: str, scale: int | None, vertices: int | None, seed: int, edge_factor: int = EDGE_FACTOR):
    """(graph, description) of a stand-in: kron = R-MAT (Graph500 a, b, c), symmetrised, 2^scale
    vertices; delaunay = Delaunay triangulation of `vertices` (default 2^scale) random points;
    road = generators.road_grid, a thinned planar grid of about `vertices` (default 2^scale)."""
    from sssp_demo import generators

    if name not in GENERATED:
        raise GQError(f"--generate: unknown generator {name!r}; allowed: {', '.join(GENERATED)}")
    if scale is not None and not 1 <= scale <= 30:
        raise GQError(f"--scale: expected 1..30 (2^scale vertices), got {scale}")
    if vertices is not None and not 1 <= vertices <= 2**31 - 2:
        raise GQError(f"--vertices: expected 1..{2**31 - 2}, got {vertices}")
    if seed < 0:
        raise GQError(f"--seed: expected an integer >= 0, got {seed}")
    if name == "kron" and vertices is not None:
        raise GQError("--vertices does not apply to --generate kron (it has 2^scale vertices: use --scale)")
    n = vertices if vertices is not None else 2 ** (16 if scale is None else scale)
    if name == "delaunay" and n < 3:
        raise GQError(f"--vertices: a triangulation needs at least 3 points, got {n}")
    click.echo(f"generating {name} ...", err=True)  # large graphs take a while (kron scale 21: ~20 s)
    if name == "kron":
        scale = 16 if scale is None else scale
        g = generators.rmat(scale, edge_factor, seed, symmetric=True)
        return g, f"kron scale {scale} (R-MAT stand-in for kron_g500-logn{scale}, edge factor {edge_factor}, seed {seed})"
    if name == "delaunay":
        return generators.delaunay(n, seed), f"delaunay {n:,} points (stand-in for delaunay_n*, seed {seed})"
    rows = max(1, int(round(np.sqrt(n))))
    cols = max(1, -(-n // rows))
    return (generators.road_grid(rows, cols, seed),
            f"road-like {rows} x {cols} grid (stand-in for road networks, seed {seed})")


@click.command()
@click.argument("graph_path", metavar="[GRAPH]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--generate", default=None, help=f"Build a stand-in graph instead: {', '.join(GENERATED)}.")
@click.option("--scale", type=int, default=None, help="kron: 2^scale vertices [16]; others: 2^scale vertices "
                                                      "unless --vertices.")
@click.option("--vertices", type=int, default=None, help="delaunay, road: (about) this many vertices.")
@click.option("--seed", type=int, default=0, show_default=True, help="Generator seed.")
@click.option("--source", type=int, default=None,
              help="Source vertex (0-indexed) [0 for a file; for a generated graph a seeded random vertex "
                   "with out-edges, as Graph500 picks them].")
# SFQ is the default: the fastest queue BFS on the H200 (0.60-0.72x compaction against G-LFQ's
# 0.21-0.37x, run 240), through its blocking interface, whose dequeues never wait for an element
# that is not coming (sssp_demo/bfs_queue.h) and whose waits are bounded like every spin.
@click.option("--queue", default="sfq", show_default=True,
              help=f"Frontier queue: {', '.join(QUEUES)} (sfq is the fastest; glfq is the seed's lock-free queue).")
@click.option("--algorithm", default="queue", show_default=True,
              help="queue (frontiers in two alternating queues) or compaction (frontier arrays, the baseline).")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
@click.option("--threads", type=int, default=None, help="CPU backend: std::threads [the cores, at most 8].")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write depth and parent to this .npz.")
@click.option("--check", is_flag=True, help="Compare the depths with scipy's BFS and check every parent.")
@click.option("--bench", is_flag=True, help="Every queue and the compaction baseline on this graph: a table.")
@click.option("--repeats", type=int, default=5, show_default=True, help="Measured runs per variant (--bench).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --bench: write the JSON record here.")
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --bench: a PNG of each variant's time relative to the baseline.")
def bfs(graph_path, generate, scale, vertices, seed, source, queue, algorithm, backend, threads, output, check,
        bench, repeats, json_out, chart) -> int:
    """Breadth-first search from one source on GRAPH (.mtx, or an edge list) or a generated graph."""
    from sssp_demo import bfs as B
    from sssp_demo import graph_io

    if (graph_path is None) == (generate is None):
        raise GQError("give a graph file or --generate NAME (one of the two)")
    if generate is None and (scale is not None or vertices is not None):
        raise GQError("--scale and --vertices apply to --generate only")
    B.check_choices(algorithm, queue, backend)
    if threads is not None and not 1 <= threads <= 1024:
        raise GQError(f"--threads: expected 1..1024, got {threads}")
    if repeats < 1:
        raise GQError(f"--repeats: expected at least 1, got {repeats}")
    for option, path, suffix in (("-o", output, ".npz"), ("--json", json_out, ".json"), ("--chart", chart, ".png")):
        check_output_path(option, path, suffix)
    if (json_out is not None or chart is not None) and not bench:
        raise GQError("--json and --chart apply to --bench only")

    started = time.perf_counter()
    if generate is not None:
        graph, what = generate_graph(generate, scale, vertices, seed)
    else:
        graph, what = graph_io.read_graph(graph_path), str(graph_path)
    made = time.perf_counter() - started
    indptr, indices, n = B.as_csr(graph)
    if source is None:
        source = B.default_source(indptr, seed) if generate is not None else 0
    source = B.check_source(source, n)
    from queues_cuda.backend import resolve

    used = resolve(backend)
    click.echo(f"{what}: {n:,} vertices, {len(indices):,} edges ({'generated' if generate else 'read'} in "
               f"{made:.1f} s); source {source}, backend {used}")
    if bench:
        return _bench(graph, what, source, repeats, used, threads, json_out, chart)
    stats = B.BfsStats()
    started = time.perf_counter()
    depth, parent = B.bfs(graph, source, queue=queue, algorithm=algorithm, backend=used, threads=threads, stats=stats)
    seconds = time.perf_counter() - started
    shown = f"queue {queue}" if algorithm == "queue" else "compaction"
    click.echo(f"{shown}: {seconds * 1e3:.1f} ms (wall, with transfers); {int((depth >= 0).sum()):,} vertices reached, "
               f"{stats.levels:,} levels, {stats.edges_scanned:,} edges scanned")
    if output is not None:
        from queues_cuda.files import write_file_atomically

        write_file_atomically(output, lambda f: np.savez(f, depth=depth, parent=parent))
        click.echo(f"wrote {output}")
    if check:
        problems = B.check_bfs(indptr, indices, n, source, depth, parent)
        ref = B.reference_depth(indptr, indices, n, source)
        if not np.array_equal(ref, depth):
            problems.insert(0, f"{int((ref != depth).sum())} depths differ from scipy's breadth_first_order")
        if problems:
            for p in problems[:10]:
                click.echo(f"gq: check: {p}", err=True)
            return 1
        click.echo("check: depths equal scipy's; every parent is one level up along an edge")
    return 0


def _bench(graph, what: str, source: int, repeats: int, backend: str, threads, json_out, chart) -> int:
    from queues_cuda.files import write_json_atomically
    from sssp_demo import bfs_bench

    steps = len(bfs_bench.variants())
    with click.progressbar(length=steps, label="measuring", file=sys.stderr) as bar:
        rows = bfs_bench.bench_graph(graph, source, repeats=repeats, backend=backend, threads=threads,
                                     progress=bar.update)
    for line in bfs_bench.table(rows):
        click.echo(line)
    result = bfs_bench.record([{"graph": what, "vertices": graph.shape[0], "edges": int(graph.nnz), "source": source,
                                "rows": rows}], {"repeats": repeats, "warmup": 1, "backend": backend,
                                                 "timing": "CUDA events around reset + queue init + kernel"
                                                 if backend == "cuda" else "wall time of the CPU build's call"})
    if json_out is not None:
        write_json_atomically(json_out, result)
        click.echo(f"wrote {json_out}")
    if chart is not None:
        note = bfs_bench.chart(result, chart)
        click.echo(f"gq: {note}" if note else f"wrote {chart}", err=bool(note))
    return 0 if all(r.get("exact") for r in rows) else 1
