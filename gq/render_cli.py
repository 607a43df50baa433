"""`gq render` and `gq bench render`: render a scene to PNG; measure rays per second of the queue
renderer on every queue against the stream-compaction baseline.

Every option is checked, and the scene loaded, before a render starts or an image is allocated:
a typo costs a one-line error (exit 2), never a half-hour render or a half-written file.
"""

from __future__ import annotations

import contextlib
import datetime
import sys
from pathlib import Path

import click

from gq.output_paths import check_output_path
from queues_cuda.backend import BACKENDS, gpu_status, resolve
from queues_cuda.errors import GQError
from queues_cuda.queues import QUEUES
from raytrace.scene import (  # pure Python: no native build at import
    MAX_IMAGE_SIDE,
    MAX_SPP,
)

PROGRESS_STEPS = 1000  # resolution of the progress bar; render() reports fractions


def check_range(option: str, value: int | None, low: int, high: int, where: str = "") -> None:
    if value is not None and not low <= value <= high:
        raise GQError(f"{option} must be between {low} and {high}{where}, got {value}")


def parse_queue_list(texts) -> list[str] | None:
    """``--queue a --queue b,c`` -> [a, b, c]; nothing given, or ``all`` -> None (every queue)."""
    if not texts:
        return None
    names = [t.strip() for text in texts for t in text.split(",") if t.strip()]
    if names == ["all"]:
        return None
    if not names:
        raise GQError(f"--queue: give at least one queue; allowed: {', '.join(QUEUES)} (or all)")
    for n in names:
        if n not in QUEUES:
            raise GQError(f"--queue: unknown queue {n!r}; allowed: {', '.join(QUEUES)} (or all)")
    return list(dict.fromkeys(names))


def describe_backend(requested: str) -> tuple[str, str]:
    """Resolve --backend (GQError if it cannot run here): (the backend, a line saying which and why)."""
    used = resolve(requested)
    if used == "cpu" and requested == "cpu":
        return used, "backend cpu"
    gpu, why = gpu_status()
    if used == "cuda":
        return used, f"backend cuda ({gpu['name']}, {gpu['arch']})"
    return used, f"backend cpu (auto: {why})"


@click.command()
@click.argument("scene_path", metavar="SCENE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="PNG to write [default: <scene name>.png in the current folder].")
@click.option("--width", type=int, default=None, help=f"Image width, 1..{MAX_IMAGE_SIDE} [default: the scene's].")
@click.option("--height", type=int, default=None, help=f"Image height, 1..{MAX_IMAGE_SIDE} [default: the scene's].")
@click.option("--spp", type=int, default=None, help=f"Samples per pixel, 1..{MAX_SPP} [default: the scene's].")
@click.option("--renderer", default="queue", show_default=True,
              help="queue (tile-based persistent wavefront on a GPU queue) or compaction (the baseline).")
@click.option("--queue", default=None, help=f"Work queue of the queue renderer: {', '.join(QUEUES)} [default: sfq].")
@click.option("--tiles", default=None,
              help="Tiles across x down the image, as TXxTY [default: 1x1 on sfq, 2x2 on the other queues].")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
@click.option("--threads", type=int, default=None, help="CPU worker threads, or GPU threads [default: chosen to fit].")
@click.option("--aov", "aov_text", default=None,
              help="Also write first-hit arrays beside the PNG, comma-separated: depth, normal, id, prim "
                   "(<name>.depth.npy, ...; prim: a triangle's face index in its mesh).")
@click.option("--accel", default="bvh", show_default=True,
              help="bvh (a bounding volume hierarchy) or none (test every primitive: the reference).")
@click.option("--mesh-build", default="sah", show_default=True,
              help="How the triangle BVH is built: sah (binned SAH, host) or lbvh (Karras; on the GPU with "
                   "the cuda backend).")
def render(scene_path, output, width, height, spp, renderer, queue, tiles, backend, threads, aov_text, accel,
           mesh_build) -> int:
    """Render SCENE (a TOML scene file, or a .glb/.gltf model) to a PNG and report rays per second."""
    from raytrace.image import parse_aov_list, to_srgb8, write_aovs, write_png

    # 1. What can be checked without the scene: no file is read yet, nothing is allocated.
    output = output if output is not None else Path(f"{scene_path.stem}.png")
    check_output_path("-o", output, ".png", "the image is written as PNG")
    check_range("--width", width, 1, MAX_IMAGE_SIDE)
    check_range("--height", height, 1, MAX_IMAGE_SIDE)
    check_range("--spp", spp, 1, MAX_SPP)
    if threads is not None and threads < 1:
        raise GQError(f"--threads must be at least 1, got {threads}")
    if backend not in BACKENDS:
        raise GQError(f"--backend: unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if queue is not None and queue not in QUEUES:
        raise GQError(f"--queue: unknown queue {queue!r}; allowed: {', '.join(QUEUES)}")
    aovs = parse_aov_list(aov_text) if aov_text is not None else ()

    # Imported here: the renderer pulls in its native build, which `gq --help` should not pay for.
    from raytrace import render as rt
    from raytrace.scene import load_scene

    if renderer not in rt.RENDERERS:
        raise GQError(f"--renderer: unknown renderer {renderer!r}; allowed: {', '.join(rt.RENDERERS)}")
    if queue is not None and renderer != "queue":
        raise GQError(f"--queue applies to --renderer queue only; the {renderer} renderer uses no queue")
    shape = rt.parse_tiles(tiles) if tiles is not None else None

    # 2. The scene, with the overrides; then what depends on the final image size.
    scene = load_scene(scene_path).with_image(width=width, height=height, spp=spp)
    used, said = describe_backend(backend)
    opts = rt.RenderOptions(width=scene.width, height=scene.height, spp=scene.spp, renderer=renderer,
                            tiles=shape, backend=used, threads=threads, aov=bool(aovs), accel=accel,
                            mesh_build=mesh_build, **({"queue": queue} if queue is not None else {}))
    rt.validate_options(opts)
    report_skipped(scene)

    # 3. The render.
    how = f"{renderer} renderer" + (f" on {opts.queue}, {opts.tiles[0]}x{opts.tiles[1]} tiles"
                                    if renderer == "queue" else "")
    click.echo(f"rendering {scene.name}: {scene.width}x{scene.height}, {scene.spp} spp, {how}, {said}")
    with click.progressbar(length=PROGRESS_STEPS, label="rendering", file=sys.stderr) as bar:
        shown = 0

        def progress(fraction: float) -> None:
            nonlocal shown
            target = int(min(max(fraction, 0.0), 1.0) * PROGRESS_STEPS)
            if target > shown:
                bar.update(target - shown)
                shown = target

        result = rt.render(scene, opts, progress=progress)
        progress(1.0)

    # 4. The files: the PNG first (what the user asked for), then the AOVs beside it.
    try:
        written = [write_png(output, to_srgb8(result.image))]
        if aovs:
            if not result.aov:
                raise GQError("--aov: the renderer returned no AOVs")  # a renderer bug, said plainly
            written += write_aovs(output, {name: result.aov[name] for name in aovs})
    except OSError as exc:
        raise GQError(f"-o {output}: cannot write: {exc.strerror or exc}") from None

    r = result.rays
    click.echo(f"rays: primary {r['primary']:,}  reflection {r['reflection']:,}  shadow {r['shadow']:,}  "
               f"total {result.total_rays:,}")
    click.echo(f"non-finite samples dropped: {result.nonfinite:,}")
    click.echo(f"time: {result.seconds:.3f} s  ({result.mrays_per_s:.2f} MRays/s, backend {result.backend})")
    for path in written:
        click.echo(f"wrote {path}")
    return 0


def report_skipped(scene) -> None:
    """One note per mesh that had faces of zero area (they are left out; they could not be hit)."""
    for field, count in getattr(scene, "skipped", ()):
        click.echo(f"gq: note: {scene.path}: {field}: skipped {count:,} degenerate triangle{'s' if count != 1 else ''}",
                   err=True)


@click.group()
def bench() -> None:
    """Measure what the queues drive, against their baselines."""


@bench.command("render")
@click.option("--scene", "scene_paths", multiple=True, required=True,
              type=click.Path(dir_okay=False, path_type=Path), help="Scene file (TOML); repeat for more.")
@click.option("--width", type=int, default=1920, show_default=True)
@click.option("--height", type=int, default=1080, show_default=True)
@click.option("--spp", type=int, default=4, show_default=True, help="Samples per pixel.")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
@click.option("--queue", "queue_texts", multiple=True,
              help=f"Queue(s) for the queue renderer, repeated or comma-separated: {', '.join(QUEUES)} "
                   "[default: all].")
@click.option("--repeats", type=int, default=5, show_default=True, help="Measured renders per configuration.")
@click.option("--warmup", type=int, default=1, show_default=True, help="Unmeasured renders first.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where the record goes [default: benchmarks/render-<date>.json].")
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Bar chart PNG [default: the JSON's name with .png].")
@click.option("--accel", default="bvh", show_default=True, help="bvh, or none (every primitive per ray).")
@click.option("--rays", "rays_mode", default="all", show_default=True,
              help="all (primary, reflection and shadow rays), or primary (each sample traces its primary "
                   "ray only: no reflections, no shadow rays; MRays/s is primary rays per second).")
@click.option("--mesh-build", default="sah", show_default=True, help="Triangle BVH build: sah or lbvh.")
def bench_render(scene_paths, width, height, spp, backend, queue_texts, repeats, warmup, json_out, chart,
                 accel, rays_mode, mesh_build) -> int:
    """Rays per second of the queue renderer on each queue vs the compaction baseline."""
    from raytrace.bench import RAY_MODES, run_bench, write_bench

    if rays_mode not in RAY_MODES:
        raise GQError(f"--rays: unknown mode {rays_mode!r}; allowed: {', '.join(RAY_MODES)}")
    check_range("--width", width, 1, MAX_IMAGE_SIDE)
    check_range("--height", height, 1, MAX_IMAGE_SIDE)
    check_range("--spp", spp, 1, MAX_SPP)
    queues = parse_queue_list(queue_texts)
    for path in scene_paths:
        if not path.is_file():
            raise GQError(f"--scene {path}: no such file")
    if json_out is None:
        json_out = default_json_path()
    chart = chart if chart is not None else json_out.with_suffix(".png")
    # Folders of the record and chart are made when they are written (the default is benchmarks/).
    check_output_path("--json", json_out, ".json", "the record is JSON", folder=False)
    check_output_path("--chart", chart, ".png", "the chart is a PNG", folder=False)
    _, said = describe_backend(backend)
    click.echo(said)

    with contextlib.ExitStack() as stack:
        bar, shown = None, 0

        def progress(fraction: float, what: str) -> None:
            # The bar opens on the first call: run_bench checks its input and loads every scene
            # before that, and an error there must stay the one line on stderr.
            nonlocal bar, shown
            if bar is None:
                bar = stack.enter_context(click.progressbar(length=PROGRESS_STEPS, label="measuring",
                                                            file=sys.stderr))
            bar.label = f"measuring {what}"
            target = int(min(max(fraction, 0.0), 1.0) * PROGRESS_STEPS)
            if target > shown:
                bar.update(target - shown)
                shown = target

        result = run_bench(scene_paths, width, height, spp, backend, queues, repeats=repeats, warmup=warmup,
                           accel=accel, rays=rays_mode, mesh_build=mesh_build, progress=progress,
                           on_row=lambda rec: write_bench(rec, json_out))

    print_bench_table(result["rows"])
    note = write_bench(result, json_out, chart)
    click.echo(f"wrote {json_out}")
    if note:
        click.echo(f"gq: {note}", err=True)
    else:
        click.echo(f"wrote {chart}")
    mismatched = [r for r in result["rows"] if not r["identical_to_compaction"]]
    for r in mismatched:
        click.echo(f"gq: warning: {r['scene']}: the {r['queue']} image differs from the compaction baseline's",
                   err=True)
    return 0


def print_bench_table(rows: list[dict]) -> None:
    head = ("scene", "renderer", "queue", "tiles", "MRays/s", "min", "max", "vs compaction", "same image")
    table = []
    for r in rows:
        m = r["mrays_per_s"]
        ratio = r["ratio_to_compaction"]
        tiles = "x".join(str(t) for t in r["tiles"]) if r["queue"] and r.get("tiles") else "-"
        table.append((r["scene"], r["renderer"], r["queue"] or "-", tiles, _num(m["median"]), _num(m["min"]),
                      _num(m["max"]), f"{ratio:.2f}x" if ratio is not None else "-",
                      "yes" if r["identical_to_compaction"] else "NO"))
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(head)]
    click.echo("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in table:
        click.echo("  ".join(v.rjust(w) for v, w in zip(row, widths)))


def _num(x: float | None) -> str:
    return f"{x:.2f}" if x is not None else "-"


def default_json_path(today: datetime.date | None = None) -> Path:
    """benchmarks/render-<date>.json; a second run the same day gets -2, -3, ... rather than
    overwriting the first one's measurements."""
    stem = f"render-{(today or datetime.date.today()).isoformat()}"
    path = Path("benchmarks") / f"{stem}.json"
    n = 2
    while path.exists() or path.with_suffix(".png").exists():
        path = Path("benchmarks") / f"{stem}-{n}.json"
        n += 1
    return path
