"""The renderers on the GPU: kernels/render.cu through CuPy.

Timing covers what a render needs after its buffers exist: fresh paths, for the queue renderer
the tile queues' initialisation and the primary rays' enqueue, then every wave (compaction) or
the persistent kernel (queue). CUDA events bracket it on the stream; compilation and allocation
stay outside. The events alone would time the host's pace too where it enqueues the launches more
slowly than the GPU runs them (the compaction baseline's short waves: cornell's measured 110-120 ms
against 0.77 with another Python thread busy, run 407), so a launch gate holds the stream while
the host enqueues them (_LaunchGate; run 409: 0.66 ms either way). GQ_LAUNCH_GATE=0 turns it off.

The persistent kernel's grid is what the occupancy API says can be resident (never more: the
workers wait on each other's rays). The compaction waves use a resident-sized grid too, whose
warps fetch their items from a per-wave counter, and read their list length on the device, so no
wave needs a host round trip.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import warnings

import numpy as np

from queues_cuda.cuda_runtime import BLOCK, resident_threads
from queues_cuda.errors import GQError, raise_if_flagged
from queues_cuda.queues import QueueKind

from .build import cuda_module
from .render import (
    RenderOptions,
    RenderResult,
    SceneArrays,
    aov_arrays,
    finish,
    screen_blocks,
    tile_capacity,
)

u32, u64 = np.uint32, np.uint64
NULL = np.uint64(0)  # a null pointer argument: CuPy passes the 8 bytes as they are


# The most words of scene the tile renderer copies into each block's shared memory (kernels/
# render.cu: scene_in_shared): 16 KB a block, 64 KB of an SM's 228 KB at four blocks an SM.
# spheres100 takes 2,745 words, cornell 144.
SHARED_SCENE_FLOATS = 4096


def shared_scene_floats(a: SceneArrays) -> int:
    """The words of rt_tiles' copy of the scene in shared memory, counted as scene_in_shared
    counts them, or 0 where the scene has triangles or would not fit."""
    if a.ntris:
        return 0
    nprims = len(a.prims)
    material_rows = int(a.prims[:, 1].max()) + 1 if nprims else 0  # the rows the primitives name
    nindex = nprims - a.nunbounded if a.nnodes else 0
    total = (a.prims.size + a.nnodes * a.nodes.shape[1] + material_rows * a.materials.shape[1]
             + a.nlights * a.lights.shape[1] + nindex + a.nunbounded)
    return total if total <= SHARED_SCENE_FLOATS else 0


def _grid(threads: int) -> tuple[int]:
    return ((threads + BLOCK - 1) // BLOCK,)


def _scene_args(a: SceneArrays, opts: RenderOptions) -> tuple:
    """RT_SCENE_ARGS (rt/render_args.h) on the device."""
    import cupy

    d = {name: cupy.asarray(getattr(a, name))
         for name in ("prims", "materials", "lights", "world", "camera", "nodes", "bvh_index", "unbounded",
                      "mesh_nodes", "tris")}
    return (d["prims"], u32(len(a.prims)), d["materials"], d["lights"], u32(a.nlights), d["world"], d["camera"],
            d["nodes"], d["bvh_index"], u32(a.nnodes), d["unbounded"], u32(a.nunbounded),
            d["mesh_nodes"], u32(a.nmesh_nodes), d["tris"], u32(a.ntris), u32(opts.width), u32(opts.height),
            u32(opts.spp), u32(a.max_depth))


def time_first_hits(a: SceneArrays, opts: RenderOptions, kind: QueueKind, repeats: int = 5) -> list[float]:
    """Seconds of each of `repeats` launches of rt_aov (one closest hit per pixel centre, 8x4
    blocks, no path state; after one warm-up launch), CUDA events: the traversal's speed alone."""
    import cupy

    mod = cuda_module(kind.kind_id)
    args = _scene_args(a, opts)
    pixels = opts.width * opts.height
    out = (cupy.empty(pixels, cupy.float32), cupy.empty((pixels, 3), cupy.float32), cupy.empty(pixels, cupy.int32),
           cupy.empty(pixels, cupy.int32))
    aov = mod.get_function("rt_aov")
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    seconds = []
    for k in range(repeats + 1):
        gate = _LaunchGate(mod)
        with gate.holding():
            start.record()
            aov(_grid(pixels), (BLOCK,), (*args, *out))
            end.record()
        end.synchronize()
        gate.warn_if_gave_up()
        if k:
            seconds.append(cupy.cuda.get_elapsed_time(start, end) / 1e3)
    return seconds


class _CompactionWaves:
    """The compaction baseline's buffers (allocated before any timing starts) and its launches:
    rt_paths_init, then spp * (max_depth + 1) waves, no path having more segments than that."""

    def __init__(self, mod, a: SceneArrays, opts: RenderOptions):
        import cupy

        self.mod, self.opts = mod, opts
        self.wave = mod.get_function("rt_wave")
        resident = resident_threads(self.wave)
        # Whole blocks: every launched thread owns a row of `counts`.
        self.threads = min(-(-(opts.threads or resident) // BLOCK) * BLOCK, resident)
        self.pixels = opts.width * opts.height
        self.lists = cupy.empty((2, self.pixels), cupy.uint32)
        self.lengths = cupy.zeros(3, cupy.uint64)
        self.counts = cupy.zeros((self.threads, 3), cupy.uint64)
        self.waves = opts.spp * (a.max_depth + 1)
        self.nexts = cupy.zeros(self.waves, cupy.uint64)  # each wave's fetch counter (kernels/render.cu wave_items)

    def launch(self, args: tuple, pool, done, before_wave=None, after_wave=None) -> None:
        """Enqueue the whole render; before_wave(k) / after_wave(k) run on the host around wave
        k's launch (tools/gpu_render_ab.py records events and list lengths there)."""
        o, lists, lengths = self.opts, self.lists, self.lengths
        self.mod.get_function("rt_paths_init")(_grid(min(self.pixels, self.threads)), (BLOCK,),
                                               (pool, lists[0], lengths[0:1], u32(o.width), u32(o.height)))
        for k in range(self.waves):
            if before_wave:
                before_wave(k)
            self.wave(_grid(self.threads), (BLOCK,),
                      (*args, pool, lists[k % 2], lengths[k % 3:k % 3 + 1], lists[(k + 1) % 2],
                       lengths[(k + 1) % 3:(k + 1) % 3 + 1], lengths[(k + 2) % 3:(k + 2) % 3 + 1], done, self.counts,
                       u32(k == 0), self.nexts[k:k + 1]))
            if after_wave:
                after_wave(k)


def time_compaction_waves(a: SceneArrays, opts: RenderOptions, kind: QueueKind) -> list[dict]:
    """One compaction render with CUDA events around each wave's launch: per wave, its items (the
    list length it read) and milliseconds. The copies of the list lengths run between the waves'
    events, so they are outside every wave's time; the render as a whole is timed by render_cuda."""
    import cupy

    mod = cuda_module(kind.kind_id)
    args = _scene_args(a, opts)
    pool = cupy.zeros((opts.width * opts.height, 16), cupy.float32)
    done = cupy.zeros(1, cupy.uint64)
    waves = _CompactionWaves(mod, a, opts)
    items = cupy.zeros(waves.waves + 1, cupy.uint64)
    items[0] = waves.pixels
    marks = [(cupy.cuda.Event(), cupy.cuda.Event()) for _ in range(waves.waves)]

    def after(k: int) -> None:
        marks[k][1].record()
        nxt = (k + 1) % 3
        cupy.copyto(items[k + 1:k + 2], waves.lengths[nxt:nxt + 1])

    gate = _LaunchGate(mod)
    with gate.holding():
        waves.launch(args, pool, done, before_wave=lambda k: marks[k][0].record(), after_wave=after)
    marks[-1][1].synchronize()
    gate.warn_if_gave_up()
    if int(done.get()[0]) != waves.pixels * opts.spp:
        raise GQError(f"internal: the timed compaction render finished {int(done.get()[0])} of "
                      f"{waves.pixels * opts.spp} samples")
    n = items.get()
    return [{"wave": k, "items": int(n[k]), "ms": cupy.cuda.get_elapsed_time(b, e)} for k, (b, e) in enumerate(marks)]


def launch_gate_on() -> bool:
    """Whether renders run behind the launch gate (_LaunchGate): unless GQ_LAUNCH_GATE=0."""
    return os.environ.get("GQ_LAUNCH_GATE") != "0"


class _LaunchGate:
    """Holds the stream (kernels/render.cu: rt_launch_gate) from `hold` until `release`, so that
    the launches enqueued in between run back to back however slowly the host enqueued them. Only
    launches and event records may come between the two: a host wait on the stream there would wait
    out the gate's budget. Run 409 (an H100, cornell at 1920x1080, 4 spp, median of 9): compaction
    0.66 ms alone and 0.66 with another Python thread busy, against 0.74 and 116-120 without the
    gate; SFQ's one-tile render 0.66 against 0.72 (its two launches were timed apart by the host's
    pace too). GQ_LAUNCH_GATE=0 makes hold and release do nothing, for that comparison.
    The flag words are pinned host memory, which a kernel reads at the host's own address (unified
    addressing: every 64-bit CUDA platform the renderer runs on)."""

    BUDGET_NS = 2_000_000_000  # the host enqueues a render's few dozen launches in well under this

    def __init__(self, mod):
        self.on = launch_gate_on()
        if self.on:
            import cupy

            self._kernel = mod.get_function("rt_launch_gate")
            self._mem = cupy.cuda.alloc_pinned_memory(8)
            self.words = np.frombuffer(self._mem, np.uint32, 2)
            self.words[:] = 0

    def hold(self) -> None:
        if self.on:
            self._kernel((1,), (1,), (u64(self._mem.ptr), u64(self.BUDGET_NS)))

    def release(self) -> None:
        if self.on:
            self.words[0] = 1

    @contextlib.contextmanager
    def holding(self):
        """hold, then release when the block ends, by an error too: a stream left held would wait
        out the budget."""
        self.hold()
        try:
            yield
        finally:
            self.release()

    def warn_if_gave_up(self) -> None:
        """After the stream has passed the gate: say so if it let the stream go before `release`."""
        if self.on and self.words[1]:
            warnings.warn(f"the launch gate let the stream go before the host had enqueued the launches "
                          f"({self.BUDGET_NS / 1e9:.0f} s): this time may include the host's delays", stacklevel=3)


def render_cuda(a: SceneArrays, opts: RenderOptions, kind: QueueKind, progress=None,
                phases: dict | None = None) -> RenderResult:
    """One render, timed by CUDA events around all its launches. With `phases` (a dict; the tile
    renderer only), also the milliseconds of each of the tile renderer's launches, into it by name
    (tools/gpu_render_probe.py)."""
    import cupy

    mod = cuda_module(kind.kind_id)
    args = _scene_args(a, opts)
    pixels = opts.width * opts.height
    pool = cupy.zeros((pixels, 16), cupy.float32)
    done = cupy.zeros(1, cupy.uint64)
    err = cupy.zeros(4, cupy.uint32)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    gate = _LaunchGate(mod)  # held from just before `start` to just after `end`

    if opts.renderer == "compaction":
        waves = _CompactionWaves(mod, a, opts)
        threads, counts = waves.threads, waves.counts
        with gate.holding():
            start.record()
            waves.launch(args, pool, done)
            end.record()
    else:
        tiles_kernel = mod.get_function("rt_tiles")
        room = shared_scene_floats(a)
        resident = resident_threads(tiles_kernel, shared_bytes=4 * room)
        threads = opts.threads or resident
        if threads > resident:
            raise GQError(f"--threads {threads}: more than the {resident} threads of rt_tiles that can be resident "
                          "on this GPU at once (its workers wait on each other's rays)")
        tx, ty = opts.tiles
        blocks = screen_blocks(opts)
        out = cupy.zeros(5, cupy.uint64)
        mod.get_function("rt_tile_layout")((1,), (1,), (u64(tile_capacity(opts)), u64(threads), u32(opts.spp),
                                                        u32(a.max_depth), out))
        # A warp's lanes that make queue operations are users (rt/tile_queues.h). G-LFQ's, G-WFQ's
        # and SFQ's queues are built holding their tiles' blocks (filled); for the other kinds a few
        # seeders a warp enqueue them, and set the order they are queued in (kernels/render.cu).
        users, stride, seeders, filled, capacity = (int(x) for x in out.get())
        words = stride * tx * ty
        queues = cupy.empty(words, cupy.uint64)
        masks = cupy.empty(blocks, cupy.uint32)  # written by the init (filled) or the seeding
        counts = cupy.zeros((threads, 3), cupy.uint64)
        marks = [start] + ([cupy.cuda.Event(), cupy.cuda.Event()] if phases is not None else [])
        with gate.holding():
            start.record()
            # No path init: the seeded items are marked fresh (rt::kFreshItem), so nothing reads the
            # pool before a worker writes it.
            mod.get_function("rt_tiles_init")(_grid(min(words, threads)), (BLOCK,),
                                              (queues, u64(stride), u64(capacity), u64(users), u32(opts.width),
                                               u32(opts.height), u32(tx), u32(ty), masks))
            if phases is not None:
                marks[1].record()
            if not filled:
                mod.get_function("rt_tiles_seed")(_grid(min(blocks, seeders)), (BLOCK,),
                                                  (queues, u64(stride), u64(capacity), u64(users), u64(seeders),
                                                   u32(opts.width), u32(opts.height), u32(tx), u32(ty), masks, err))
            if phases is not None:
                marks[2].record()
            tiles_kernel(_grid(threads), (BLOCK,), (*args, pool, masks, queues, u64(stride), u64(capacity),
                                                    u32(threads), u32(tx), u32(ty), done, counts, err, u32(room)),
                         shared_mem=4 * room)
            end.record()
            marks.append(end)
    end.synchronize()
    seconds = cupy.cuda.get_elapsed_time(start, end) / 1e3
    gate.warn_if_gave_up()
    if phases is not None and opts.renderer != "compaction":
        for name, (b, e) in zip(("queue_init", "seed", "work"), itertools.pairwise(marks)):
            phases[name] = cupy.cuda.get_elapsed_time(b, e)
    raise_if_flagged(err.get(), f"rt_tiles[cuda, {kind.name}]",
                     f"{opts.width}x{opts.height}, {opts.tiles[0]}x{opts.tiles[1]} tiles, {threads} threads")
    finished = int(done.get()[0])
    if finished != pixels * opts.spp:
        raise GQError(f"internal: the {opts.renderer} renderer finished {finished} of {pixels * opts.spp} samples")
    if progress:
        progress(1.0)

    image, nonfinite = finish(pool, opts)
    image = image.get()
    rays = dict(zip(("primary", "reflection", "shadow"), (int(x) for x in counts.sum(axis=0).get())))
    aov = None
    if opts.aov:
        depth = cupy.empty(pixels, cupy.float32)
        normal = cupy.empty((pixels, 3), cupy.float32)
        ids = cupy.empty(pixels, cupy.int32)
        faces = cupy.empty(pixels, cupy.int32)
        mod.get_function("rt_aov")(_grid(pixels), (BLOCK,), (*args, depth, normal, ids, faces))
        aov = aov_arrays(depth.get(), normal.get(), ids.get(), faces.get(), opts)
    return RenderResult(image=image, rays=rays, seconds=seconds, backend="cuda",
                        renderer=opts.renderer, queue=opts.queue if opts.renderer == "queue" else None,
                        nonfinite=nonfinite, aov=aov, threads=threads)
