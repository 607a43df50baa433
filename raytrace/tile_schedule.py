"""The tile renderer's persistent rounds (rt/tile_queues.h, rt/tile_queues_blocking.h) replayed on
the host over counted path segments (host/segment_traces.cpp, as raytrace/wave_schedule.py replays
the compaction renderer's waves): how long the render takes against the work it holds, how idle
its workers are and when, for a given round size, end-of-render rule and queue cost. A count to
predict tools/gpu_render_probe.py's rows from before measuring them (tools/tile_round_counts.py).

Model (each a simplification of the GPU):
- One tile, one FIFO queue (SFQ's default tiling, raytrace/render.py: default_tiles) that holds
  the image's 8x4 blocks in block order at first; `workers` warps, all starting at time 0.
- A worker's round: k = min(kmax, max(1, remaining / reserve)) blocks from the queue's head, as the
  renderers' rule (reserve: workers x 32 x spp samples, remaining: samples not yet finished when the
  round starts); its time is `queue_cost` plus the warp steps of tracing them. Tracing deals the
  blocks' live pixels out densely to the 32 lanes (pixel w to lane w % 32, as trace_round), each
  lane takes its pixels' path segments up to the next reflection or the last sample (one sample
  at most where fewer than `tail_reserves` reserves of samples are left: RT_TAIL_SAMPLES), and an
  advance_path call costs the warp its slowest lane's rays (wave_schedule's warp step).
- The blocks whose pixels go on enter the queue's tail when the round ends. A worker that finds
  the queue empty waits for the next enqueue (a ticket drawn and waited on, as the blocking form
  does) and starts then, at no cost.
- What the model leaves out: the SM's throughput (a warp runs no faster when the others idle), the
  queue's contention (one cost a round however many wait), the steal slot (one tile, no steals).
Units: warp steps (one ray's trace for a whole warp).

How far to trust it: its first predictions were wrong on the GPU (H100, run 403, SFQ 1x1 against
the shipped rows, cornell / spheres100). It predicted RT_TAIL_SAMPLES=1 3 % faster / 0.4 % slower,
the GPU ran it 7 % / 2.5 % slower; up to 3 and 4 blocks a round 2-3 % / 4-5 % faster, the GPU ran
them within the rows' spread / 2.5 % slower. The queue cost assumed was about right (SFQ's profile,
run 403: 13 % / 23 % of a working round's tracing; the model's 1.5 steps are 14 % / 24 % of its mean
round). Our reading, not measured apart: the model charges the render's last rounds in full, where on
the GPU the warps still tracing then have their SMs to themselves and run faster, so there is less
tail to win back than it shows; and it leaves out what a larger round costs the code itself.
"""

from __future__ import annotations

import collections
import heapq
import itertools
from dataclasses import dataclass, field

import numpy as np

from .wave_schedule import WARP, blocked_order


def block_segments(traces: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(calls, reflects), each [block, lane, T]: the rays of each advance_path call of the lane's
    pixel in order (T = spp x segments, 0 past its last call), and whether the call ends in a
    reflection (the round ends there) rather than with its sample. Blocks in block order (rt/
    pixel_order.h), lanes in the block's pixel order; lanes that hold no pixel make no calls."""
    pixels, spp, segs = traces.shape
    flat = traces.reshape(pixels, spp * segs).astype(np.int32)
    present = flat > 0
    follows = np.zeros(traces.shape, dtype=bool)
    follows[:, :, :-1] = traces[:, :, 1:] > 0  # segment k of a sample reflects iff segment k + 1 exists
    order = np.argsort(~present, axis=1, kind="stable")  # a sample's segments first, then the next sample's
    calls = np.where(np.take_along_axis(present, order, 1), np.take_along_axis(flat, order, 1), 0)
    reflects = np.take_along_axis(follows.reshape(pixels, spp * segs), order, 1)
    items = blocked_order(width, height)
    x, y = items % width, items // width
    block = (y // 4) * ((width + 7) // 8) + x // 8
    lane = np.arange(len(items)) - np.searchsorted(block, block)  # items of a block are consecutive
    nblocks = int(block.max()) + 1
    out_calls = np.zeros((nblocks, WARP, spp * segs), np.int32)
    out_reflects = np.zeros((nblocks, WARP, spp * segs), bool)
    out_calls[block, lane] = calls[items]
    out_reflects[block, lane] = reflects[items]
    return out_calls, out_reflects


@dataclass
class Schedule:
    makespan: float          # when the last round ends
    busy: int                # warp steps traced, summed over rounds
    rounds: int
    queue_time: float        # queue_cost x rounds
    workers: int
    lane_traces: int         # rays traced (the work itself)
    occupancy: list[float] = field(default_factory=list)  # share of workers in a round, by twentieth of the makespan

    @property
    def idle_share(self) -> float:
        return 1.0 - (self.busy + self.queue_time) / (self.workers * self.makespan) if self.makespan else 0.0

    @property
    def bound(self) -> float:
        """The makespan with every worker tracing all the time and no queue cost."""
        return self.busy / self.workers


def replay(calls: np.ndarray, reflects: np.ndarray, spp: int, workers: int, kmax: int = 2, reserve_rounds: int = 1,
           tail_reserves: int = 0, queue_cost: float = 0.0) -> Schedule:
    """One render under the module docstring's model."""
    nblocks = calls.shape[0]
    ncalls = (calls > 0).sum(axis=2)
    next_call = np.zeros((nblocks, WARP), np.int64)
    total = int(((calls > 0) & ~reflects).sum())  # every sample ends once, with a call that does not reflect
    reserve = workers * WARP * spp * reserve_rounds
    done = busy = rounds = traced = 0
    queue = collections.deque(range(nblocks))
    waiting: collections.deque[int] = collections.deque()
    events = [(0.0, w) for w in range(workers)]
    heapq.heapify(events)
    holding: dict[int, list[int]] = {}
    spans: list[tuple[float, float]] = []
    makespan = 0.0

    def start(worker: int, now: float) -> None:
        nonlocal done, busy, rounds, traced
        remaining = total - done
        k = kmax if reserve == 0 else 1
        for m in range(2, kmax + 1):
            if reserve and remaining >= m * reserve:
                k = m
        taken = [queue.popleft() for _ in range(min(k, len(queue)))]
        if not taken:
            waiting.append(worker)
            return
        one_sample = tail_reserves > 0 and remaining < tail_reserves * reserve
        lanes: list[list[int]] = [[] for _ in range(WARP)]
        back, w = [], 0
        for b in taken:
            for lane in range(WARP):
                j, end = int(next_call[b, lane]), int(ncalls[b, lane])
                if j >= end:
                    continue
                seq = lanes[w % WARP]
                w += 1
                while j < end:
                    seq.append(int(calls[b, lane, j]))
                    reflected = bool(reflects[b, lane, j])
                    j += 1
                    if not reflected:
                        done += 1
                    if reflected or one_sample:
                        break
                next_call[b, lane] = j
            if (next_call[b] < ncalls[b]).any():
                back.append(b)
        depth = max(len(s) for s in lanes)
        steps = sum(max(s[t] if t < len(s) else 0 for s in lanes) for t in range(depth))
        busy += steps
        traced += sum(sum(s) for s in lanes)
        rounds += 1
        holding[worker] = back
        spans.append((now, now + queue_cost + steps))
        heapq.heappush(events, (now + queue_cost + steps, worker))

    while events:
        now, worker = heapq.heappop(events)
        makespan = max(makespan, now)
        queue.extend(holding.pop(worker, []))
        start(worker, now)
        while waiting and queue:
            start(waiting.popleft(), now)
    if done != total or queue:
        raise AssertionError(f"the replay finished {done} of {total} samples with {len(queue)} blocks queued")
    s = np.array(spans)
    edges = np.linspace(0.0, makespan, 21)
    occupancy = [float(np.clip(np.minimum(s[:, 1], hi) - np.maximum(s[:, 0], lo), 0, None).sum() / (workers * (hi - lo)))
                 if hi > lo else 0.0 for lo, hi in itertools.pairwise(edges)]
    return Schedule(makespan=makespan, busy=busy, rounds=rounds, queue_time=queue_cost * rounds, workers=workers,
                    lane_traces=traced, occupancy=occupancy)
