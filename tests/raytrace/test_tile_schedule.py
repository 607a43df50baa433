"""raytrace/tile_schedule.py: the replayed rounds trace every counted ray once whatever the round
size and end-of-render rule, take one block a round per reflection chunk with one worker, and make
the makespan no shorter than the work spread over the workers."""

from __future__ import annotations

import numpy as np
import pytest
from test_wave_schedule import SPP, H, W, _case

from raytrace import tile_schedule


@pytest.fixture(scope="module", params=["spheres100", "cornell"])
def segments(request):
    _, _, traces = _case(request.param)
    return traces, *tile_schedule.block_segments(traces, W, H)


def test_block_segments_hold_every_call_once(segments):
    traces, calls, reflects = segments
    assert int(calls.sum()) == int(traces.astype(np.int64).sum())
    assert int((calls > 0).sum()) == int((traces > 0).sum())
    # a sample ends once: the calls that do not reflect are the samples
    assert int(((calls > 0) & ~reflects).sum()) == W * H * SPP
    assert not (reflects & (calls == 0)).any()


@pytest.mark.parametrize("kmax, tail", [(1, 0), (2, 0), (4, 0), (2, 1), (3, 1000)])
def test_every_ray_is_traced_once(segments, kmax, tail):
    traces, calls, reflects = segments
    s = tile_schedule.replay(calls, reflects, SPP, workers=3, kmax=kmax, tail_reserves=tail, queue_cost=0.5)
    assert s.lane_traces == int(traces.astype(np.int64).sum())
    assert s.makespan >= s.bound > 0
    assert 0.0 <= s.idle_share < 1.0


def test_one_worker_one_block_a_round_is_a_round_per_chunk(segments):
    _, calls, reflects = segments
    # a block's rounds: one more than the most reflections any of its lanes makes (with per-lane
    # samples a lane's pixel reflects into a new round, as wave_schedule's waves)
    per_lane = reflects.sum(axis=2)
    live = (calls > 0).any(axis=2).any(axis=1)
    expected = int((per_lane.max(axis=1) + 1)[live].sum())
    s = tile_schedule.replay(calls, reflects, SPP, workers=1, kmax=1, queue_cost=0.0)
    assert s.rounds == expected
    assert s.makespan == s.busy and s.idle_share == 0.0


def test_one_sample_rounds_make_more_rounds_and_trace_the_same(segments):
    _, calls, reflects = segments
    whole = tile_schedule.replay(calls, reflects, SPP, workers=2, kmax=1)
    single = tile_schedule.replay(calls, reflects, SPP, workers=2, kmax=1, tail_reserves=1000)
    assert single.rounds > whole.rounds and single.lane_traces == whole.lane_traces
