"""`gq plan`: the exact cheapest 8-connected route across a map, drawn over it.

The map is a PNG (dark pixels are walls, brighter pixels are cheaper: sssp_demo/maps.py has the
mapping) or a generated maze or terrain. The grid becomes a graph (sssp_demo/maps.py
`grid_graph`), the shortest paths from the start come from `sssp_demo.sssp` (Near-Far by default;
any of its algorithms, scipy's dijkstra as the reference; on the GPU where one answers), and the
route is drawn into a PNG. The time printed is the copy of the graph to the GPU, the search (with
the predecessors) and the copy back, each shown; the GPU's start-up (context, kernels) comes
before it and is printed apart.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from gq.output_paths import check_output_path
from queues_cuda.backend import BACKENDS
from queues_cuda.errors import GQError


@click.command()
@click.argument("map_path", metavar="[MAP.png]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--generate", type=str, default=None, help="Plan on a generated map instead: maze or terrain.")
@click.option("--size", type=int, default=1024, show_default=True, help="Side of a generated map, pixels.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of a generated map.")
@click.option("--start", type=str, default=None, help="X,Y of the start [default: the passable pixel nearest the top-left].")
@click.option("--goal", type=str, default=None, help="X,Y of the goal [default: the passable pixel nearest the bottom-right].")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("route.png"),
              show_default=True, help="PNG of the map with the route.")
# Near-Far by default: a map's routes are thousands of pixels long, and parDijkstra settles one
# vertex a round (its batched form a few); on a 2048^2 maze on the CPU build Near-Far took 0.26 s,
# batched parDijkstra 1.4 s, parDijkstra 2.0 s, scipy 0.78 s, all to the same cost.
@click.option("--algorithm", default="near-far", show_default=True,
              help="near-far, bellman-ford, pardijkstra, pardijkstra-batched, pardijkstra-sliced (maps up to about "
                   "1900x1900 on an H200) or scipy (the reference).")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
def plan(map_path, generate, size, seed, start, goal, output, algorithm, backend) -> int:
    """Find and draw the cheapest route across MAP.png (or a generated map)."""
    from sssp_demo import maps
    from sssp_demo.sssp import SsspStats, check_choices, resolve_backend, route_search

    if (map_path is None) == (generate is None):
        raise GQError("give a map file or --generate maze|terrain (one of the two)")
    if generate is not None and generate not in maps.MAP_GENERATORS:
        raise GQError(f"--generate: unknown map {generate!r}; allowed: {', '.join(maps.MAP_GENERATORS)}")
    check_choices(algorithm, backend)
    check_output_path("-o", output, ".png", "the route is drawn as a PNG")

    cost = maps.load_map(map_path) if map_path is not None else maps.MAP_GENERATORS[generate](size, seed)
    graph, passable = maps.grid_graph(cost)
    height, width = cost.shape
    corners = maps.corner_points(cost)
    sx, sy = maps.parse_point(start, "--start", cost.shape, passable) if start else corners[0]
    gx, gy = maps.parse_point(goal, "--goal", cost.shape, passable) if goal else corners[1]
    source, target = sy * width + sx, gy * width + gx

    used = resolve_backend(algorithm, backend)  # auto takes cuda where a GPU answers, and says which
    click.echo(f"planning on a {width}x{height} map ({graph.nnz:,} edges) from {sx},{sy} to {gx},{gy}: "
               f"{algorithm}, backend {used}")
    if used == "cuda":  # the context and the kernels, once a process: printed apart from the run
        from sssp_demo.grid_forms import warm_up

        click.echo(f"GPU ready in {warm_up(algorithm):.2f} s")
    stats = SsspStats()
    started = time.perf_counter()
    to_goal, pred = route_search(graph, source, target, algorithm=algorithm, backend=used, stats=stats)
    seconds = time.perf_counter() - started
    route = maps.route_from_predecessors(pred, source, target, width=width)
    _, length = maps.route_cost_and_length(cost, route)
    maps.draw_route(cost, route, output)
    click.echo(f"cost {to_goal:.3f}  length {length:.1f} px  ({len(route):,} pixels)")
    click.echo(f"time {seconds:.3f} s for the shortest paths from the start to every pixel ({stats.phases(used)})")
    click.echo(f"wrote {output}")
    return 0
