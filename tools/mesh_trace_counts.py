"""What a primary ray costs in the triangle hierarchy, counted on the host (no GPU):

    python3 tools/mesh_trace_counts.py [OUT.json]

On scenes/terrain1m.toml at 1920x1080, sample 0 of every pixel (the rays `gq bench render --rays
primary` traces), through the 4-wide trees the renderers trace (rt/bvh_collapse.h) of the SAH
and the LBVH build: node rows fetched and triangles tested per ray (host/trace_counts.cpp runs
rt/mesh_bvh.h's traversal, the renderers' own, with a counter), the bytes they read, and per warp
of 32 rays the largest count among its lanes, in row order and in the 8x4 blocks of
rt/pixel_order.h that the renderers use: a warp runs until its slowest lane is done, so mean /
warp-max is the share of lanes that do useful work (SIMT efficiency).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from raytrace import mesh_accel
from raytrace.scene import load_scene

SCENE = ROOT / "scenes" / "terrain1m.toml"
WIDTH, HEIGHT, SPP = 1920, 1080, 4
NODE_BYTES = 4 * 28  # a wide node's last 16 bytes are never read
TRI_BYTES = 4 * mesh_accel.TRI_FLOATS


def warp_stats(per_pixel: np.ndarray, order: np.ndarray) -> dict:
    lanes = per_pixel.ravel()[order].astype(np.float64).reshape(-1, 32)
    warp_max = float(lanes.max(axis=1).mean())
    return {"warp_max_mean": warp_max, "simt_efficiency": float(lanes.mean()) / warp_max if warp_max else None}


def main(out: Path | None) -> None:
    scene = load_scene(SCENE)
    tris = scene.triangles
    cam = scene.camera.basis(WIDTH, HEIGHT)
    orders = {"row": np.arange(WIDTH * HEIGHT), "8x4": mesh_accel.pixel_order(WIDTH, HEIGHT).astype(np.int64)}
    record = {"scene": str(SCENE.relative_to(ROOT)), "triangles": len(tris), "width": WIDTH, "height": HEIGHT,
              "sample": 0, "spp": SPP, "builds": {}}
    for build in mesh_accel.BUILDERS:
        t = time.perf_counter()
        accel = mesh_accel.build_sah(tris) if build == "sah" else mesh_accel.build_lbvh_cpu(tris)
        c = mesh_accel.trace_counts(accel, tris, cam, WIDTH, HEIGHT, sample=0, spp=SPP)
        nodes, tested = c.nodes.astype(np.float64), c.tris.astype(np.float64)
        row = {"nodes": len(accel.nodes), "binary_depth": accel.depth, "arity": 4,
               "miss_share": float((c.tri < 0).mean()),
               "nodes_per_ray": {"mean": nodes.mean(), "p50": float(np.median(nodes)),
                                 "p95": float(np.percentile(nodes, 95)), "max": float(nodes.max())},
               "tris_per_ray": {"mean": tested.mean(), "p50": float(np.median(tested)),
                                "p95": float(np.percentile(tested, 95)), "max": float(tested.max())},
               "deepest_stack": int(c.max_stack.max()),
               "bytes_per_ray": float(NODE_BYTES * nodes.mean() + TRI_BYTES * tested.mean()),
               "warps": {name: {"nodes": warp_stats(c.nodes, o), "tris": warp_stats(c.tris, o)}
                         for name, o in orders.items()},
               "seconds": round(time.perf_counter() - t, 1)}
        record["builds"][f"{build}-4"] = row
        print(f"{build:4s} 4-wide: {row['nodes']:,} nodes, binary depth {row['binary_depth']}, misses {row['miss_share']:.1%}; per ray "
              f"{row['nodes_per_ray']['mean']:.2f} nodes (p95 {row['nodes_per_ray']['p95']:.0f}), "
              f"{row['tris_per_ray']['mean']:.2f} triangles (p95 {row['tris_per_ray']['p95']:.0f}), "
              f"{row['bytes_per_ray']:.0f} B, stack <= {row['deepest_stack']}", flush=True)
        for name, w in row["warps"].items():
            print(f"      {name:3s} warps: slowest lane {w['nodes']['warp_max_mean']:.2f} nodes, "
                  f"{w['tris']['warp_max_mean']:.2f} triangles; SIMT efficiency "
                  f"{w['nodes']['simt_efficiency']:.2f} (nodes), {w['tris']['simt_efficiency']:.2f} (triangles)")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.exit("usage: python3 tools/mesh_trace_counts.py [OUT.json]")
    main(Path(sys.argv[1]) if len(sys.argv) == 2 else None)
