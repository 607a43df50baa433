"""The stream-compaction renderer's wave schedules (Wald, HPG 2011; rt/compaction.h) replayed on
the host over counted path segments: how many items each wave holds, how many warp steps they
take and how full the warps are, and the bytes and atomics each wave moves, for each value of
RT_WAVE_SAMPLES, with or without RT_WAVE_FETCH and RT_FIRST_WAVE_FROM_INDEX. A count to predict
GPU times from before measuring them (tools/compaction_wave_counts.py).

The input is host/segment_traces.cpp's count: per pixel, sample and segment, the rays that
advance_path traced (1 + its shadow rays), from the same header code the renderers run.

Model (what the replay assumes, each a simplification of the GPU):
- Wave 0's items are the pixels in 8x4-block order (rt/pixel_order.h); a later wave's items are
  the previous wave's survivors in the previous wave's item order (the GPU appends them a warp at
  a time in completion order: the same pixels, nearly the same grouping).
- A warp is 32 consecutive items. A loop iteration of advance_path costs the warp the largest
  trace count among the lanes still in it (the traversal loops run until their slowest lane is
  done); a warp's steps are the sum over its iterations. Warp fill = useful lane traces / (32 x
  warp steps).
- Atomics are counted per converged group of lanes (WaveFAA: one per group): the append (one per
  warp with a survivor), samples_done (one per warp and loop iteration with a lane going on, and
  one per warp with a lane whose item ended a sample), and under RT_WAVE_FETCH one fetch per warp
  and item plus each resident warp's last, empty fetch.
- Bytes: a path state is 64 B read and 64 B written per item, a list entry 4 B read per item and
  4 B written per survivor; wave 0 under RT_FIRST_WAVE_FROM_INDEX reads neither, and without it
  rt_paths_init first writes 64 + 4 B per pixel; every launched thread adds 24 B read and written
  of ray counts per wave (kernels/render.cu store_counts).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from functools import cache

import numpy as np

from queues_cuda import build as qbuild

from .build import CXX_FLAGS, INCLUDE_DIRS, PACKAGE_DIR
from .render import RenderOptions, SceneArrays

WARP = 32
STATE_BYTES, ENTRY_BYTES, COUNTS_BYTES = 64, 4, 24
MODES = {0: "one segment per item", 1: "per-lane next samples", 2: "warp-uniform next samples"}


@cache
def _library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(qbuild.compile_library(PACKAGE_DIR / "host" / "segment_traces.cpp",
                                                 CXX_FLAGS + qbuild.defines_for(1), "librt_segment_traces",
                                                 include_dirs=INCLUDE_DIRS)))
    u32, p = ctypes.c_uint32, ctypes.c_void_p
    scene = [p, u32, p, p, u32, p, p, p, p, u32, p, u32, p, u32, p, u32, u32, u32, u32, u32]  # RT_SCENE_ARGS
    lib.rt_segment_traces.restype = None
    lib.rt_segment_traces.argtypes = scene + [u32, p]
    return lib


def segment_traces(a: SceneArrays, opts: RenderOptions, threads: int) -> np.ndarray:
    """uint16 [pixels (row order), spp, max_depth + 1]: rays traced by each segment, 0 past a
    sample's last segment."""
    from .cpu_render import scene_args

    if a.nlights >= 0xFFFF:
        raise ValueError(f"segment_traces counts at most 65534 lights per segment, the scene has {a.nlights}")
    out = np.zeros((opts.width * opts.height, opts.spp, a.max_depth + 1), np.uint16)
    _library().rt_segment_traces(*scene_args(a, opts), threads, out.ctypes.data)
    return out


def blocked_order(width: int, height: int) -> np.ndarray:
    """Item i -> pixel, as rt/pixel_order.h's blocked_pixel (8x4 blocks)."""
    i = np.arange(width * height, dtype=np.int64)
    band = i // (width * 4)
    rows = np.minimum(height - band * 4, 4)
    j = i - band * width * 4
    group = j // (8 * rows)
    cols = np.minimum(width - group * 8, 8)
    r = j - group * 8 * rows
    return (band * 4 + r // cols) * width + group * 8 + r % cols


@dataclass
class Wave:
    items: int
    warps: int
    warp_steps: int      # sum over warps of their iterations' largest lane trace count
    lane_traces: int     # rays traced in this wave
    iterations: int      # advance_path iterations summed over warps
    survivors: int
    atomics_append: int
    atomics_samples: int

    @property
    def fill(self) -> float:
        return self.lane_traces / (WARP * self.warp_steps) if self.warp_steps else 1.0


def replay(traces: np.ndarray, width: int, height: int, mode: int) -> list[Wave]:
    """The non-empty waves of one render under RT_WAVE_SAMPLES = mode (0, 1 or 2)."""
    if mode not in MODES:
        raise ValueError(f"RT_WAVE_SAMPLES must be one of {sorted(MODES)}, got {mode}")
    pixels, spp, _ = traces.shape
    segments = (traces > 0).sum(axis=2)  # [pixel, sample]
    sample = np.zeros(pixels, np.int64)
    segment = np.zeros(pixels, np.int64)
    items = blocked_order(width, height)
    waves = []
    while len(items):
        n = len(items)
        grid = np.concatenate([items, np.full((-n) % WARP, -1)]).reshape(-1, WARP)
        live = grid >= 0
        px = np.where(live, grid, 0)
        s, k = sample[px], segment[px]
        active = live.copy()
        steps = traced = iterations = samples_atomics = 0
        ended_here = np.zeros_like(live)
        while active.any():
            cost = traces[px, np.minimum(s, spp - 1), k].astype(np.int64) * active
            steps += int(cost.max(axis=1).sum())
            traced += int(cost.sum())
            iterations += int(active.any(axis=1).sum())
            ends = active & (k + 1 >= segments[px, np.minimum(s, spp - 1)])
            k = np.where(active & ~ends, k + 1, np.where(ends, 0, k))
            s = np.where(ends, s + 1, s)
            next_sample = ends & (s < spp)
            if mode == 0:
                go_on = np.zeros_like(active)
            elif mode == 1:
                go_on = next_sample
            else:  # the warp goes on only if every lane still in it does
                go_on = next_sample & (next_sample | ~active).all(axis=1, keepdims=True)
            samples_atomics += int(go_on.any(axis=1).sum())
            ended_here |= active & ~go_on & ends
            active = go_on
        sample[px[live]], segment[px[live]] = s[live], k[live]
        survives = live & (s < spp)
        waves.append(Wave(items=n, warps=grid.shape[0], warp_steps=steps, lane_traces=traced, iterations=iterations,
                          survivors=int(survives.sum()), atomics_append=int(survives.any(axis=1).sum()),
                          atomics_samples=samples_atomics + int(ended_here.any(axis=1).sum())))
        items = grid[survives]
    return waves


def traffic(waves: list[Wave], pixels: int, launches: int, resident_threads: int, fetch: bool,
            from_index: bool) -> dict:
    """Bytes and atomics of the whole render (module docstring's model), and per-wave lists."""
    resident_warps = resident_threads // WARP
    state = [(0 if (i == 0 and from_index) else (STATE_BYTES + ENTRY_BYTES) * w.items) + STATE_BYTES * w.items
             + ENTRY_BYTES * w.survivors for i, w in enumerate(waves)]
    init = 0 if from_index else (STATE_BYTES + ENTRY_BYTES) * pixels
    counts = 2 * COUNTS_BYTES * resident_threads * launches
    fetches = [(w.warps + resident_warps) if fetch else 0 for w in waves] + \
              [resident_warps if fetch else 0] * (launches - len(waves))
    return {
        "launches": launches + 1,  # rt_paths_init and the waves
        "nonempty_waves": len(waves),
        "bytes_paths": sum(state) + init,
        "bytes_counts": counts,
        "bytes_per_wave": state,
        "atomics_fetch": sum(fetches),
        "atomics_append": sum(w.atomics_append for w in waves),
        "atomics_samples": sum(w.atomics_samples for w in waves),
        "items": sum(w.items for w in waves),
        "warp_steps": sum(w.warp_steps for w in waves),
        "lane_traces": sum(w.lane_traces for w in waves),
    }
