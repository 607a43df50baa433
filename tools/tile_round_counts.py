"""The tile renderer's persistent rounds replayed on the host with no GPU (raytrace/tile_schedule.py):
makespan against the work, idle share and when the workers idle, for round sizes and end-of-render
rules. The counts to predict tools/gpu_render_probe.py's SFQ 1x1 rows from.

    python3 tools/tile_round_counts.py [OUT.json] [--scene PATH ...] [--workers N] [--queue-cost STEPS]
        [--rows KMAX:TAIL,...]

Default: spheres100 and cornell at 1920x1080, 4 spp, BVH; 4,224 workers (an H100's 132 SMs x 4
blocks of 8 warps); a queue cost of 1.5 warp steps a round (SFQ's queue phase at some 15 % of a
round's tracing: run 402's profile); rows 2:0 (shipped), 3:0, 4:0, 2:1, 2:2, 4:1, where KMAX is
RT_ROUND_BLOCKS and TAIL RT_TAIL_SAMPLES. About a minute a row for spheres100 on 2 cores.
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
from raytrace import tile_schedule, wave_schedule
from raytrace.render import RenderOptions, SceneArrays
from raytrace.scene import load_scene

SCENES = (ROOT / "scenes" / "spheres100.toml", ROOT / "scenes" / "cornell.toml")
WIDTH, HEIGHT, SPP = 1920, 1080, 4
WORKERS = 132 * 4 * 8
ROWS = "2:0,3:0,4:0,2:1,2:2,4:1"


def parse_rows(text: str) -> list[tuple[int, int]]:
    rows = []
    for part in text.split(","):
        kmax, _, tail = part.partition(":")
        if not (kmax.isdigit() and tail.isdigit() and int(kmax) >= 1):
            raise argparse.ArgumentTypeError(f"--rows: {part!r} is not KMAX:TAIL with KMAX >= 1 and TAIL >= 0")
        rows.append((int(kmax), int(tail)))
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, nargs="?")
    ap.add_argument("--scene", type=Path, action="append")
    ap.add_argument("--workers", type=int, default=WORKERS)
    ap.add_argument("--queue-cost", type=float, default=1.5, help="warp steps a round costs besides its tracing")
    ap.add_argument("--rows", type=parse_rows, default=parse_rows(ROWS))
    args = ap.parse_args(argv)
    results = []
    for path in args.scene or SCENES:
        scene = load_scene(path).with_image(width=WIDTH, height=HEIGHT, spp=SPP)
        opts = RenderOptions(width=WIDTH, height=HEIGHT, spp=SPP, renderer="compaction", backend="cpu")
        arrays = SceneArrays.of(scene, WIDTH, HEIGHT, opts.accel, opts.mesh_build, "cpu")
        traces = wave_schedule.segment_traces(arrays, opts, os.cpu_count() or 1)
        calls, reflects = tile_schedule.block_segments(traces, WIDTH, HEIGHT)
        base = None
        for kmax, tail in args.rows:
            t = time.perf_counter()
            s = tile_schedule.replay(calls, reflects, SPP, args.workers, kmax=kmax, tail_reserves=tail,
                                     queue_cost=args.queue_cost)
            base = base or s.makespan
            row = {"scene": scene.name, "kmax": kmax, "tail_reserves": tail, "makespan": s.makespan,
                   "against_first_row": s.makespan / base, "bound": s.bound, "idle_share": s.idle_share,
                   "rounds": s.rounds, "busy": s.busy, "lane_traces": s.lane_traces, "occupancy": s.occupancy}
            results.append(row)
            print(f"{scene.name:11s} up to {kmax} a round, tail {tail}: makespan {s.makespan:7.1f} "
                  f"({row['against_first_row']:.3f} of the first row), bound {s.bound:7.1f}, idle "
                  f"{s.idle_share:.1%}, {s.rounds / args.workers:.1f} rounds a worker ({time.perf_counter() - t:.0f} s)",
                  flush=True)
            print("  in a round, by twentieth of the render: " + " ".join(f"{x:.2f}" for x in s.occupancy), flush=True)
    if args.out:
        write_json_atomically(args.out, provenance(command=sys.argv, workers=args.workers, queue_cost=args.queue_cost,
                                                   width=WIDTH, height=HEIGHT, spp=SPP, rows=results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
