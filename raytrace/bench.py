"""`gq bench render`: rays per second of the queue-driven renderer on each queue, against the
stream-compaction baseline on the same scene, measured in the same run (DESIGN.md, "Measuring":
a speed claim is a ratio against a baseline, with the card, the commit and the command stored).

Every configuration is rendered ``warmup`` times unmeasured (kernel compilation, caches, clocks),
then ``repeats`` times measured, a scene's configurations taking turns; rows report the median
and the spread. The render itself times its own work (CUDA events on the GPU, behind the launch
gate of raytrace/cuda_render.py; wall clock on the CPU), so compilation never counts.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from queues_cuda.backend import resolve
from queues_cuda.errors import GQError
from queues_cuda.files import write_file_atomically
from queues_cuda.provenance import provenance
from queues_cuda.queues import QUEUES

from .cuda_render import launch_gate_on

BASELINE = "compaction"
# all: the scene as it is; primary: every sample traces its primary ray only (max_depth 0, no
# lights, so no shadow rays): the first-hit speed of the traversal, in primary rays per second.
RAY_MODES = ("all", "primary")
PLOT_HINT = "pip install 'gpu-queues[plot]'"


def run_bench(scene_paths, width: int | None, height: int | None, spp: int | None, backend: str = "auto",
              queues=None, repeats: int = 5, warmup: int = 1, accel: str = "bvh", rays: str = "all",
              mesh_build: str = "sah", progress: Callable[[float, str], None] | None = None,
              on_row: Callable[[dict], None] | None = None) -> dict:
    """Render every scene with the compaction baseline and the queue renderer on each queue.

    ``on_row(record)`` receives the record so far after each scene, so a run that is stopped
    part-way still leaves what it measured. ``width``/``height``/``spp`` of None keep the
    scene's own. ``queues`` None means all of
    QUEUES. ``progress(fraction_done, what)`` is called from this thread as renders advance.
    Returns the JSON record: provenance, the settings and one row per (scene, configuration).
    Every input is checked, and every scene loaded, before the first render starts.
    """
    # Imported here: the renderer pulls in its native build, which `gq --help` should not pay for.
    import dataclasses

    from raytrace.render import RenderOptions, default_tiles, render, validate_options
    from raytrace.scene import load_scene

    if rays not in RAY_MODES:
        raise GQError(f"--rays: unknown mode {rays!r}; allowed: {', '.join(RAY_MODES)}")
    if repeats < 1:
        raise GQError(f"--repeats must be at least 1, got {repeats}")
    if warmup < 0:
        raise GQError(f"--warmup must be 0 or more, got {warmup}")
    names = list(QUEUES) if queues is None else list(dict.fromkeys(queues))
    if not names:
        raise GQError(f"--queue: give at least one queue; allowed: {', '.join(QUEUES)}")
    for q in names:
        if q not in QUEUES:
            raise GQError(f"--queue: unknown queue {q!r}; allowed: {', '.join(QUEUES)}")
    scene_paths = [Path(p) for p in scene_paths]
    if not scene_paths:
        raise GQError("--scene: give at least one scene file")
    used = resolve(backend)

    plan = []  # (path, scene, options) in the order they run
    for path in scene_paths:
        scene = load_scene(path).with_image(width=width, height=height, spp=spp)
        if rays == "primary":
            scene = dataclasses.replace(scene, max_depth=0, lights=np.zeros((0, 6), np.float32))
        for renderer, queue in [(BASELINE, None)] + [("queue", q) for q in names]:
            # The queue's default tiling, cut down where the image is smaller than it in an axis
            # (a quick benchmark on a tiny image should not fail on a setting the user never gave).
            tiles = tuple(min(t, side) for t, side in zip(default_tiles(queue or RenderOptions.queue),
                                                          (scene.width, scene.height)))
            opts = RenderOptions(width=scene.width, height=scene.height, spp=scene.spp, renderer=renderer,
                                 tiles=tiles, backend=used, accel=accel, mesh_build=mesh_build,
                                 **({"queue": queue} if queue else {}))
            validate_options(opts)
            plan.append((path, scene, opts))

    settings = {
        "scenes": [str(p) for p in scene_paths],
        "width": width, "height": height, "spp": spp,
        "backend": backend, "backend_used": used,
        "queues": names, "repeats": repeats, "warmup": warmup, "accel": accel, "rays": rays,
        "mesh_build": mesh_build,
        "timing": f"median of {repeats} measured renders after {warmup} warm-up, a scene's "
                  "configurations taking turns; "
                  "CUDA events on the GPU (behind the launch gate unless GQ_LAUNCH_GATE=0: "
                  f"{'on' if launch_gate_on() else 'off'}), wall clock on the CPU; "
                  "compilation excluded",
    }

    def record() -> dict:
        return provenance(command=sys.argv, kind="render-bench", settings=settings, rows=list(rows))

    # Per scene, every configuration's warm-up first, then the measured renders round-robin
    # (baseline, queue, queue, ..., baseline, ...), so that a drift of the card's state over the
    # scene's renders (clocks, the memory pool, whatever ran just before) falls on every
    # configuration alike instead of on whichever ran first. It did not steady cornell's baseline
    # (H100: 14.1-16.2 G rays/s in run 403, one configuration after another, 14.8-16.1 G in run 406,
    # in turn, against 18.3 G timed alone in run 405): that one was the host's pace, its 21 launches
    # enqueued more slowly than the GPU runs them (run 407), which the launch gate of
    # raytrace/cuda_render.py now keeps out of every render's time (run 409: 21.4 G, five renders
    # within 0.7 %).
    total = len(plan) * (warmup + repeats)
    done = 0
    if progress:  # only now: every input has been checked, the measuring starts
        progress(0.0, "starting")
    rows: list[dict] = []
    scenes = list(dict.fromkeys(path for path, _, _ in plan))
    for scene_path in scenes:
        configs = [(scene, opts) for path, scene, opts in plan if path == scene_path]
        results: list[list] = [[] for _ in configs]
        order = [(c, False) for c in range(len(configs)) for _ in range(warmup)]
        order += [(c, True) for _ in range(repeats) for c in range(len(configs))]
        for c, measured in order:
            scene, opts = configs[c]
            what = f"{scene.name}: {opts.renderer}" + (f" ({opts.queue})" if opts.renderer != BASELINE else "")

            def step(fraction: float, _done=done, _what=what) -> None:
                if progress:
                    progress((_done + min(max(fraction, 0.0), 1.0)) / total, _what)

            result = render(scene, opts, progress=step)
            done += 1
            if progress:
                progress(done / total, what)
            if measured:
                results[c].append(result)
        base_mrays, base_image = None, None
        for (scene, opts), runs in zip(configs, results):
            row = _row(scene_path, scene, opts, runs)
            if opts.renderer == BASELINE:
                base_mrays, base_image = row["mrays_per_s"]["median"], runs[-1].image
                row["ratio_to_compaction"] = 1.0
                row["identical_to_compaction"] = True
            else:
                row["ratio_to_compaction"] = _finite(row["mrays_per_s"]["median"] / base_mrays) if base_mrays else None
                # DESIGN.md: one ray per pixel sample in flight fixes the accumulation order, so the
                # queue renderer's image must equal the baseline's bit for bit on the same device.
                row["identical_to_compaction"] = bool(np.array_equal(runs[-1].image, base_image))
            rows.append(row)
        if on_row:
            on_row(record())

    return record()


def _row(path: Path, scene, opts, results: list) -> dict:
    mrays = [float(r.mrays_per_s) for r in results]
    seconds = [float(r.seconds) for r in results]
    rays = dict(results[-1].rays)
    rays["total"] = int(results[-1].total_rays)
    return {
        "scene": scene.name,
        "scene_path": str(path),
        "width": opts.width, "height": opts.height, "spp": opts.spp, "tiles": list(opts.tiles),
        "renderer": opts.renderer,
        "queue": opts.queue if opts.renderer != BASELINE else None,
        "backend": results[-1].backend,
        "accel": opts.accel,
        "mesh_build": opts.mesh_build,
        "triangles": len(getattr(scene, "triangles", ())),
        "threads": int(results[-1].threads),
        "mrays_per_s": _spread(mrays),
        "seconds": _spread(seconds),
        "seconds_each": [round(s, 6) for s in seconds],
        "rays": rays,
        # The same scene and settings trace the same rays every time; a change means a bug.
        "rays_stable": all(dict(r.rays) == dict(results[-1].rays) for r in results),
        "nonfinite": int(results[-1].nonfinite),
    }


def _spread(values: list[float]) -> dict:
    return {"median": _finite(statistics.median(values)), "min": _finite(min(values)), "max": _finite(max(values))}


def _finite(x: float) -> float | None:
    # JSON has no inf or NaN; a zero-time render would give one, and must not spoil the file.
    return float(x) if math.isfinite(x) else None


def write_bench(result: dict, json_path, png_path=None) -> str | None:
    """Write the JSON record, then the bar chart. Each file is written whole or not at all.

    Returns None when everything was written, else a note for the user: the chart needs the
    optional matplotlib (``pip install 'gpu-queues[plot]'``); without it the JSON alone is written.
    """
    json_path = Path(json_path)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result, indent=2, allow_nan=False) + "\n"
    write_file_atomically(json_path, lambda f: f.write(text.encode()))
    if png_path is None:
        return None
    try:
        # Figure without pyplot: no global state, no GUI backend; saving goes through Agg.
        from matplotlib.figure import Figure
    except ImportError:
        return f"chart skipped: matplotlib is not installed ({PLOT_HINT})"
    png_path = Path(png_path)
    png_path.parent.mkdir(parents=True, exist_ok=True)
    fig = _chart(result, Figure)
    write_file_atomically(png_path, lambda f: fig.savefig(f, format="png"))
    return None


def _chart(result: dict, Figure):
    rows = result["rows"]
    scenes = list(dict.fromkeys(r["scene_path"] for r in rows))
    labels = {r["scene_path"]: r["scene"] for r in rows}
    configs = list(dict.fromkeys(_config(r) for r in rows))
    by_key = {(r["scene_path"], _config(r)): r for r in rows}

    fig = Figure(figsize=(max(7.5, 1.5 + len(scenes) * (0.55 * len(configs) + 0.6)), 4.8), dpi=120,
                 layout="constrained")
    ax = fig.add_subplot()
    step = 0.8 / len(configs)
    x = np.arange(len(scenes), dtype=float)
    for j, config in enumerate(configs):
        heights, low, high, texts = [], [], [], []
        for s in scenes:
            row = by_key.get((s, config))
            base = by_key[(s, BASELINE)]["mrays_per_s"]["median"]
            if row is None or not base or row["ratio_to_compaction"] is None:
                heights.append(0.0), low.append(0.0), high.append(0.0), texts.append("")
                continue
            m = row["mrays_per_s"]
            ratio = row["ratio_to_compaction"]
            heights.append(ratio)
            low.append(max(ratio - (m["min"] or 0.0) / base, 0.0))
            high.append(max((m["max"] or 0.0) / base - ratio, 0.0))
            texts.append(f"{m['median']:,.0f}")
        xs = x + (j - (len(configs) - 1) / 2) * step
        ax.bar(xs, heights, step * 0.95, yerr=[low, high], capsize=2, label=config,
               error_kw={"elinewidth": 0.8, "ecolor": "0.2"})
        # The absolute rate over each bar (above its min..max whisker): a ratio alone hides whether
        # the baseline itself was slow.
        for xi, h, up, text in zip(xs, heights, high, texts):
            ax.annotate(text, (xi, h + up), xytext=(0, 2), textcoords="offset points", ha="center",
                        va="bottom", fontsize=7)
    ax.axhline(1.0, linestyle="--", color="0.3", linewidth=1, label="compaction baseline = 1")
    ax.set_xticks(x, [labels[s] for s in scenes])
    ax.set_xlabel("scene (numbers over the bars: MRays/s, median; whiskers: min to max)")
    ax.set_ylabel("rays per second relative to compaction")
    ax.margins(y=0.12)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(_title(result), fontsize=10)
    return fig


def _config(row: dict) -> str:
    return BASELINE if row["renderer"] == BASELINE else f"{row['renderer']}: {row['queue']}"


def _title(result: dict) -> str:
    settings, rows = result["settings"], result["rows"]
    used = settings["backend_used"]
    gpu = result.get("gpu") or {}
    device = gpu.get("name", "GPU") if used == "cuda" else f"CPU ({result.get('host', 'host')})"
    sizes = {(r["width"], r["height"], r["spp"]) for r in rows}
    size = "{}x{}, {} spp".format(*sizes.pop()) if len(sizes) == 1 else "each scene's own size"
    return (f"Queue renderer vs stream compaction\n{device}, backend {used}, {size}, "
            f"median of {settings['repeats']} renders")
