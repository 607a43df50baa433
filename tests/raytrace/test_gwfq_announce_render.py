"""The tile renderer on G-WFQ with the announce word (queues_cuda/include/gq/wcq_ring.cuh): images
equal the compaction baseline bit for bit with the announce path forced (CPU: patience 0, announce
after one lost CAS, 64 oversubscribed workers), and on the GPU with it on (the default) and off.

The GPU test also prints seconds per render for both builds at the bench's setting (spheres100,
1920x1080, 4 spp, 8x8 tiles): the before/after of the announce word. With GQ_ANNOUNCE_JSON=PATH it writes
them there as JSON."""

from __future__ import annotations

import json
import os
import statistics

import numpy as np
import pytest
from render_cases import render_case

from raytrace.build import kernel_variant

FORCED = ("GQ_WFQ_PATIENCE=0", "GQ_WFQ_ANNOUNCE_AFTER=1")


def _same(a, b) -> bool:
    return np.array_equal(a.image.view(np.uint32), b.image.view(np.uint32)) and a.rays == b.rays


@pytest.mark.parametrize("scene", ["cornell", "spheres100"])
def test_cpu_forced_announce_equals_compaction(scene):
    base = render_case(scene, 48, 32, 2, renderer="compaction", backend="cpu", threads=4)
    with kernel_variant(FORCED):
        r = render_case(scene, 48, 32, 2, renderer="queue", queue="gwfq", tiles=(4, 2), backend="cpu", threads=64)
    assert _same(r, base), f"{int((r.image != base.image).any(axis=2).sum())} pixels differ"


@pytest.mark.gpu
def test_gpu_announce_on_and_off_equal_compaction_with_times():
    w, h, spp, runs = 1920, 1080, 4, 3
    out = {}
    for scene in ("spheres100",):
        base = render_case(scene, w, h, spp, renderer="compaction", backend="cuda")
        for label, defines in (("announce off", ("GQ_WFQ_ANNOUNCE_AFTER=0",)), ("announce on (default)", ())):
            seconds = []
            with kernel_variant(defines):
                for _ in range(runs):
                    r = render_case(scene, w, h, spp, renderer="queue", queue="gwfq", tiles=(8, 8), backend="cuda")
                    assert _same(r, base), f"{scene}, {label}: image differs from compaction"
                    seconds.append(r.seconds)
            out[f"{scene} gwfq {label}"] = seconds
            print(f"\n{scene} gwfq {label}: seconds per render {[round(s, 4) for s in seconds]}, "
                  f"median {statistics.median(seconds):.4f}; compaction {base.seconds:.4f}")
        out[f"{scene} compaction"] = [base.seconds]
    path = os.environ.get("GQ_ANNOUNCE_JSON")
    if path:
        with open(path, "w") as f:
            json.dump({"width": w, "height": h, "spp": spp, "tiles": [8, 8], "seconds": out}, f, indent=1)
