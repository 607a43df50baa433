"""The compaction renderer's A/B variants (raytrace/compaction_variants.py, timed on the GPU by
tools/gpu_render_ab.py) render the default's image bit for bit, with the same ray counts, on
the CPU build of the same headers: spheres100 (mirrors: samples that reflect), cornell, and a
small mesh scene (the postponed-leaf switch), whose first hits must agree as well. On the GPU
(gpu marker) the per-wave timing that the tool prints reads plausible list lengths."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from mesh_cases import small_scene
from render_cases import render_case

from raytrace.build import kernel_variant
from raytrace.compaction_variants import VARIANTS, defines
from raytrace.render import RenderOptions, render

W, H, SPP = 40, 24, 2
# RT_WAVE_FETCH exists in kernels/render.cu only: a variant that sets nothing else builds the
# default's host code, so only the sm_90 compile test (and the GPU tool) see it.
HOST_SWITCHES = ("RT_WAVE_SAMPLES", "RT_FIRST_WAVE_FROM_INDEX", "RT_POSTPONE_LEAVES")
OTHERS = [name for name in VARIANTS
          if name != "default" and any(d.split("=")[0] in HOST_SWITCHES for d in defines(name))]


def _mesh(scene, **kw):
    return render(scene, RenderOptions(width=W, height=H, spp=SPP, renderer="compaction", backend="cpu",
                                       aov=True, threads=3, **kw))


@pytest.fixture(scope="module")
def mesh_scene(tmp_path_factory):
    return small_scene(tmp_path_factory.mktemp("variants"))


@pytest.fixture(scope="module")
def baselines(mesh_scene):
    base = {s: render_case(s, W, H, SPP, renderer="compaction", backend="cpu", threads=3)
            for s in ("cornell", "spheres100")}
    base["mesh"] = _mesh(mesh_scene)
    return base


def test_the_default_variant_is_the_shipped_build():
    assert next(iter(VARIANTS)) == "default" and defines("default") == ()
    assert "static_share" not in OTHERS and "as_0ac5b0a" in OTHERS


@pytest.mark.parametrize("variant", OTHERS)
def test_variant_renders_the_default_image_bit_for_bit(baselines, mesh_scene, variant):
    with kernel_variant(defines(variant)):
        got = {s: render_case(s, W, H, SPP, renderer="compaction", backend="cpu", threads=3)
               for s in ("cornell", "spheres100")}
        got["mesh"] = _mesh(mesh_scene)
    for scene, r in got.items():
        base = baselines[scene]
        assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32)), \
            f"{scene}: {int((r.image != base.image).any(axis=2).sum())} pixels differ"
        assert r.rays == base.rays and r.nonfinite == base.nonfinite, scene
    assert baselines["spheres100"].rays["reflection"] > 0, "the mirror case must reflect"
    for name in ("depth", "normal", "id", "prim"):
        assert np.array_equal(got["mesh"].aov[name], baselines["mesh"].aov[name]), name


@pytest.mark.gpu
def test_gpu_wave_timing_reads_the_list_lengths():
    from render_cases import ROOT

    from queues_cuda.queues import QUEUES
    from raytrace.cuda_render import time_compaction_waves
    from raytrace.render import SceneArrays
    from raytrace.scene import load_scene

    scene = load_scene(ROOT / "scenes" / "spheres100.toml")
    opts = RenderOptions(width=64, height=48, spp=SPP, renderer="compaction", backend="cuda")
    a = SceneArrays.of(scene, opts.width, opts.height, opts.accel, opts.mesh_build, "cuda")
    waves = time_compaction_waves(a, opts, QUEUES[opts.queue])
    items = [w["items"] for w in waves]
    assert len(waves) == SPP * (scene.max_depth + 1)
    assert items[0] == 64 * 48
    # A wave's list holds the previous wave's pixels that still have work: never more.
    assert all(b <= a for a, b in itertools.pairwise(items)), items
    assert items[1] > 0, "spheres100's mirrors leave work after the first wave"
    assert all(w["ms"] > 0 for w in waves)
