"""Sphere-scene A/B of the compaction renderer's switches on one GPU, in about a minute:

    python3 tools/gpu_render_ab.py OUT_DIR [--scene PATH ...] [--primary-scene PATH ...]
                                           [--variant NAME ...] [--no-cpu-check]

`gq bench render` timed spheres100 at 11.8 G rays/s at 0ac5b0a (run 16) and 8.4 G at 6bfdec7,
after run 15's mesh winners became the code (rt/compaction.h). Each variant of
raytrace/compaction_variants.py (AB_RUN unless --variant names others) is one NVRTC build
(raytrace.build.kernel_variant); for each scene (default spheres100 and cornell,
1920x1080, 4 spp, BVH, the compaction renderer only) it renders once to warm up and five times
measured (CUDA events, render_cuda's own timing), then once more with events around every wave
(raytrace.cuda_render.time_compaction_waves: per wave its list length and milliseconds).
--primary-scene adds a scene traced with primary rays only (as `gq bench render --rays
primary`), e.g. scenes/terrain1m.toml to see a variant on the meshes (its SAH build runs once).

Checks: every variant's image equals the default variant's bit for bit, with the same ray counts
(no switch changes a pixel: each pixel runs the same advance_path calls in the same order); and,
unless --no-cpu-check, the default's image equals the CPU build's on the same scene.

Writes OUT_DIR/render-ab.json (card, commit, dirty flag, command, the build's register and
local-memory figures and occupancy, every time) after each variant, and prints a table last.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from queues_cuda.cuda_runtime import resident_threads
from queues_cuda.files import write_json_atomically
from queues_cuda.provenance import provenance
from queues_cuda.queues import QUEUES
from raytrace.build import cuda_module, kernel_variant
from raytrace.compaction_variants import AB_RUN, VARIANTS, defines
from raytrace.render import RenderOptions, SceneArrays, render
from raytrace.scene import load_scene

SCENES = (ROOT / "scenes" / "spheres100.toml", ROOT / "scenes" / "cornell.toml")
WIDTH, HEIGHT, SPP = 1920, 1080, 4
WARMUP, REPEATS = 1, 5


@dataclasses.dataclass
class Case:
    name: str
    path: Path
    scene: object
    opts: RenderOptions
    arrays: SceneArrays
    rays: str  # "all" or "primary"


def load_cases(paths: list[Path], primary: list[Path]) -> list[Case]:
    cases = []
    for path, mode in [(p, "all") for p in paths] + [(p, "primary") for p in primary]:
        scene = load_scene(path).with_image(width=WIDTH, height=HEIGHT, spp=SPP)
        if mode == "primary":  # as raytrace/bench.py: max_depth 0 and no lights, so no shadow rays
            scene = dataclasses.replace(scene, max_depth=0, lights=np.zeros((0, 6), np.float32))
        opts = RenderOptions(width=WIDTH, height=HEIGHT, spp=SPP, renderer="compaction", backend="cuda",
                             accel="bvh")
        t = time.perf_counter()
        arrays = SceneArrays.of(scene, WIDTH, HEIGHT, opts.accel, opts.mesh_build, "cuda")
        print(f"{scene.name} ({mode} rays): arrays in {time.perf_counter() - t:.1f} s", flush=True)
        cases.append(Case(scene.name + ("" if mode == "all" else "-primary"), path, scene, opts, arrays, mode))
    return cases


def build_figures(kind_id: int) -> dict:
    """The variant's rt_wave as loaded: registers, local memory (stack frame and spills) per
    thread, and how many threads the occupancy API lets be resident (the compaction grid)."""
    t = time.perf_counter()
    wave = cuda_module(kind_id).get_function("rt_wave")
    attrs = wave.attributes  # cupy.RawKernel: the driver's function attributes, by name
    figures = {"registers": attrs.get("num_regs"), "local_bytes": attrs.get("local_size_bytes"),
               "resident_threads": int(resident_threads(wave))}
    figures["compile_and_load_s"] = round(time.perf_counter() - t, 2)
    return figures


def measure(case: Case, kind) -> tuple[list[float], object, list[dict]]:
    from raytrace.cuda_render import render_cuda, time_compaction_waves

    results = [render_cuda(case.arrays, case.opts, kind) for _ in range(WARMUP + REPEATS)][WARMUP:]
    for r in results[1:]:
        if r.rays != results[0].rays:
            raise RuntimeError(f"{case.name}: ray counts changed between renders of one build")
    return [r.seconds for r in results], results[-1], time_compaction_waves(case.arrays, case.opts, kind)


def cpu_matches(case: Case, image: np.ndarray) -> bool:
    """The default build's GPU image against the CPU build of the same headers (all cores)."""
    opts = dataclasses.replace(case.opts, backend="cpu", threads=os.cpu_count() or 1)
    cpu = render(case.scene, opts)
    return bool(np.array_equal(cpu.image.view(np.uint32), image.view(np.uint32)))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--scene", type=Path, action="append", help="a scene traced as it is (repeatable)")
    ap.add_argument("--primary-scene", type=Path, action="append", default=[],
                    help="a scene traced with primary rays only (repeatable)")
    ap.add_argument("--variant", action="append", choices=list(VARIANTS),
                    help=f"variants to time (repeatable; default {', '.join(AB_RUN)}; 'default' is always "
                         "timed first)")
    ap.add_argument("--no-cpu-check", action="store_true", help="skip the default image's CPU comparison")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    out = args.out_dir / "render-ab.json"
    names = ["default"] + [v for v in dict.fromkeys(args.variant or AB_RUN) if v != "default"]
    kind = QUEUES[RenderOptions.queue]
    cases = load_cases(args.scene or list(SCENES), args.primary_scene)
    settings = {"width": WIDTH, "height": HEIGHT, "spp": SPP, "accel": "bvh", "renderer": "compaction",
                "queue_kind_build": RenderOptions.queue, "warmup": WARMUP, "repeats": REPEATS,
                "timing": f"median of {REPEATS} renders after {WARMUP} warm-up, CUDA events (render_cuda); "
                          "per wave: one more render with events around each wave's launch",
                "scenes": [{"name": c.name, "path": str(c.path), "rays": c.rays} for c in cases]}
    record = provenance(command=sys.argv, kind="render-ab", settings=settings,
                        variants={n: {"defines": list(defines(n)), "what": VARIANTS[n][1]} for n in names}, rows=[])
    reference: dict[str, object] = {}  # case name -> the default's last result
    failures = []

    def save() -> None:
        record["elapsed_s"] = round(time.perf_counter() - started, 1)
        write_json_atomically(out, record)

    for name in names:
        with kernel_variant(defines(name)):
            figures = build_figures(kind.kind_id)
            record["variants"][name].update(figures)
            print(f"[{name}] {' '.join(defines(name)) or '(shipped code)'}: {figures}", flush=True)
            for case in cases:
                seconds, last, waves = measure(case, kind)
                row = {"variant": name, "scene": case.name, "rays_mode": case.rays, "rays": last.rays,
                       "total_rays": int(last.total_rays), "seconds_each": [round(s, 7) for s in seconds],
                       "ms_median": 1e3 * statistics.median(seconds),
                       "grays_per_s": last.total_rays / statistics.median(seconds) / 1e9,
                       "nonfinite": int(last.nonfinite), "waves": waves}
                if name == "default":
                    reference[case.name] = last
                    row["identical_to_default"] = True
                    if not args.no_cpu_check:
                        row["identical_to_cpu"] = cpu_matches(case, last.image)
                        if not row["identical_to_cpu"]:
                            failures.append(f"{case.name}: the default GPU image differs from the CPU build's")
                else:
                    base = reference[case.name]
                    same = bool(np.array_equal(last.image.view(np.uint32), base.image.view(np.uint32)))
                    row["identical_to_default"] = same and last.rays == base.rays
                    if not row["identical_to_default"]:
                        failures.append(f"{case.name}: variant {name} differs from the default "
                                        f"({int((last.image != base.image).any(axis=2).sum())} pixels, rays "
                                        f"{last.rays} vs {base.rays})")
                record["rows"].append(row)
                save()
    record["failures"] = failures
    save()
    print_table(record, cases, names)
    print(f"wrote {out} in {record['elapsed_s']} s")
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


def print_table(record: dict, cases: list[Case], names: list[str]) -> None:
    rows = {(r["scene"], r["variant"]): r for r in record["rows"]}
    print()
    print("per wave (ms, items in thousands), every launch:")
    for case in cases:
        for name in names:
            w = rows[(case.name, name)]["waves"]
            print(f"  {case.name:18s} {name:13s} " + " ".join(f"{x['ms']:.3f}/{x['items'] / 1e3:.0f}" for x in w))
    print()
    print(f"{'scene':18s} {'variant':13s} {'ms':>7s} {'G rays/s':>9s} {'vs dflt':>8s} {'regs':>5s} {'local B':>8s} "
          f"{'resident':>9s} {'waves>0':>8s} {'same img':>9s}")
    for case in cases:
        base = rows[(case.name, "default")]["ms_median"]
        for name in names:
            r, v = rows[(case.name, name)], record["variants"][name]
            busy = sum(1 for x in r["waves"] if x["items"] > 0)
            same = "yes" if r["identical_to_default"] else "NO"
            if "identical_to_cpu" in r:
                same += "+cpu" if r["identical_to_cpu"] else " CPU-NO"
            print(f"{case.name:18s} {name:13s} {r['ms_median']:7.3f} {r['grays_per_s']:9.2f} "
                  f"{base / r['ms_median']:7.3f}x {v['registers']!s:>5s} {v['local_bytes']!s:>8s} "
                  f"{v['resident_threads']:9d} {busy:4d}/{len(r['waves']):<3d} {same:>9s}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
