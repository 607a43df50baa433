"""The renderers on the CPU backend: host/render_cpu.cpp through ctypes.

The native call runs in a worker thread (ctypes releases the GIL) while this thread reports
progress from the shared count of finished samples.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

from queues_cuda.errors import GQError, raise_if_flagged
from queues_cuda.queues import QueueKind

from .build import cpu_library
from .render import RenderOptions, RenderResult, SceneArrays, aov_arrays, finish, screen_blocks, tile_capacity

POLL_S = 0.1


def _p(a: np.ndarray) -> int:
    return a.ctypes.data


def scene_args(a: SceneArrays, opts: RenderOptions) -> tuple:
    return (_p(a.prims), len(a.prims), _p(a.materials), _p(a.lights), a.nlights, _p(a.world), _p(a.camera),
            _p(a.nodes), _p(a.bvh_index), a.nnodes, _p(a.unbounded), a.nunbounded,
            _p(a.mesh_nodes), a.nmesh_nodes, _p(a.tris), a.ntris, opts.width, opts.height, opts.spp, a.max_depth)


def tile_layout(lib, opts: RenderOptions, threads: int, max_depth: int) -> tuple[int, int, int]:
    """(capacity, words per tile queue, tiles): each tile's queue holds its own blocks (a blocking
    kind's every ticket its render can draw: rt::tile_queue_capacity), and every worker thread is
    a queue user."""
    capacity = int(lib.rt_tile_capacity(tile_capacity(opts), opts.spp, max_depth, threads))
    return capacity, int(lib.rt_queue_words(capacity, threads)), opts.tiles[0] * opts.tiles[1]


def render_cpu(a: SceneArrays, opts: RenderOptions, kind: QueueKind, progress=None) -> RenderResult:
    lib = cpu_library(kind.kind_id)
    threads = opts.threads or os.cpu_count() or 1
    pixels = opts.width * opts.height
    pool = np.zeros((pixels, 16), np.float32)
    done = np.zeros(1, np.uint64)
    counts = np.zeros(3, np.uint64)
    err = np.zeros(4, np.uint32)
    args = scene_args(a, opts)
    if opts.renderer == "compaction":
        lists = np.empty((2, pixels), np.uint32)
        call = lambda: lib.rt_cpu_compaction(*args, _p(pool), _p(lists[0]), _p(lists[1]), threads,  # noqa: E731
                                             _p(done), _p(counts))
    else:
        capacity, stride, tiles = tile_layout(lib, opts, threads, a.max_depth)
        queues = np.empty(tiles * stride, np.uint64)
        masks = np.empty(screen_blocks(opts), np.uint32)  # written by the seeding (rt/tile_queues.h)
        tx, ty = opts.tiles
        call = lambda: lib.rt_cpu_tiles(*args, _p(pool), _p(masks), _p(queues), stride, capacity,  # noqa: E731
                                        threads, tx, ty, _p(done), _p(counts), _p(err))
    total = pixels * opts.spp
    started = time.perf_counter()
    worker = threading.Thread(target=call, name=f"gq-render-{opts.renderer}")
    worker.start()
    while worker.is_alive():
        worker.join(POLL_S)
        if progress:
            progress(min(1.0, int(done[0]) / total))
    seconds = time.perf_counter() - started
    raise_if_flagged(err, f"rt_cpu_{opts.renderer}[{kind.name}]",
                     f"{opts.width}x{opts.height}, {opts.tiles[0]}x{opts.tiles[1]} tiles, {threads} threads")
    if int(done[0]) != total:
        raise GQError(f"internal: the {opts.renderer} renderer finished {int(done[0])} of {total} samples")
    image, nonfinite = finish(pool, opts)
    aov = None
    if opts.aov:
        depth = np.empty(pixels, np.float32)
        normal = np.empty((pixels, 3), np.float32)
        ids = np.empty(pixels, np.int32)
        faces = np.empty(pixels, np.int32)
        lib.rt_cpu_aov(*args, threads, _p(depth), _p(normal), _p(ids), _p(faces))
        aov = aov_arrays(depth, normal, ids, faces, opts)
    rays = dict(zip(("primary", "reflection", "shadow"), (int(x) for x in counts)))
    return RenderResult(image=image, rays=rays, seconds=seconds, backend="cpu", renderer=opts.renderer,
                        queue=opts.queue if opts.renderer == "queue" else None, nonfinite=nonfinite, aov=aov,
                        threads=threads)

