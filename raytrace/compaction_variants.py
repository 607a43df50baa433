"""Compile-time variants of the stream-compaction renderer for the sphere-scene A/B
(tools/gpu_render_ab.py): each is a set of "NAME=VALUE" defines for raytrace.build.kernel_variant.

Run 15 made four changes the code because they won on a primary-ray mesh render (terrain1m).
`gq bench render` on an H200 then measured spheres100 at 8.4 G rays/s (6bfdec7) where 0ac5b0a,
before them, had done 11.8 G (run 16). Run 21's A/B found the cause (advance_path inlined twice)
and its one-call-site variant is now the default: 12.6 G on spheres100.
Each change is a switch whose default is the shipped code (rt/compaction.h, kernels/render.cu,
rt/mesh_bvh.h); none changes a pixel, so every variant's image equals the default's bit for bit
on the CPU (tests/raytrace/test_compaction_variants.py) and on the GPU (the A/B tool checks it).
"""

from __future__ import annotations

# name -> (defines, what the variant isolates). "default" first: the others are compared with it.
VARIANTS: dict[str, tuple[tuple[str, ...], str]] = {
    "default": ((), "the shipped code: run 21's lane_one_call (one call site of advance_path)"),
    "one_segment": (("RT_WAVE_SAMPLES=0",),
                    ("one path segment per item: no per-lane run of a pixel's next samples, one inlined "
                     "advance_path")),
    "warp_samples": (("RT_WAVE_SAMPLES=2",),
                     ("a warp runs its lanes' next samples only while all of them go on (ballot), one "
                      "inlined advance_path")),
    "static_share": (("RT_WAVE_FETCH=0",), "grid-stride items instead of the per-wave fetch counter"),
    "one_traversal": (("RT_WAVE_ONE_TRAVERSAL=1",),
                      "one runtime-flag traversal for the closest-hit and shadow queries, as the tile renderer"),
    "empty_waves_work": (("RT_WAVE_EMPTY_EXIT=0",),
                         ("an empty wave's warps still fetch and every thread still adds its (zero) counts, "
                          "as before the twenty-first session")),
    "as_0ac5b0a": (("RT_WAVE_SAMPLES=0", "RT_FIRST_WAVE_FROM_INDEX=0", "RT_WAVE_FETCH=0", "RT_POSTPONE_LEAVES=0"),
                   "all four switches off: the compaction path run 16 measured at 11.8 G rays/s"),
}


# What tools/gpu_render_ab.py times unless told otherwise: four builds (NVRTC compiles dominate its
# run). one_segment, the fifth, is there for --variant.
AB_RUN = ("default", "warp_samples", "static_share", "as_0ac5b0a")


def defines(name: str) -> tuple[str, ...]:
    return VARIANTS[name][0]
