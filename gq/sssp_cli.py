"""`gq sssp`: single-source shortest paths on a graph file or a generated graph.

    gq sssp graph.mtx --source 0 --algorithm pardijkstra -o result.npz
    gq sssp --generate seed-dag --vertices 30000 --edges 1000000 --check
    gq sssp --generate rmat --param scale=18 --param symmetric=true --bench

Reads Matrix Market or edge lists (sssp_demo/graph_io.py) or builds a generator's graph
(sssp_demo/generators.py), runs the algorithm (sssp_demo/sssp.py), writes ``distances``
(float64, inf where unreachable) and ``predecessors`` (int64, -9999 where none) into the .npz,
and prints the time and the work done; ``--check`` compares with scipy's dijkstra.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from gq.output_paths import check_output_path
from queues_cuda.backend import BACKENDS
from queues_cuda.errors import GQError


def parse_params(texts, spec) -> dict:
    """The generator's defaults, overridden by ``--param n=30000`` pairs (checked by name and type)."""
    allowed = {p.name: p for p in spec.parameters}
    values = {p.name: p.default for p in spec.parameters}
    for text in texts:
        name, sep, raw = text.partition("=")
        name = name.strip()
        if not sep or name not in allowed:
            raise GQError(f"--param: expected NAME=VALUE with NAME one of {', '.join(allowed)}, got {text!r}")
        kind = allowed[name].type
        try:
            values[name] = (raw.strip().lower() in ("1", "true", "yes")) if kind is bool else kind(raw)
        except ValueError:
            what = {int: "an integer", float: "a number"}.get(kind, kind.__name__)
            raise GQError(f"--param {name}: expected {what}, got {raw!r}") from None
    return values


# --vertices and --edges: the generators' own names for those counts.
SHORTHANDS = {"--vertices": {"seed-dag": "n", "delaunay": "n"}, "--edges": {"seed-dag": "m"}}


def shorthand_params(generate: str | None, vertices: int | None, edges: int | None) -> tuple[str, ...]:
    """``--vertices 30000 --edges 1000000`` as the ``--param`` pairs of the chosen generator."""
    out = []
    for option, value in (("--vertices", vertices), ("--edges", edges)):
        if value is None:
            continue
        names = SHORTHANDS[option]
        if generate not in names:
            raise GQError(f"{option} applies to --generate {' or '.join(names)}; for {generate}, "
                          f"use --param (see the generator's parameters in sssp_demo/generators.py)")
        out.append(f"{names[generate]}={value}")
    return tuple(out)


@click.command()
@click.argument("graph_path", metavar="[GRAPH]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--generate", default=None, help="Build a graph instead: seed-dag, road, rmat or delaunay.")
@click.option("--param", "params", multiple=True, help="A generator parameter, NAME=VALUE (repeat).")
@click.option("--vertices", type=int, default=None, help="With --generate seed-dag or delaunay: the vertex count "
              "(the same as --param n=...).")
@click.option("--edges", type=int, default=None, help="With --generate seed-dag: the edge count (--param m=...).")
@click.option("--source", type=int, default=0, show_default=True, help="Source vertex (0-indexed).")
# Near-Far by default: parDijkstra settles one vertex a round, n rounds in all, which is what the
# seed's DAG asks of every algorithm but a slow default for a road network of millions of vertices
# (gq plan's note has the figures on maps).
@click.option("--algorithm", default="near-far", show_default=True,
              help="near-far, bellman-ford, pardijkstra (parBucketHeap, one vertex a round), pardijkstra-batched "
                   "(Crauser's criterion: fewer rounds), pardijkstra-sliced (the same rounds over a queue cut into "
                   "per-block slices, each also settling the winner's target over a least-weight edge; up to "
                   "~3.8 M vertices on an H200), or scipy (the reference).")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write distances and predecessors to this .npz.")
@click.option("--check", is_flag=True, help="Compare the result with scipy's dijkstra.")
@click.option("--bench", is_flag=True, help="Run every algorithm on the graph and print a table.")
@click.option("--repeats", type=int, default=3, show_default=True, help="Measured runs per algorithm (--bench).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --bench: also write the JSON record here.")
@click.option("--delta", type=float, default=None,
              help="Near-Far's Delta [default: 32 x mean weight / mean out-degree, Davidson et al.].")
def sssp(graph_path, generate, params, vertices, edges, source, algorithm, backend, output, check, bench, repeats, json_out,
         delta) -> int:
    """Shortest paths from one source on GRAPH (.mtx, or an edge list) or a generated graph."""
    from sssp_demo import generators, graph_io
    from sssp_demo.sssp import SsspStats, check_choices, resolve_backend
    from sssp_demo.sssp import sssp as run_sssp

    if (graph_path is None) == (generate is None):
        raise GQError("give a graph file or --generate NAME (one of the two)")
    if generate is not None and generate not in generators.GENERATORS:
        raise GQError(f"--generate: unknown generator {generate!r}; allowed: {', '.join(generators.GENERATORS)}")
    if (params or vertices is not None or edges is not None) and generate is None:
        raise GQError("--param, --vertices and --edges apply to --generate only")
    params = tuple(params) + shorthand_params(generate, vertices, edges)
    check_choices(algorithm, backend)
    if delta is not None and not delta > 0:
        raise GQError(f"--delta: expected a number > 0, got {delta}")
    check_output_path("-o", output, ".npz", "the result is a NumPy .npz")

    if generate is not None:
        spec = generators.GENERATORS[generate]
        graph = spec.function(**parse_params(params, spec))
        what = f"{generate} ({', '.join(params) or 'defaults'})"
    else:
        graph = graph_io.read_graph(graph_path)
        what = str(graph_path)
    graph_io.validate_csgraph(graph, source=source)
    if bench:
        return _bench_one(graph, what, source, repeats, json_out, resolve_backend("pardijkstra", backend))
    used = resolve_backend(algorithm, backend)
    click.echo(f"{what}: {graph.shape[0]:,} vertices, {graph.nnz:,} edges; {algorithm} from {source}, backend {used}")
    if used == "cuda":  # the context and the kernels, once a process: printed apart from the run
        from sssp_demo.grid_forms import warm_up

        click.echo(f"GPU ready in {warm_up(algorithm):.2f} s")
    stats = SsspStats()
    started = time.perf_counter()
    dist, pred = run_sssp(graph, indices=source, algorithm=algorithm, backend=used, stats=stats, delta=delta)
    seconds = time.perf_counter() - started
    reached = int((dist < float("inf")).sum())
    click.echo(f"time {seconds:.3f} s ({stats.phases(used)}); {reached:,} vertices reached")
    if algorithm != "scipy":
        click.echo(f"rounds {stats.rounds:,}  relaxations {stats.relaxations:,}  improvements {stats.improvements:,}  "
                   f"heap updates {stats.heap_updates:,}")
    if output is not None:
        graph_io.write_result(output, dist, pred)
        click.echo(f"wrote {output}")
    if check:
        from sssp_demo.reference import check_distances

        problems = check_distances(graph, source, dist, pred)
        if problems:
            for p in problems[:10]:
                click.echo(f"gq: check: {p}", err=True)
            return 1
        click.echo("check: distances equal scipy's; every predecessor realises its distance")
    return 0


def _bench_one(graph, what: str, source: int, repeats: int, json_out, backend: str) -> int:
    from queues_cuda.files import write_json_atomically
    from sssp_demo.bench import bench_graph, record

    if repeats < 1:
        raise GQError(f"--repeats must be at least 1, got {repeats}")
    click.echo(f"{what}: {graph.shape[0]:,} vertices, {graph.nnz:,} edges; every algorithm from {source}, "
               f"backend {backend}")
    rows = bench_graph(graph, source, repeats=repeats, backend=backend)
    print_table(rows)
    if json_out is not None:
        write_json_atomically(json_out, record([{"graph": what, "vertices": graph.shape[0], "edges": graph.nnz,
                                                 "rows": rows}], {"source": source, "repeats": repeats,
                                                                  "backend": backend}))
        click.echo(f"wrote {json_out}")
    return 0 if all(r["exact"] for r in rows) else 1


def print_table(rows: list[dict]) -> None:
    click.echo(f"{'algorithm':22s} {'backend':7s} {'ms':>10s} {'rounds':>10s} {'relaxations':>13s} "
               f"{'heap updates':>13s} {'vs scipy':>9s}  exact")
    for r in rows:
        if "skipped" in r:
            click.echo(f"{r['algorithm']:22s} {r['backend']:7s} {'-':>10s}  skipped: {r['skipped']}")
            continue
        speed = f"{r['speedup_vs_scipy']:.2f}x" if r["speedup_vs_scipy"] else "-"
        click.echo(f"{r['algorithm']:22s} {r['backend']:7s} {r['seconds_median'] * 1e3:10.2f} {r['rounds']:10,d} "
                   f"{r['relaxations']:13,d} {r['heap_updates']:13,d} {speed:>9s}  {'yes' if r['exact'] else 'NO'}")


@click.command("sssp")
@click.option("--generate", default="seed-dag", show_default=True, help="Generator: seed-dag, road, rmat or delaunay.")
@click.option("--param", "params", multiple=True, help="A fixed generator parameter, NAME=VALUE (repeat).")
@click.option("--sweep", default="m=1000000,3000000,10000000", show_default=True,
              help="The parameter that grows, NAME=V1,V2,...: one graph per value.")
@click.option("--source", type=int, default=0, show_default=True)
@click.option("--repeats", type=int, default=3, show_default=True, help="Measured runs per algorithm.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("benchmarks/sssp-sweep.json"), show_default=True)
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Runtime-against-edges PNG [default: the JSON's name with .png].")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)} (scipy: always cpu).")
def bench_sssp(generate, params, sweep, source, repeats, json_out, chart, backend) -> int:
    """Every algorithm on a growing family of graphs: time against edges (seed 000, Figure 3)."""
    from queues_cuda.files import write_json_atomically
    from sssp_demo import generators, graph_io
    from sssp_demo.bench import bench_graph, record
    from sssp_demo.bench import chart as draw
    from sssp_demo.sssp import resolve_backend

    used = resolve_backend("pardijkstra", backend)

    if generate not in generators.GENERATORS:
        raise GQError(f"--generate: unknown generator {generate!r}; allowed: {', '.join(generators.GENERATORS)}")
    spec = generators.GENERATORS[generate]
    name, sep, values = sweep.partition("=")
    if not sep or name not in {p.name for p in spec.parameters}:
        raise GQError(f"--sweep: expected NAME=V1,V2,... with NAME one of {', '.join(p.name for p in spec.parameters)}, "
                      f"got {sweep!r}")
    points = [parse_params([f"{name}={v}"], spec)[name] for v in values.split(",") if v.strip()]
    fixed = parse_params(params, spec)
    if repeats < 1:
        raise GQError(f"--repeats must be at least 1, got {repeats}")
    chart = chart if chart is not None else json_out.with_suffix(".png")
    check_output_path("--json", json_out, ".json", folder=False)  # written with its folders
    check_output_path("--chart", chart, ".png", folder=False)
    graphs = []
    for value in points:
        args = dict(fixed, **{name: value})
        graph = spec.function(**args)
        graph_io.validate_csgraph(graph, source=source)
        what = f"{generate} ({', '.join(f'{k}={v}' for k, v in args.items())})"
        click.echo(f"{what}: {graph.shape[0]:,} vertices, {graph.nnz:,} edges; backend {used}")
        rows = bench_graph(graph, source, repeats=repeats, backend=used)
        print_table(rows)
        graphs.append({"graph": what, "vertices": graph.shape[0], "edges": graph.nnz, "rows": rows})
        write_json_atomically(json_out, record(graphs, {"graph": generate, "sweep": sweep, "source": source,
                                                        "repeats": repeats, "backend": used}))
    click.echo(f"wrote {json_out}")
    note = draw(record(graphs, {"graph": generate, "backend": used}), chart)
    click.echo(f"gq: {note}" if note else f"wrote {chart}", err=bool(note))
    return 0 if all(r["exact"] for g in graphs for r in g["rows"]) else 1
