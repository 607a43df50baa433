"""Where the tile renderer's time goes, by phase of a worker warp's loop, on one GPU:

    python3 tools/gpu_tile_profile.py OUT_DIR [--queue NAME ...] [--scene PATH ...]

For each queue (default glfq and gwfq) and scene (default spheres100 and cornell; 1920x1080,
4 spp, BVH, each queue's default tiles, as `gq bench render`):
  * the shipped build: one warm-up render, then five timed (render_cuda's CUDA events), median;
    and the compaction baseline the same way, for the ratio `gq bench render` reports;
  * the RT_PROFILE=1 build (rt/tile_profile.h): one warm-up render, the profile rows zeroed, one
    render read back. Per warp and loop iteration, the SM clock of the warp's leader splits the
    loop into dequeue (the queue phase: the last round's requeues and this round's dequeues),
    trace (the blocks' round), requeue (empty since the requeues joined the queue phase) and idle;
    the table gives each as a share
    of the workers' cycles, with the rest (mostly the stop test) last, and per working iteration
    the cycles of each phase.
The profiled build's image must equal the shipped build's bit for bit (the profile only reads the
clock); its time is reported beside the shipped one, so the profile's own cost is visible.

Writes OUT_DIR/tile-profile.json (card, commit, command, every figure) and prints a table last.
"""

from __future__ import annotations

import argparse
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
from raytrace.build import cuda_module, kernel_variant
from raytrace.render import RenderOptions, SceneArrays, default_tiles
from raytrace.scene import load_scene

SCENES = (ROOT / "scenes" / "spheres100.toml", ROOT / "scenes" / "cornell.toml")
WIDTH, HEIGHT, SPP = 1920, 1080, 4
WARMUP, REPEATS = 1, 5
PROFILE = ("RT_PROFILE=1",)
# rt/tile_profile.h's TileProfileWord, in order, and its row count.
WORDS = ("dequeue", "trace", "requeue", "idle", "work_iters", "idle_iters", "total")
PROFILE_WARPS = 8192


def timed(arrays, opts, kind) -> tuple[list[float], object]:
    from raytrace.cuda_render import render_cuda

    results = [render_cuda(arrays, opts, kind) for _ in range(WARMUP + REPEATS)][WARMUP:]
    return [r.seconds for r in results], results[-1]


def profiled(arrays, opts, kind) -> tuple[dict, object]:
    """One render of the RT_PROFILE=1 build after a warm-up, and its rows summed over warps."""
    import cupy

    from raytrace.cuda_render import render_cuda

    with kernel_variant(PROFILE):
        render_cuda(arrays, opts, kind)
        mod = cuda_module(kind.kind_id)
        rows = cupy.ndarray((PROFILE_WARPS, len(WORDS)), cupy.uint64, memptr=mod.get_global("rt_tile_profile"))
        rows.fill(0)
        result = render_cuda(arrays, opts, kind)
        sums = rows.sum(axis=0).get()
    return dict(zip(WORDS, (int(x) for x in sums))), result


def shares(p: dict) -> dict:
    total = max(p["total"], 1)
    out = {k: p[k] / total for k in ("dequeue", "trace", "requeue", "idle")}
    out["rest"] = 1.0 - sum(out.values())
    iters = max(p["work_iters"], 1)
    out.update(cycles_per_work_iter={k: p[k] / iters for k in ("dequeue", "trace", "requeue")},
               idle_iters_per_work_iter=p["idle_iters"] / iters)
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--queue", action="append", choices=list(QUEUES),
                    help="queues to profile (default glfq, gwfq; sfq's blocking form has the same phases)")
    ap.add_argument("--scene", type=Path, action="append", help="scenes (default spheres100, cornell)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    out = args.out_dir / "tile-profile.json"
    queues = args.queue or ["glfq", "gwfq"]
    record = provenance(command=sys.argv, kind="tile-profile",
                        settings={"width": WIDTH, "height": HEIGHT, "spp": SPP, "accel": "bvh",  # tiles: each row's
                                  "warmup": WARMUP, "repeats": REPEATS, "profile_defines": list(PROFILE)},
                        rows=[])
    failures = []
    for path in args.scene or list(SCENES):
        scene = load_scene(path).with_image(width=WIDTH, height=HEIGHT, spp=SPP)
        base = RenderOptions(width=WIDTH, height=HEIGHT, spp=SPP, renderer="compaction", backend="cuda", accel="bvh")
        arrays = SceneArrays.of(scene, WIDTH, HEIGHT, base.accel, base.mesh_build, "cuda")
        seconds, ref = timed(arrays, base, QUEUES[base.queue])
        compaction_ms = 1e3 * statistics.median(seconds)
        print(f"{scene.name}: compaction {compaction_ms:.3f} ms, {ref.total_rays / 1e9 / (compaction_ms / 1e3):.2f} "
              "G rays/s", flush=True)
        for q in queues:
            opts = dataclasses.replace(base, renderer="queue", queue=q, tiles=default_tiles(q))
            seconds, shipped = timed(arrays, opts, QUEUES[q])
            prof, result = profiled(arrays, opts, QUEUES[q])
            same = bool(np.array_equal(result.image.view(np.uint32), shipped.image.view(np.uint32))
                        and result.rays == shipped.rays)
            if not same:
                failures.append(f"{scene.name}, {q}: the profiled build's image or rays differ from the shipped build's")
            ms = 1e3 * statistics.median(seconds)
            row = {"scene": scene.name, "queue": q, "tiles": list(opts.tiles),
                   "total_rays": int(shipped.total_rays), "rays": shipped.rays,
                   "ms_median": ms, "seconds_each": [round(s, 7) for s in seconds],
                   "grays_per_s": shipped.total_rays / (ms / 1e3) / 1e9, "compaction_ms_median": compaction_ms,
                   "ratio_to_compaction": compaction_ms / ms, "profiled_ms": 1e3 * result.seconds,
                   "threads": shipped.threads, "profile": prof, "shares": shares(prof), "profiled_image_same": same}
            record["rows"].append(row)
            record["elapsed_s"] = round(time.perf_counter() - started, 1)
            write_json_atomically(out, record)
            print(f"  {q}: {ms:.3f} ms ({row['grays_per_s']:.2f} G rays/s, {row['ratio_to_compaction']:.2f}x "
                  f"compaction), profiled {row['profiled_ms']:.3f} ms", flush=True)
    record["failures"] = failures
    record["elapsed_s"] = round(time.perf_counter() - started, 1)
    write_json_atomically(out, record)
    print()
    print(f"{'scene':12s} {'queue':6s} {'ms':>8s} {'xcomp':>6s} {'prof ms':>8s} {'dequeue':>8s} {'trace':>7s} "
          f"{'requeue':>8s} {'idle':>6s} {'rest':>6s} {'cyc deq/trace/req per iter':>28s}")
    for r in record["rows"]:
        s = r["shares"]
        c = s["cycles_per_work_iter"]
        print(f"{r['scene']:12s} {r['queue']:6s} {r['ms_median']:8.3f} {r['ratio_to_compaction']:6.2f} "
              f"{r['profiled_ms']:8.3f} {s['dequeue']:8.1%} {s['trace']:7.1%} {s['requeue']:8.1%} {s['idle']:6.1%} "
              f"{s['rest']:6.1%} {c['dequeue']:9.0f}/{c['trace']:.0f}/{c['requeue']:.0f}")
    print(f"wrote {out} in {record['elapsed_s']} s")
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
