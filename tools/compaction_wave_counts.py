"""What each compaction variant (raytrace/compaction_variants.py) must do on a scene, counted on
the host with no GPU (raytrace/wave_schedule.py): launches, non-empty waves, items, warp steps
and warp fill, bytes of path state and lists, atomics. The counts to predict
tools/gpu_render_ab.py's times from.

    python3 tools/compaction_wave_counts.py [OUT.json] [--scene PATH ...] [--resident THREADS]

Default: spheres100 and cornell at 1920x1080, 4 spp, BVH; 135,168 resident threads (an H200's
132 SMs x 4 blocks of 256, rt_wave's launch bound). About 20 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from queues_cuda.files import write_json_atomically
from queues_cuda.provenance import provenance
from raytrace import wave_schedule
from raytrace.compaction_variants import VARIANTS, defines
from raytrace.render import RenderOptions, SceneArrays
from raytrace.scene import load_scene

SCENES = (ROOT / "scenes" / "spheres100.toml", ROOT / "scenes" / "cornell.toml")
WIDTH, HEIGHT, SPP = 1920, 1080, 4
RESIDENT = 132 * 4 * 256
DEFAULTS = {"RT_WAVE_SAMPLES": 1, "RT_WAVE_FETCH": 1, "RT_FIRST_WAVE_FROM_INDEX": 1}


def switches(variant: str) -> dict[str, int]:
    """The variant's values of the switches that change the schedule (RT_POSTPONE_LEAVES does
    not: it only reorders triangle tests within one ray)."""
    values = dict(DEFAULTS)
    for d in defines(variant):
        name, value = d.split("=")
        if name in values:
            values[name] = int(value)
    return values


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, nargs="?")
    ap.add_argument("--scene", type=Path, action="append")
    ap.add_argument("--resident", type=int, default=RESIDENT, help="threads of the compaction grid")
    args = ap.parse_args(argv)
    rows = []
    for path in args.scene or SCENES:
        scene = load_scene(path).with_image(width=WIDTH, height=HEIGHT, spp=SPP)
        opts = RenderOptions(width=WIDTH, height=HEIGHT, spp=SPP, renderer="compaction", backend="cpu")
        t = time.perf_counter()
        arrays = SceneArrays.of(scene, WIDTH, HEIGHT, opts.accel, opts.mesh_build, "cpu")
        traces = wave_schedule.segment_traces(arrays, opts, os.cpu_count() or 1)
        print(f"{scene.name}: {int(traces.astype('int64').sum()):,} rays counted in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        launches = SPP * (arrays.max_depth + 1)
        replays = {}
        for variant in VARIANTS:
            sw = switches(variant)
            mode = sw["RT_WAVE_SAMPLES"]
            if mode not in replays:
                replays[mode] = wave_schedule.replay(traces, WIDTH, HEIGHT, mode)
            waves = replays[mode]
            t = wave_schedule.traffic(waves, WIDTH * HEIGHT, launches, args.resident, fetch=bool(sw["RT_WAVE_FETCH"]),
                                      from_index=bool(sw["RT_FIRST_WAVE_FROM_INDEX"]))
            t["per_wave"] = [{"items": w.items, "warp_steps": w.warp_steps, "fill": round(w.fill, 4),
                              "iterations": w.iterations} for w in waves]
            rows.append({"scene": scene.name, "variant": variant, "switches": sw, **t})
    header = (f"{'scene':11s} {'variant':13s} {'launch':>6s} {'waves>0':>7s} {'items M':>8s} {'warp-steps M':>12s} "
              f"{'fill':>5s} {'paths GB':>8s} {'fetch K':>7s} {'append K':>8s} {'samples K':>9s}")
    print(header)
    for r in rows:
        print(f"{r['scene']:11s} {r['variant']:13s} {r['launches']:6d} {r['nonempty_waves']:7d} "
              f"{r['items'] / 1e6:8.2f} {r['warp_steps'] / 1e6:12.3f} "
              f"{r['lane_traces'] / (wave_schedule.WARP * r['warp_steps']):5.3f} {r['bytes_paths'] / 1e9:8.2f} "
              f"{r['atomics_fetch'] / 1e3:7.0f} {r['atomics_append'] / 1e3:8.0f} {r['atomics_samples'] / 1e3:9.0f}")
    if args.out:
        write_json_atomically(args.out, provenance(command=sys.argv, kind="compaction-wave-counts",
                                                   settings={"width": WIDTH, "height": HEIGHT, "spp": SPP,
                                                             "resident_threads": args.resident,
                                                             "model": wave_schedule.__doc__},
                                                   rows=rows))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
