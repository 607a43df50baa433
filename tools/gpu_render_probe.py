"""Where the queue renderer's time goes: one scene, several builds and settings, side by side.

    python3 tools/gpu_render_probe.py OUTDIR [--scene scenes/spheres100.toml]

A measuring aid, not a benchmark of record: the shipped build beside builds with the tile renderer's
switches (rt/tile_queues.h: RT_TILE_SAMPLES, RT_ROUND_BLOCKS, RT_RESERVE_ROUNDS) and the kernels'
RT_MIN_BLOCKS (kernels/render.cu), at several tile shapes and queues. Runs 71-73 also timed
GQ_PROBE_SC_FENCE=2 (seq_cst's fence dropped, a build that is NOT a correct queue: 0-10 % faster);
add a row with those defines to time it again. Each row is the median of three renders (--repeat
sets how many) after one warm-up (one, where the warm-up took over a second), with the tile
renderer's launches timed apart; the image is compared with the compaction baseline's. "scene from
global" rows trace from the scene's arrays in global memory, not from each block's copy in shared
memory (RT_SCENE_SHARED=0, kernels/render.cu), as before run 138; "two traversals" gives the tile
renderer the compaction kernel's two specialised copies of the BVH traversal and "one traversal"
gives compaction the tile renderer's one (RT_TILE_ONE_TRAVERSAL=0, RT_WAVE_ONE_TRAVERSAL=1;
rt/whitted.h: advance_path); "requeues first" makes a round's requeues before its dequeues
(RT_QUEUE_OVERLAP=0, rt/tile_queues.h), as before run 151, and "two paths" has it call the queue's
try_enqueue and try_dequeue, not its one transfer path (RT_QUEUE_ONE_PATH=0); "no second pass"
leaves out the dequeues' second try after a phase that found nothing beside the warp's own requeues
(RT_REQUEUE_RETRY=0); "hot words 128 B apart" lays the queues' counters out as before run 165
(GQ_HOT_STRIDE_WORDS=16, gq/arch.cuh); "seeded" has a launch of enqueues put the primary blocks into
G-LFQ's or G-WFQ's tile queues instead of building the queues holding them (RT_SEED_BY_FILL=0,
rt/tile_queues.h), as before run 193; "draws first" sends SFQ's ticket draws out before its requeues
(RT_DRAW_EARLY=1, rt/tile_queues_blocking.h); "one sample at the end" has the render's last rounds take
each pixel through one sample at most, once less than one (x2: two) reserves of samples are left
(RT_TAIL_SAMPLES, rt/tile_queues.h). --rows picks rows.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

import raytrace.cuda_render as cr
from queues_cuda import build as qbuild
from queues_cuda.provenance import provenance
from queues_cuda.queues import QUEUES
from raytrace.build import INCLUDE_DIRS, KERNEL, NVRTC_FLAGS
from raytrace.render import RenderOptions, SceneArrays
from raytrace.scene import load_scene

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--scene", default="scenes/spheres100.toml")
parser.add_argument("--width", type=int, default=1920)
parser.add_argument("--height", type=int, default=1080)
parser.add_argument("--spp", type=int, default=4)
parser.add_argument("--rows", default="", help="only these rows: labels joined by |")
parser.add_argument("--repeat", type=int, default=3, help="timed renders a row (the median is reported)")
args = parser.parse_args()

scene = load_scene(args.scene)
arrays = SceneArrays.of(scene, args.width, args.height, "bvh")
base = dict(width=args.width, height=args.height, spp=args.spp, backend="cuda")
configs = [  # (label, defines, options)
    ("compaction", (), dict(renderer="compaction")),
    ("compaction, one traversal", ("RT_WAVE_ONE_TRAVERSAL=1",), dict(renderer="compaction")),
    ("glfq 2x2", (), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, scene from global", ("RT_SCENE_SHARED=0",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, two traversals", ("RT_TILE_ONE_TRAVERSAL=0",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, one segment a round", ("RT_TILE_SAMPLES=0",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, requeues first", ("RT_QUEUE_OVERLAP=0",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, seeded", ("RT_SEED_BY_FILL=0",), dict(queue="glfq", tiles=(2, 2))),
    ("gwfq 2x2, seeded", ("RT_SEED_BY_FILL=0",), dict(queue="gwfq", tiles=(2, 2))),
    ("glfq 2x2, two paths", ("RT_QUEUE_ONE_PATH=0",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, no second pass", ("RT_REQUEUE_RETRY=0",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, requeues first, two paths", ("RT_QUEUE_OVERLAP=0", "RT_QUEUE_ONE_PATH=0"),
     dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, seeded, 8 seeders a warp", ("RT_SEED_BY_FILL=0", "RT_SEEDERS_PER_WARP=8"),
     dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, seeded, 1 seeder a warp", ("RT_SEED_BY_FILL=0", "RT_SEEDERS_PER_WARP=1"),
     dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, reserve 2 rounds", ("RT_RESERVE_ROUNDS=2",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, up to 4 a round", ("RT_ROUND_BLOCKS=4",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, up to 12 a round", ("RT_ROUND_BLOCKS=12",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, up to 16 a round", ("RT_ROUND_BLOCKS=16",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, 6 blocks an SM", ("RT_MIN_BLOCKS=6",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, 6 an SM, up to 4", ("RT_MIN_BLOCKS=6", "RT_ROUND_BLOCKS=4"), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 2x2, hot words 128 B apart", ("GQ_HOT_STRIDE_WORDS=16",), dict(queue="glfq", tiles=(2, 2))),
    ("glfq 4x4", (), dict(queue="glfq", tiles=(4, 4))),
    ("glfq 1x1", (), dict(queue="glfq", tiles=(1, 1))),
    ("gwfq 2x2", (), dict(queue="gwfq", tiles=(2, 2))),
    ("gwfq 2x2, scene from global", ("RT_SCENE_SHARED=0",), dict(queue="gwfq", tiles=(2, 2))),
    ("gwfq 2x2, 6 blocks an SM", ("RT_MIN_BLOCKS=6",), dict(queue="gwfq", tiles=(2, 2))),
    ("gwfq 2x2, up to 16 a round", ("RT_ROUND_BLOCKS=16",), dict(queue="gwfq", tiles=(2, 2))),
    ("gwfq 2x2, hot words 128 B apart", ("GQ_HOT_STRIDE_WORDS=16",), dict(queue="gwfq", tiles=(2, 2))),
    ("ymc 2x2", (), dict(queue="ymc", tiles=(2, 2))),
    ("ymc 2x2, up to 8 a round", ("RT_ROUND_BLOCKS=8",), dict(queue="ymc", tiles=(2, 2))),
    ("ymc 2x2, requeues first", ("RT_QUEUE_OVERLAP=0",), dict(queue="ymc", tiles=(2, 2))),
    ("ymc 2x2, hot words 128 B apart", ("GQ_HOT_STRIDE_WORDS=16",), dict(queue="ymc", tiles=(2, 2))),
    # SFQ through its blocking interface (rt/tile_queues_blocking.h): tickets held ahead
    ("sfq 2x2", (), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 1x1", (), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 4x4", (), dict(queue="sfq", tiles=(4, 4))),
    ("sfq 2x2, up to 2 a round", ("RT_ROUND_BLOCKS=2",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, up to 8 a round", ("RT_ROUND_BLOCKS=8",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, reserve 0", ("RT_RESERVE_ROUNDS=0",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, up to 1 a round", ("RT_ROUND_BLOCKS=1",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, up to 3 a round", ("RT_ROUND_BLOCKS=3",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, up to 4 a round", ("RT_ROUND_BLOCKS=4",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, seeded", ("RT_SEED_BY_FILL=0",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, 5 blocks an SM", ("RT_MIN_BLOCKS=5",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, 6 blocks an SM", ("RT_MIN_BLOCKS=6",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, two traversals", ("RT_TILE_ONE_TRAVERSAL=0",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 2x2, draws first", ("RT_DRAW_EARLY=1",), dict(queue="sfq", tiles=(2, 2))),
    ("sfq 1x1, draws first", ("RT_DRAW_EARLY=1",), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 1x1, up to 1 a round", ("RT_ROUND_BLOCKS=1",), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 1x1, up to 3 a round", ("RT_ROUND_BLOCKS=3",), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 1x1, up to 4 a round", ("RT_ROUND_BLOCKS=4",), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 1x1, one sample at the end", ("RT_TAIL_SAMPLES=1",), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 1x1, one sample at the end x2", ("RT_TAIL_SAMPLES=2",), dict(queue="sfq", tiles=(1, 1))),
    ("sfq 1x1, up to 4, one sample at the end", ("RT_ROUND_BLOCKS=4", "RT_TAIL_SAMPLES=1"),
     dict(queue="sfq", tiles=(1, 1))),
    ("glfq 2x2, one sample at the end", ("RT_TAIL_SAMPLES=1",), dict(queue="glfq", tiles=(2, 2))),
]
if args.rows:  # the rows named, compaction (the reference image) always first
    names = args.rows.split("|")
    configs = configs[:1] + [c for c in configs[1:] if c[0] in names]
rows, reference = [], None
for label, defines, extra in configs:
    opts = RenderOptions(**base, **extra)
    cr.cuda_module = lambda kind_id, d=defines: qbuild.cuda_module(kind_id, d, KERNEL, INCLUDE_DIRS, NVRTC_FLAGS)
    kind = QUEUES[opts.queue]
    try:
        warm = cr.render_cuda(arrays, opts, kind)  # warm-up (and compile)
        # A pathological configuration (seconds per render) gets one more run, not three.
        phases = [{} for _ in range(max(1, args.repeat) if warm.seconds < 1.0 else 1)]
        runs = [cr.render_cuda(arrays, opts, kind, phases=ph) for ph in phases]
    except Exception as exc:  # a probe row that fails is reported, the others still run
        rows.append({"config": label, "error": str(exc)})
        print(f"{label:30s} failed: {exc}", flush=True)
        continue
    rays = sum(runs[0].rays.values())
    seconds = statistics.median(r.seconds for r in runs)
    if reference is None:
        reference = runs[0].image
    same = bool(np.array_equal(runs[0].image, reference))
    # The tile renderer's launches (ms, median over the runs): the queue words' init, the
    # primary rays' enqueue, the persistent kernel.
    ms = {k: statistics.median(ph[k] for ph in phases) for k in phases[0]}
    rows.append({"config": label, "defines": list(defines), "seconds": seconds,
                 "seconds_each": [r.seconds for r in runs], "rays": rays,
                 "mrays_per_s": rays / seconds / 1e6, "threads": runs[0].threads, "same_image": same,
                 "rays_by_type": runs[0].rays, "phases_ms": ms})
    split = "  ".join(f"{k} {v:.3f}" for k, v in ms.items())
    print(f"{label:30s} {seconds * 1e3:9.2f} ms {rays / seconds / 1e6:10.1f} MRays/s  same={same}  {split}",
          flush=True)
record = provenance(command=sys.argv, scene=args.scene, width=args.width, height=args.height,
                    spp=args.spp, rows=rows)
Path(args.out).mkdir(parents=True, exist_ok=True)
(Path(args.out) / "render-probe.json").write_text(json.dumps(record, indent=2))
