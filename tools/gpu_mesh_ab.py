"""A/B of the mesh traversal's compile-time variants on one GPU, in one device call (about 100 s):

    python3 tools/gpu_mesh_ab.py OUT_DIR

Primary rays on scenes/terrain1m.toml (1,002,528 triangles) at 1920x1080, 4 spp, as
`tools/gpu_mesh_bench.py` measures them (`gq bench render --rays primary`), for each variant of
kernels/render.cu and rt/mesh_bvh.h (VARIANTS below; RT_MESH_ARITY=2 traces the binary trees,
which raytrace/mesh_accel.py then hands over instead of their 4-wide collapse): the compaction baseline over the SAH tree
and over the LBVH tree, the queue renderer (glfq) over the SAH tree, median of 5 renders after one
warm-up (CUDA events), and the traversal alone: rt_aov, one closest hit per pixel centre, no path
state (median of 5 launches).

Every image must equal the first one rendered bit for bit: the variants change the speed, never a
pixel, and the two trees and the two renderers find the same hits; the table says so per row.
What the counts predict (tools/mesh_trace_counts.py, before any of this ran on a GPU): a primary
ray fetches 20.4 binary nodes (64 B) and tests 2.35 triangles (48 B) in the SAH tree, about 2,000
instructions; at the H200's issue rate that allows over 10 G rays/s, and run 11 reached 1.47 G,
so the traversal waits on its dependent loads. Hence, in order: 4 blocks per SM (32 warps instead
of 16 to cover the latency) 1.3-1.6x; the 4-wide tree (10.5 fetches of 112 B instead of 20.4 of
64 B, about 20% more instructions) 1.4-1.7x; 8x4 blocks (the slowest lane of a warp: 25.0 instead
of 26.5 nodes, 4.3 instead of 4.7 triangles) about 1.05x; fmaf slabs (6 instead of 12 operations
per box, one dependent step less) about 1.04x. Together about 2.2 to 3.5 G rays/s over SAH.

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
TIME_BUDGET_S = 130.0
BACKEND = "cuda"

# (name, defines). The first is run 11's code: the binary tree, a launch bound of 2 blocks per SM
# (what the compiler chose unbounded: 112 registers), row order, subtract-then-multiply slabs.
# Each next binary row adds one change; the wide rows then vary the blocks per SM of the default.
VARIANTS = [
    ("run11", ("RT_MESH_ARITY=2", "RT_MIN_BLOCKS=2", "RT_ROW_ORDER=1", "RT_SLAB_FMA=0")),
    ("bin+fma", ("RT_MESH_ARITY=2", "RT_MIN_BLOCKS=2", "RT_ROW_ORDER=1")),
    ("bin+fma+8x4", ("RT_MESH_ARITY=2", "RT_MIN_BLOCKS=2")),
    ("bin+fma+8x4+4/SM", ("RT_MESH_ARITY=2",)),
    ("wide 2/SM", ("RT_MIN_BLOCKS=2",)),
    ("wide 3/SM", ("RT_MIN_BLOCKS=3",)),
    ("default", ()),  # 4-wide tree, fmaf slabs, 8x4 blocks, 4 blocks per SM
]
CONFIGS = [("compaction", "sah"), ("compaction", "lbvh"), ("queue", "sah")]


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

    columns = [f"{r} {b}" for r, b in CONFIGS] + ["first hits sah"]
    for name, defines in VARIANTS:
        if time.perf_counter() - started > TIME_BUDGET_S:
            record["skipped"].append(name)
            print(f"{name}: skipped (past {TIME_BUDGET_S:.0f} s)", flush=True)
            continue
        row = {"name": name, "defines": list(defines), "cells": {}}
        t_variant = time.perf_counter()
        with kernel_variant(defines):
            for column, job in zip(columns, [lambda r=r, b=b: measure(r, b) for r, b in CONFIGS] + [first_hits]):
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
        cells = [f"{rate(row, c):8.0f} ({rate(row, c) / base[c]:4.2f}x)" if rate(row, c) else "FAILED" for c in columns]
        same = all(v.get("identical_to_first_image", True) for v in row["cells"].values() if "error" not in v)
        print(f"{row['name']:17s} " + " ".join(f"{x:>22s}" for x in cells) + f"  {same}")
    print("MRays/s, median of 5 (x: against the first variant that ran, run11's code); queue = glfq; "
          "first hits = rt_aov, 1 spp, row order")
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
