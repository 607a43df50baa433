"""`render`: the public entry of the renderers (validation, dispatch to a backend).

Two schedulers over the same per-pixel path code (include/rt/whitted.h):

* ``compaction`` — the stream-compaction wavefront baseline (include/rt/compaction.h);
* ``queue`` — the tile-based persistent wavefront renderer, one queue of the queue layer per
  tile (include/rt/tile_queues.h; seed 001, Section V.B.b).

Both run on the CPU (host threads over the CPU build of the queues) and on the GPU.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from queues_cuda.backend import BACKENDS, resolve
from queues_cuda.errors import GQError
from queues_cuda.queues import QUEUES

from . import mesh_accel
from .bvh import Bvh
from .bvh import build as build_bvh
from .scene import MAX_IMAGE_SIDE, MAX_SPP

RENDERERS = ("queue", "compaction")
# How rays find primitives: a BVH (raytrace/bvh.py), or every primitive in turn (the reference
# the BVH must agree with bit for bit).
ACCELS = ("bvh", "none")
# Which build makes the triangle hierarchy (raytrace/mesh_accel.py); the same traversal reads both.
MESH_BUILDS = mesh_accel.BUILDERS


def parse_tiles(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text or "")
    if not m:
        raise GQError(f"--tiles: expected TXxTY with two positive integers (e.g. 8x8), got {text!r}")
    tiles = int(m.group(1)), int(m.group(2))
    if min(tiles) < 1:
        raise GQError(f"--tiles: both tile counts must be at least 1, got {text!r}")
    return tiles


@dataclass
class RenderOptions:
    width: int
    height: int
    spp: int
    renderer: str = "queue"
    # SFQ through its blocking interface is the fastest tile queue (H200, run 411's bench: 1.12x /
    # 1.00x compaction on spheres100 / cornell at its 1x1 tiles, G-LFQ 0.95x / 0.90x at 2x2; an
    # H100, run 410: 1.09x / 1.00x; rt/tile_queues_blocking.h)
    queue: str = "sfq"
    tiles: tuple[int, int] | None = None  # None: the queue's default_tiles
    backend: str = "auto"
    threads: int | None = None
    aov: bool = False
    accel: str = "bvh"
    mesh_build: str = "sah"

    def __post_init__(self) -> None:
        if self.tiles is None:
            self.tiles = default_tiles(self.queue)


def default_tiles(queue: str) -> tuple[int, int]:
    """The tiling the queue renderer takes when none is given: 2x2 for the queues it runs through
    their non-waiting interface (run 116: G-LFQ 1.24 / 5.00 ms at 2x2, 1.39 / 5.39 at 4x4 on cornell
    / spheres100), one tile for those with a blocking interface (SFQ, rt/tile_queues_blocking.h):
    there a worker's tickets are all on its home tile's queue and other tiles are reached only by
    stealing, which costs SFQ at 2x2 (H100, run 402: 2.61 / 0.78 ms on spheres100 / cornell against
    2.41 / 0.69 at 1x1). An unknown queue gets 2x2; validate_options names it."""
    kind = QUEUES.get(queue)
    return (1, 1) if kind is not None and kind.has_blocking else (2, 2)


def validate_options(opts: RenderOptions) -> None:
    """Every check that can fail runs here, before anything is allocated or launched."""
    for name, value, top in (("--width", opts.width, MAX_IMAGE_SIDE), ("--height", opts.height, MAX_IMAGE_SIDE),
                             ("--spp", opts.spp, MAX_SPP)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= top:
            raise GQError(f"{name}: expected an integer from 1 to {top}, got {value!r}")
    if opts.renderer not in RENDERERS:
        raise GQError(f"--renderer: unknown renderer {opts.renderer!r}; allowed: {', '.join(RENDERERS)}")
    if opts.queue not in QUEUES:
        raise GQError(f"--queue: unknown queue {opts.queue!r}; allowed: {', '.join(QUEUES)}")
    if opts.accel not in ACCELS:
        raise GQError(f"--accel: unknown acceleration {opts.accel!r}; allowed: {', '.join(ACCELS)}")
    if opts.mesh_build not in MESH_BUILDS:
        raise GQError(f"--mesh-build: unknown build {opts.mesh_build!r}; allowed: {', '.join(MESH_BUILDS)}")
    if opts.backend not in BACKENDS:
        raise GQError(f"--backend: unknown backend {opts.backend!r}; allowed: {', '.join(BACKENDS)}")
    tx, ty = opts.tiles
    if not (1 <= tx <= opts.width and 1 <= ty <= opts.height):
        raise GQError(f"--tiles: {tx}x{ty} does not fit a {opts.width}x{opts.height} image "
                      f"(from 1 to {opts.width} across and 1 to {opts.height} down)")
    if tx * ty > 65536:
        raise GQError(f"--tiles: {tx}x{ty} is {tx * ty} tiles; at most 65536")
    if opts.threads is not None and not 1 <= opts.threads <= 1 << 24:
        raise GQError(f"--threads: expected an integer from 1 to {1 << 24}, got {opts.threads!r}")


@dataclass
class RenderResult:
    image: np.ndarray            # float32 [H, W, 3], linear radiance, mean over samples
    rays: dict                   # {"primary", "reflection", "shadow"} -> rays traced
    seconds: float               # the render itself: CUDA events on the GPU, wall clock on the CPU
    backend: str
    renderer: str
    queue: str | None            # None for the compaction baseline
    nonfinite: int               # sample contributions that were NaN or infinite, dropped
    aov: dict | None = None      # {"depth": [H, W], "normal": [H, W, 3], "id", "prim": [H, W] int32}
    threads: int = 0             # workers: CPU threads, or GPU threads of the main kernel

    @property
    def total_rays(self) -> int:
        return int(sum(self.rays.values()))

    @property
    def mrays_per_s(self) -> float:
        return self.total_rays / self.seconds / 1e6 if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class SceneArrays:
    """What the kernels read: the scene's arrays plus the camera basis for this image size."""

    prims: np.ndarray
    materials: np.ndarray
    lights: np.ndarray           # at least one row (zeros when the scene has no light: nlights = 0)
    nlights: int
    world: np.ndarray            # background rgb, ambient rgb
    camera: np.ndarray           # Camera.basis
    max_depth: int
    nodes: np.ndarray            # BVH rows (raytrace/bvh.py); at least one row, nnodes may be 0
    nnodes: int
    bvh_index: np.ndarray        # uint32, at least one entry
    unbounded: np.ndarray        # uint32, at least one entry
    nunbounded: int
    mesh_nodes: np.ndarray       # triangle BVH rows (rt/mesh_bvh.h); at least one row, nmesh_nodes may be 0
    nmesh_nodes: int
    tris: np.ndarray             # float32 [T, 12], leaf order with a BVH; at least one row, ntris may be 0
    ntris: int

    @classmethod
    def of(cls, scene, width: int, height: int, accel: str = "bvh", mesh_build: str = "sah",
           backend: str = "cpu") -> "SceneArrays":
        f32 = lambda a: np.ascontiguousarray(a, dtype=np.float32)  # noqa: E731
        # Kernels get a valid pointer even for an empty array; the count says how much is real.
        some = lambda a, shape: a if len(a) else np.zeros(shape, a.dtype)  # noqa: E731
        lights = f32(scene.lights).reshape(-1, 6)
        tree = build_bvh(scene.prims) if accel == "bvh" else Bvh(np.zeros((0, 8), np.float32),
                                                                 np.zeros(0, np.uint32), np.zeros(0, np.uint32), 0)
        tris = getattr(scene, "triangles", np.zeros((0, mesh_accel.TRI_FLOATS), np.float32))
        mesh_nodes = np.zeros((0, mesh_accel.WIDE_NODE_FLOATS), np.float32)
        if len(tris) and accel == "bvh":
            built = mesh_accel.cached_build(tris, mesh_build, backend)
            mesh_nodes, tris = built.nodes, built.tris
        return cls(prims=f32(scene.prims), materials=f32(scene.materials),
                   lights=some(lights, (1, 6)), nlights=len(lights),
                   world=f32(list(scene.background) + list(scene.ambient)),
                   camera=f32(scene.camera.basis(width, height)), max_depth=int(scene.max_depth),
                   nodes=some(tree.nodes, (1, 8)), nnodes=len(tree.nodes), bvh_index=some(tree.index, (1,)),
                   unbounded=some(tree.unbounded, (1,)), nunbounded=len(tree.unbounded),
                   mesh_nodes=some(mesh_nodes, (1, mesh_accel.WIDE_NODE_FLOATS)), nmesh_nodes=len(mesh_nodes),
                   tris=some(f32(tris), (1, mesh_accel.TRI_FLOATS)), ntris=len(tris))


def render(scene, opts: RenderOptions, progress=None) -> RenderResult:
    """Render `scene` with `opts`; `progress(fraction)` is called from this thread as work ends."""
    validate_options(opts)
    backend = resolve(opts.backend)
    arrays = SceneArrays.of(scene, opts.width, opts.height, opts.accel, opts.mesh_build, backend)
    kind = QUEUES[opts.queue]
    if backend == "cuda":
        from .cuda_render import render_cuda as run
    else:
        from .cpu_render import render_cpu as run
    result = run(arrays, opts, kind, progress)
    result.backend = backend
    return result


BLOCK_W, BLOCK_H = 8, 4  # rt/pixel_order.h's screen blocks, the tile renderer's ray packets


def screen_blocks(opts: RenderOptions) -> int:
    """How many 8x4 screen blocks cover the image (rt::ScreenBlocks::count)."""
    return -(-opts.width // BLOCK_W) * -(-opts.height // BLOCK_H)


def tile_capacity(opts: RenderOptions) -> int:
    """The most blocks any tile owns. A block belongs to the tile of its top-left pixel, and tiles
    are cut at floor(x * tiles_x / width) (rt::TileGrid): a block sits in at most one queue slot
    at a time, so each tile's queue needs exactly this much room. (A blocking queue kind's tile
    queues get more, every ticket a render can draw: rt::tile_queue_capacity.)"""
    tx, ty = opts.tiles

    def most(side: int, step: int, tiles: int) -> int:
        firsts = np.arange(0, side, step, dtype=np.int64)
        return int(np.bincount(firsts * tiles // side, minlength=tiles).max())

    return most(opts.width, BLOCK_W, tx) * most(opts.height, BLOCK_H, ty)


def finish(pool, opts: RenderOptions):
    """Image (mean over samples) and dropped-contribution count from the ray pool (PathState rows
    of 16 words), computed where the pool lives (numpy or CuPy)."""
    image = (pool[:, 12:15] / pool.dtype.type(opts.spp)).reshape(opts.height, opts.width, 3)
    nonfinite = int(pool.view(np.uint32)[:, 11].astype(np.uint64).sum())
    return image, nonfinite


def aov_arrays(depth: np.ndarray, normal: np.ndarray, ids: np.ndarray, faces: np.ndarray,
               opts: RenderOptions) -> dict:
    """The first-hit arrays as `--aov` writes them: depth inf where nothing was hit; `prim` the
    face index of the triangle hit within its mesh (-1 where the hit is no triangle)."""
    depth = np.where(ids < 0, np.float32(np.inf), depth).astype(np.float32)
    return {"depth": depth.reshape(opts.height, opts.width),
            "normal": normal.reshape(opts.height, opts.width, 3).astype(np.float32),
            "id": ids.reshape(opts.height, opts.width).astype(np.int32),
            "prim": faces.reshape(opts.height, opts.width).astype(np.int32)}
