"""A/B of the mesh renderers' compile-time candidates on one GPU, in one device call (about 60 s):

    python3 tools/gpu_mesh_ab.py OUT_DIR

Primary rays on scenes/terrain1m.toml (1,002,528 triangles) at 1920x1080, 4 spp, as
`tools/gpu_mesh_bench.py` measures them (`gq bench render --rays primary`), for the default build
and each candidate of rt/compaction.h, kernels/render.cu and rt/mesh_bvh.h (VARIANTS below): the
compaction baseline over the SAH tree and over the LBVH tree, median of 5 renders after one
warm-up (CUDA events). The default and RT_POSTPONE_LEAVES rows also time the queue renderer
(glfq) over the SAH tree and the traversal alone, rt_aov: one closest hit per pixel centre, no
path state, with the path kernels' launch bound and 8x4 pixel order (median of 5 launches); the
other candidates change neither.

Every image must equal the first one rendered bit for bit: the candidates change the speed, never
a pixel; the table says so per row.

What the counts predict (before any of this ran on a GPU). A render is 2,073,600 pixels x 4
samples. Per sample the default moves the path state through memory and the list once: 64 B read
+ 64 B written + 4 B of list read + 4 B appended, 2 warp-wide atomics, i.e. 1.13 GB per render
(about 0.28 ms of run 13's 3.46 ms at ~4 TB/s), in 4 waves, each ending in a tail where the SMs
drain. The traversal reads about 10.5 x 112 B + 2.4 x 48 B = 1.29 kB per ray, mostly from cache.
  RT_WAVE_SAMPLES=1: one wave does all 4 samples (no reflections here): state and list once per
    pixel instead of 4 times (0.28 GB), one tail instead of 4: 1.05-1.25x.
  RT_FIRST_WAVE_FROM_INDEX=1: the first wave reads no list and no state, and the initialisation
    writes neither: 0.28 GB less alone (about 1.03x); with RT_WAVE_SAMPLES=1 the only state traffic
    left is one 64 B write per pixel (0.13 GB): together 1.1-1.3x, toward rt_aov's ceiling.
  RT_WAVE_FETCH=1: warps fetch their items from a counter instead of a static grid-stride share
    (about 15 items per thread per wave at 4 blocks/SM on 132 SMs, whose costs vary: p95 of the
    nodes per ray is about twice the mean); rt_aov gets the same balance from the hardware's
    block scheduler (a full grid): 1.0-1.1x, more with RT_WAVE_SAMPLES=1 (4x fewer, 4x longer items).
  RT_POSTPONE_LEAVES=1: 2.4 triangle tests per ray in leaves met at different steps: about 55% of
    the lanes busy in the triangle loop; postponed, the leaf loops of a warp line up, at the price
    of idle lanes in the node phase (10.5 fetches per ray) and a few more fetches (a node is
    pushed before the hits of its own leaves shrink the ray): 0.9-1.15x, on every renderer.

Writes OUT_DIR/mesh-ab.json (card, commit, command, every figure) after each variant; a variant
that would start after TIME_BUDGET_S is skipped and named in the record.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from queues_cuda.files import write_json_atomically
from queues_cuda.provenance import provenance
from queues_cuda.queues import QUEUES
from raytrace.build import kernel_variant
from raytrace.cuda_render import time_first_hits
from raytrace.render import RenderOptions, SceneArrays, render
from raytrace.scene import load_scene

SCENE = ROOT / "scenes" / "terrain1m.toml"
WIDTH, HEIGHT, SPP = 1920, 1080, 4
REPEATS, WARMUP = 5, 1
TIME_BUDGET_S = 90.0
BACKEND = "cuda"

# (name, defines, configurations): the default first; the queue renderer and rt_aov ("first
# hits") only where the candidate touches them (RT_POSTPONE_LEAVES changes the traversal itself).
ALL = [("compaction", "sah"), ("compaction", "lbvh"), ("queue", "sah"), ("first hits", "sah")]
COMPACTION = [("compaction", "sah"), ("compaction", "lbvh")]
VARIANTS = [
    ("default", (), ALL),
    ("wave samples", ("RT_WAVE_SAMPLES=1",), COMPACTION),
    ("first from index", ("RT_FIRST_WAVE_FROM_INDEX=1",), COMPACTION),
    ("fetch", ("RT_WAVE_FETCH=1",), COMPACTION),
    ("postpone", ("RT_POSTPONE_LEAVES=1",), ALL),
    ("samples+index", ("RT_WAVE_SAMPLES=1", "RT_FIRST_WAVE_FROM_INDEX=1"), COMPACTION),
    ("s+i+fetch", ("RT_WAVE_SAMPLES=1", "RT_FIRST_WAVE_FROM_INDEX=1", "RT_WAVE_FETCH=1"), COMPACTION),
    ("all four", ("RT_WAVE_SAMPLES=1", "RT_FIRST_WAVE_FROM_INDEX=1", "RT_WAVE_FETCH=1", "RT_POSTPONE_LEAVES=1"),
     COMPACTION),
]


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / "mesh-ab.json"
    started = time.perf_counter()
    record = provenance(command=sys.argv, kind="mesh-ab", scene=str(SCENE.relative_to(ROOT)), width=WIDTH,
                        height=HEIGHT, spp=SPP, repeats=REPEATS, warmup=WARMUP, rays="primary",
                        timing="CUDA events; median of the repeats after the warm-up", variants=[], skipped=[])

    def save() -> None:
        record["elapsed_s"] = round(time.perf_counter() - started, 1)
        write_json_atomically(out, record)

    scene = load_scene(SCENE).with_image(width=WIDTH, height=HEIGHT, spp=SPP)
    scene = dataclasses.replace(scene, max_depth=0, lights=np.zeros((0, 6), np.float32))
    reference: list[np.ndarray] = []  # the first image rendered: every other must equal it

    def measure(renderer: str, build: str) -> dict:
        opts = RenderOptions(width=WIDTH, height=HEIGHT, spp=SPP, renderer=renderer, backend=BACKEND,
                             mesh_build=build)
        results = [render(scene, opts) for _ in range(WARMUP + REPEATS)][WARMUP:]
        image = results[-1].image
        if not reference:
            reference.append(image)
        mrays = [r.mrays_per_s for r in results]
        return {"renderer": renderer, "mesh_build": build, "threads": results[-1].threads,
                "mrays_per_s": {"median": statistics.median(mrays), "min": min(mrays), "max": max(mrays)},
                "seconds_each": [round(r.seconds, 6) for r in results], "rays": results[-1].total_rays,
                "identical_to_first_image": bool(np.array_equal(image.view(np.uint32), reference[0].view(np.uint32)))}

    def first_hits() -> dict:
        opts = RenderOptions(width=WIDTH, height=HEIGHT, spp=1, renderer="compaction", backend=BACKEND)
        arrays = SceneArrays.of(scene, WIDTH, HEIGHT, mesh_build="sah", backend=BACKEND)
        seconds = time_first_hits(arrays, opts, QUEUES["glfq"], REPEATS)
        return {"renderer": "first hits", "mesh_build": "sah",
                "mrays_per_s": {"median": WIDTH * HEIGHT / statistics.median(seconds) / 1e6},
                "seconds_each": [round(x, 6) for x in seconds]}

    columns = [f"{r} {b}" for r, b in ALL]
    for name, defines, configs in VARIANTS:
        if time.perf_counter() - started > TIME_BUDGET_S:
            record["skipped"].append(name)
            print(f"{name}: skipped (past {TIME_BUDGET_S:.0f} s)", flush=True)
            continue
        row = {"name": name, "defines": list(defines), "cells": {}}
        t_variant = time.perf_counter()
        with kernel_variant(defines):
            for r, b in configs:
                column = f"{r} {b}"
                job = first_hits if r == "first hits" else lambda r=r, b=b: measure(r, b)
                try:  # one failing variant must not cost the others their figures
                    row["cells"][column] = job()
                except Exception as exc:  # recorded in the row and reported, never swallowed
                    row["cells"][column] = {"error": f"{type(exc).__name__}: {exc}"}
                    print(f"{name}, {column}: FAILED: {type(exc).__name__}: {exc}", flush=True)
        row["seconds"] = round(time.perf_counter() - t_variant, 1)
        record["variants"].append(row)
        save()
        print(f"{name}: done in {row['seconds']} s", flush=True)

    def rate(row: dict, column: str) -> float | None:
        return (row["cells"].get(column) or {}).get("mrays_per_s", {}).get("median")

    base = {c: next((rate(r, c) for r in record["variants"] if rate(r, c)), None) for c in columns}
    print(f"\n{'variant':17s} " + " ".join(f"{h:>22s}" for h in columns) + "  same images")
    for row in record["variants"]:
        cells = [f"{rate(row, c):8.0f} ({rate(row, c) / base[c]:4.2f}x)" if rate(row, c) else
                 "FAILED" if c in row["cells"] else "-" for c in columns]
        same = all(v.get("identical_to_first_image", True) for v in row["cells"].values() if "error" not in v)
        print(f"{row['name']:17s} " + " ".join(f"{x:>22s}" for x in cells) + f"  {same}")
    print("MRays/s, median of 5 (x: against the first variant that ran, the default); queue = glfq; "
          "first hits = rt_aov, 1 spp, 8x4 blocks, the path kernels' launch bound")
    same_all = all(v.get("identical_to_first_image", True) for row in record["variants"] for v in row["cells"].values()
                   if "error" not in v)
    failed = [f"{row['name']} / {c}" for row in record["variants"] for c, v in row["cells"].items() if "error" in v]
    record["all_images_identical"] = same_all
    record["failed"] = failed
    save()
    print(f"every image identical across variants and renderers: {same_all}; failed: {failed or 'none'}; "
          f"wrote {out} ({record['elapsed_s']} s)")
    if failed or not same_all:
        sys.exit(1)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 tools/gpu_mesh_ab.py OUT_DIR")
    main(Path(sys.argv[1]))
