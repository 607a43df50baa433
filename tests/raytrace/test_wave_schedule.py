"""raytrace/wave_schedule.py: the counted segments add up to the rays a CPU render reports, and
the replayed schedules hold, wave by wave, the items that closed forms give (a pixel needs one
wave per segment with one segment per item; one wave plus one per reflection with the per-lane
next samples)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from render_cases import ROOT

from raytrace import mesh_accel, wave_schedule
from raytrace.render import RenderOptions, SceneArrays, render
from raytrace.scene import load_scene

W, H, SPP = 36, 20, 3  # 36 is not a multiple of 8, 20 not of 32: partial blocks and warps


def _case(name: str, **changes):
    scene = load_scene(ROOT / "scenes" / f"{name}.toml").with_image(width=W, height=H, spp=SPP)
    scene = dataclasses.replace(scene, **changes)
    opts = RenderOptions(width=W, height=H, spp=SPP, renderer="compaction", backend="cpu", threads=2)
    arrays = SceneArrays.of(scene, W, H, opts.accel, opts.mesh_build, "cpu")
    return scene, opts, wave_schedule.segment_traces(arrays, opts, threads=2)


@pytest.fixture(scope="module", params=["spheres100", "cornell"])
def case(request):
    return (request.param, *_case(request.param))


def test_blocked_order_is_the_headers_pixel_order():
    assert np.array_equal(wave_schedule.blocked_order(W, H), mesh_accel.pixel_order(W, H))


def test_segment_traces_add_up_to_the_rays_a_render_reports(case):
    name, scene, opts, traces = case
    r = render(scene, opts)
    segments = (traces > 0).sum(axis=2)
    assert segments.min() >= 1, "every sample traces its primary ray"
    assert int(segments.sum()) == r.rays["primary"] + r.rays["reflection"]
    assert int(traces.astype(np.int64).sum()) == r.rays["primary"] + r.rays["reflection"] + r.rays["shadow"]
    assert r.rays["reflection"] > 0, f"{name} must reflect for the schedules to differ"


def test_one_segment_per_item_holds_each_pixel_for_one_wave_per_segment(case):
    _, _, _, traces = case
    per_pixel = (traces > 0).sum(axis=(1, 2))
    waves = wave_schedule.replay(traces, W, H, mode=0)
    assert [w.items for w in waves] == [int((per_pixel > k).sum()) for k in range(len(waves))]
    assert len(waves) == per_pixel.max()


def test_per_lane_samples_hold_each_pixel_for_one_wave_plus_one_per_reflection(case):
    _, _, _, traces = case
    reflections = ((traces > 0).sum(axis=2) - 1).sum(axis=1)
    waves = wave_schedule.replay(traces, W, H, mode=1)
    assert [w.items for w in waves] == [int((1 + reflections > k).sum()) for k in range(len(waves))]


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_every_mode_traces_every_ray_once(case, mode):
    _, _, _, traces = case
    waves = wave_schedule.replay(traces, W, H, mode)
    assert sum(w.lane_traces for w in waves) == int(traces.astype(np.int64).sum())
    assert all(w.lane_traces <= wave_schedule.WARP * w.warp_steps for w in waves)
    assert all(w.survivors == n.items for w, n in itertools.pairwise(waves))
    assert waves[-1].survivors == 0


def test_warp_uniform_samples_sit_between_the_other_two(case):
    _, _, _, traces = case
    items = {m: sum(w.items for w in wave_schedule.replay(traces, W, H, m)) for m in (0, 1, 2)}
    assert items[1] <= items[2] <= items[0]


def test_without_reflections_both_sample_modes_need_one_wave():
    _, _, traces = _case("spheres100", max_depth=0)
    for mode in (1, 2):
        waves = wave_schedule.replay(traces, W, H, mode)
        assert [w.items for w in waves] == [W * H]
        assert waves[0].iterations == -(-W * H // wave_schedule.WARP) * SPP  # every warp runs all samples


def test_traffic_counts_the_first_wave_and_the_fetches():
    waves = [wave_schedule.Wave(items=64, warps=2, warp_steps=2, lane_traces=64, iterations=2, survivors=32,
                                atomics_append=1, atomics_samples=2),
             wave_schedule.Wave(items=32, warps=1, warp_steps=1, lane_traces=32, iterations=1, survivors=0,
                                atomics_append=0, atomics_samples=1)]
    old = wave_schedule.traffic(waves, pixels=64, launches=3, resident_threads=64, fetch=False, from_index=False)
    new = wave_schedule.traffic(waves, pixels=64, launches=3, resident_threads=64, fetch=True, from_index=True)
    # The first wave from the index reads 64 + 4 B less per item and rt_paths_init writes nothing.
    assert old["bytes_paths"] - new["bytes_paths"] == 68 * 64 + 68 * 64
    # Two resident warps: each wave's warp items plus each warp's last, empty fetch; the third
    # launch finds an empty list and still fetches once per warp.
    assert (old["atomics_fetch"], new["atomics_fetch"]) == (0, (2 + 2) + (1 + 2) + 2)
    assert new["launches"] == 4 and new["nonempty_waves"] == 2
