"""The triangle hierarchy (include/rt/mesh_bvh.h) built two ways, one node layout.

* ``sah`` — binned SAH on the host (host/sah_build.cpp; Wald 2007), in C++ because numpy is too
  slow for it: binning 1 M triangles into 16 bins on 3 axes once (the root's work alone) took
  2.1 s with numpy's ufunc.at on the 2-core development machine, where the whole C++ build of
  terrain1m.toml's 1,002,528 triangles takes 1.4 s.
* ``lbvh`` — Karras's linear BVH (include/rt/lbvh.h; Karras 2012): the same per-item code on the
  host (host/lbvh_cpu.cpp, numpy's sort) and on the GPU (kernels/lbvh.cu, CuPy's radix sort).

Both write a binary tree, which `collapse` turns into the 4-wide tree the renderers trace
(include/rt/bvh_collapse.h; on the GPU for the GPU's LBVH build). Every build returns the nodes
and the triangles in leaf order; the traversal in rt/mesh_bvh.h reads both and reports the same
closest hit whichever build made them (ties go to the lower scene row, which each triangle row
carries). `binary_sah` and `binary_lbvh_cpu` hand over the binary tree before its collapse (for
the tests of the builders and of the collapse).
"""

from __future__ import annotations

import ctypes
import os
import weakref
from dataclasses import dataclass
from functools import cache

import numpy as np

from queues_cuda import build as qbuild

from .build import INCLUDE_DIRS, PACKAGE_DIR

BUILDERS = ("sah", "lbvh")
NODE_FLOATS = 16       # binary node (rt/mesh_bvh.h)
WIDE_NODE_FLOATS = 32  # 4-wide node
TRI_FLOATS = 12
LEAF_MAX = 4       # the SAH build's largest leaf (rt/mesh_bvh.h allows 15)
MAX_TRIANGLES = 1 << 27  # leaf refs hold 27 bits of triangle row
STACK = 64         # binary depth limit: rt/mesh_bvh.h kMeshStack covers the 4-wide tree of it
LEAF_BIT = 0x80000000
LBVH_KERNEL = PACKAGE_DIR / "kernels" / "lbvh.cu"
CXX_FLAGS = qbuild.LIBRARY_FLAGS + ("-pthread", "-ffp-contract=off")
NVRTC_FLAGS = ("-std=c++17", "--fmad=false")


@dataclass(frozen=True)
class MeshAccel:
    nodes: np.ndarray  # float32 [N, 32] 4-wide nodes; [N, 16] binary ones from binary_sah / binary_lbvh_cpu
    tris: np.ndarray   # float32 [T, 12], leaf order
    depth: int         # deepest inner level of the binary tree (root 0)
    builder: str

    @property
    def wide(self) -> bool:
        return self.nodes.shape[1] == WIDE_NODE_FLOATS


@cache
def _sah_library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(qbuild.compile_library(PACKAGE_DIR / "host" / "sah_build.cpp", CXX_FLAGS, "librt_sah",
                                                 include_dirs=INCLUDE_DIRS)))
    u32, p = ctypes.c_uint32, ctypes.c_void_p
    lib.rt_sah_build.restype = u32
    lib.rt_sah_build.argtypes = [p, u32, u32, p, p, p]
    return lib


@cache
def _lbvh_library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(qbuild.compile_library(PACKAGE_DIR / "host" / "lbvh_cpu.cpp", CXX_FLAGS, "librt_lbvh",
                                                 include_dirs=INCLUDE_DIRS)))
    u32, p = ctypes.c_uint32, ctypes.c_void_p
    lib.rt_lbvh_keys.restype = None
    lib.rt_lbvh_keys.argtypes = [p, u32, p, p]
    lib.rt_lbvh_build.restype = None
    lib.rt_lbvh_build.argtypes = [p, p, u32, u32, p, p, p, p, p]
    lib.rt_collapse4.restype = None
    lib.rt_collapse4.argtypes = [p, u32, p, p, u32, p]
    return lib


@cache
def _counts_library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(qbuild.compile_library(PACKAGE_DIR / "host" / "trace_counts.cpp", CXX_FLAGS,
                                                 "librt_trace_counts", include_dirs=INCLUDE_DIRS)))
    u32, p = ctypes.c_uint32, ctypes.c_void_p
    lib.rt_trace_counts.restype = None
    lib.rt_trace_counts.argtypes = [p, u32, p, u32, p, u32, u32, u32, u32, u32, p, p, p, p, p]
    lib.rt_pixel_order.restype = None
    lib.rt_pixel_order.argtypes = [u32, u32, p]
    return lib


@dataclass(frozen=True)
class TraceCounts:
    """Per pixel (row order) of one primary-ray sample: what the traversal did and what it hit."""

    nodes: np.ndarray      # uint32 [H, W]: node rows fetched
    tris: np.ndarray       # uint32 [H, W]: triangles tested
    max_stack: np.ndarray  # uint32 [H, W]: deepest traversal stack
    t: np.ndarray          # float32 [H, W]: hit distance, 3e38 on a miss
    tri: np.ndarray        # int32 [H, W]: triangle row hit in the accel's leaf order, -1 on a miss


def trace_counts(accel: MeshAccel | None, tris: np.ndarray, camera_basis: np.ndarray, width: int, height: int,
                 sample: int = 0, spp: int = 1, threads: int | None = None) -> TraceCounts:
    """Trace sample `sample` of `spp` of every pixel's primary ray (the renderers' ray) through
    the 4-wide tree `accel` (None: every triangle in turn, the reference), on the host, with the
    renderers' traversal, counting the work."""
    if accel is not None and not accel.wide:
        raise ValueError("the traversal reads 4-wide trees: collapse() the binary one first")
    nodes = accel.nodes if accel is not None else np.zeros((1, WIDE_NODE_FLOATS), np.float32)
    nnodes = len(accel.nodes) if accel is not None else 0
    rows = _check(accel.tris if accel is not None else tris)
    camera = np.ascontiguousarray(camera_basis, dtype=np.float32)
    nodes = np.ascontiguousarray(nodes, dtype=np.float32)
    out = [np.empty((height, width), dt) for dt in (np.uint32, np.uint32, np.uint32, np.float32, np.int32)]
    _counts_library().rt_trace_counts(nodes.ctypes.data, nnodes, rows.ctypes.data, len(rows), camera.ctypes.data,
                                      width, height, sample, spp, threads or os.cpu_count() or 1,
                                      *(a.ctypes.data for a in out))
    return TraceCounts(*out)


def pixel_order(width: int, height: int) -> np.ndarray:
    """The pixel that each work item traces (rt/pixel_order.h: 8x4 blocks): uint32 [width * height]."""
    out = np.empty(width * height, np.uint32)
    _counts_library().rt_pixel_order(width, height, out.ctypes.data)
    return out


def _check(tris: np.ndarray) -> np.ndarray:
    tris = np.ascontiguousarray(tris, dtype=np.float32)
    if tris.ndim != 2 or tris.shape[1] != TRI_FLOATS or not 1 <= len(tris) <= MAX_TRIANGLES:
        raise ValueError(f"triangle array must be float32 [1..{MAX_TRIANGLES}, {TRI_FLOATS}], got {tris.shape}")
    return tris


def tree_depth(nodes: np.ndarray) -> int:
    """Deepest inner node level (root 0), walking the refs one level at a time."""
    refs = nodes.view(np.uint32)[:, 12:14]
    depth, level = 0, np.zeros(1, np.int64)
    while True:
        children = refs[level].ravel()
        level = children[(children & LEAF_BIT) == 0].astype(np.int64)
        if len(level) == 0:
            return depth
        depth += 1


def node_levels(nodes: np.ndarray) -> np.ndarray:
    """Each node row's level (root 0), uint8, walking the refs one level at a time."""
    refs = nodes.view(np.uint32)[:, 12:14]
    levels = np.zeros(len(nodes), np.uint8)
    depth, level = 0, np.zeros(1, np.int64)
    while len(level):
        levels[level] = depth
        children = refs[level].ravel()
        level = children[(children & LEAF_BIT) == 0].astype(np.int64)
        depth += 1
    return levels


def even_rows(levels, xp=np):
    """Each binary row's wide row (rt/bvh_collapse.h): the exclusive prefix sum of the even
    levels; and the wide row count (a device scalar under CuPy: no host sync)."""
    even = (levels % 2 == 0).astype(xp.uint32)
    inclusive = xp.cumsum(even, dtype=xp.uint32)
    return (inclusive - even).astype(xp.uint32), inclusive[-1]


def collapse(accel: MeshAccel, threads: int | None = None) -> MeshAccel:
    """The 4-wide tree of a binary one, on the host (the same per-node code as the GPU's)."""
    if accel.wide:
        raise ValueError("collapse() takes a binary tree")
    binary = np.ascontiguousarray(accel.nodes, dtype=np.float32)
    levels = node_levels(binary)
    wide, count = even_rows(levels)
    out = np.zeros((int(count), WIDE_NODE_FLOATS), np.float32)
    _lbvh_library().rt_collapse4(binary.ctypes.data, len(binary), levels.ctypes.data, wide.ctypes.data,
                                 threads or os.cpu_count() or 1, out.ctypes.data)
    return MeshAccel(out, accel.tris, accel.depth, accel.builder)


def build_sah(tris: np.ndarray) -> MeshAccel:
    return collapse(binary_sah(tris))


def binary_sah(tris: np.ndarray) -> MeshAccel:
    tris = _check(tris)
    n = len(tris)
    nodes = np.zeros((max(n, 1), NODE_FLOATS), np.float32)
    perm = np.empty(n, np.uint32)
    depth = np.zeros(1, np.uint32)
    count = _sah_library().rt_sah_build(tris.ctypes.data, n, LEAF_MAX, nodes.ctypes.data, perm.ctypes.data,
                                        depth.ctypes.data)
    return MeshAccel(nodes[:count].copy(), tris[perm], int(depth[0]), "sah")


def scene_bounds(tris: np.ndarray, xp=np) -> np.ndarray:
    """lo(3), 1 / extent(3) of all vertices: the frame of the Morton grid (rt/lbvh.h).

    One scale for all three axes, the largest extent: the grid's cells are cubes. A grid stretched
    to each axis's own extent gives a flat axis as many key bits as a wide one, and the radix tree
    then splits along it as often: on terrain1m (14 x 2 x 14) every third split cut the terrain
    into height bands whose boxes overlap across the whole map, and a primary ray fetched 30.9
    nodes on average against 20.4 in the SAH tree (tools/mesh_trace_counts.py).
    """
    v = tris[:, :9].reshape(-1, 3)
    lo, hi = v.min(axis=0), v.max(axis=0)
    extent = (hi - lo).max() * xp.ones(3, lo.dtype)  # on the device when xp is CuPy: no host sync
    inv = xp.where(extent > 0, 1.0 / xp.where(extent > 0, extent, 1), 0)
    return xp.concatenate([lo, inv]).astype(xp.float32)


def _single(tris: np.ndarray, builder: str) -> MeshAccel:
    """One triangle: a root with one leaf and an empty child (LBVH has no inner node for it)."""
    nodes = np.zeros((1, NODE_FLOATS), np.float32)
    v = tris[0, :9].reshape(3, 3)
    nodes[0, 0:3], nodes[0, 3:6] = v.min(axis=0), v.max(axis=0)
    pad = np.float32(2.0 ** -20) * max(1.0, float(np.abs(v).max()))
    nodes[0, 0:3] -= pad
    nodes[0, 3:6] += pad
    nodes.view(np.uint32)[0, 12] = LEAF_BIT | (1 << 27)
    nodes.view(np.uint32)[0, 13] = LEAF_BIT
    return MeshAccel(nodes, tris.copy(), 0, builder)


def build_lbvh_cpu(tris: np.ndarray, threads: int | None = None) -> MeshAccel:
    return collapse(binary_lbvh_cpu(tris, threads), threads)


def binary_lbvh_cpu(tris: np.ndarray, threads: int | None = None) -> MeshAccel:
    tris = _check(tris)
    n = len(tris)
    if n == 1:
        return _single(tris, "lbvh")
    lib = _lbvh_library()
    scene = scene_bounds(tris)
    keys = np.empty(n, np.uint64)
    lib.rt_lbvh_keys(tris.ctypes.data, n, scene.ctypes.data, keys.ctypes.data)
    keys.sort()
    out = np.empty_like(tris)
    nodes = np.zeros((n - 1, NODE_FLOATS), np.float32)
    parent = np.zeros(n - 1, np.uint32)
    leaf_parent = np.zeros(n, np.uint32)
    arrived = np.zeros(n - 1, np.uint32)
    lib.rt_lbvh_build(tris.ctypes.data, keys.ctypes.data, n, threads or os.cpu_count() or 1, out.ctypes.data,
                      nodes.ctypes.data, parent.ctypes.data, leaf_parent.ctypes.data, arrived.ctypes.data)
    return MeshAccel(nodes, out, tree_depth(nodes), "lbvh")


@cache
def lbvh_module():
    import cupy

    options = NVRTC_FLAGS + tuple(f"-I{d}" for d in INCLUDE_DIRS)
    return cupy.RawModule(code=qbuild.kernel_source(LBVH_KERNEL, INCLUDE_DIRS), options=options, backend="nvrtc")


def compile_lbvh_sm90(arch: str = "sm_90") -> tuple[str, int]:
    return qbuild.compile_sm90(0, (), LBVH_KERNEL, arch, INCLUDE_DIRS, NVRTC_FLAGS)


class GpuLbvh:
    """The LBVH build on the GPU over device-resident triangles; buffers are allocated once so
    that `build` (what the benchmark times) is the build alone: keys, sort, gather, nodes, refit,
    levels, their prefix sum and the collapse into the 4-wide tree."""

    BLOCK = 256

    def __init__(self, tris_device):
        import cupy

        self.cp = cupy
        self.tris = tris_device
        self.n = n = int(tris_device.shape[0])
        if n < 2:
            raise ValueError("the GPU LBVH build needs at least two triangles")
        mod = lbvh_module()
        self.k_keys, self.k_gather = mod.get_function("rt_lbvh_keys"), mod.get_function("rt_lbvh_gather")
        self.k_nodes, self.k_refit = mod.get_function("rt_lbvh_nodes"), mod.get_function("rt_lbvh_refit")
        self.keys = cupy.empty(n, cupy.uint64)
        self.out = cupy.empty_like(tris_device)
        self.nodes = cupy.zeros((n - 1, NODE_FLOATS), cupy.float32)
        self.parent = cupy.zeros(n - 1, cupy.uint32)
        self.leaf_parent = cupy.zeros(n, cupy.uint32)
        self.arrived = cupy.zeros(n - 1, cupy.uint32)
        self.k_levels, self.k_collapse = mod.get_function("rt_lbvh_levels"), mod.get_function("rt_collapse4")
        self.levels = cupy.zeros(n - 1, cupy.uint8)
        self.wide = cupy.zeros((n - 1, WIDE_NODE_FLOATS), cupy.float32)  # at most one per binary row
        self.wide_count = None

    def _grid(self, items: int) -> tuple[int]:
        return (max(1, min((items + self.BLOCK - 1) // self.BLOCK, 65535 * 4)),)

    def build(self) -> None:
        cp, n, u32 = self.cp, self.n, np.uint32
        scene = scene_bounds(self.tris, cp)
        self.k_keys(self._grid(n), (self.BLOCK,), (self.tris, u32(n), scene, self.keys))
        keys = cp.sort(self.keys)
        self.k_gather(self._grid(n), (self.BLOCK,), (self.tris, keys, u32(n), self.out))
        self.k_nodes(self._grid(n - 1), (self.BLOCK,), (keys, u32(n), self.nodes, self.parent, self.leaf_parent))
        self.arrived.fill(0)
        self.k_refit(self._grid(n), (self.BLOCK,), (self.out, u32(n), self.nodes, self.parent, self.leaf_parent,
                                                    self.arrived))
        self.k_levels(self._grid(n - 1), (self.BLOCK,), (self.parent, u32(n - 1), self.levels))
        rows, self.wide_count = even_rows(self.levels, cp)
        self.k_collapse(self._grid(n - 1), (self.BLOCK,), (self.nodes, u32(n - 1), self.levels, rows, self.wide))

    def result(self) -> MeshAccel:
        depth = tree_depth(self.nodes.get())
        return MeshAccel(self.wide[:int(self.wide_count)].get(), self.out.get(), depth, "lbvh")

    def binary(self) -> MeshAccel:
        """The binary tree before the collapse (for the tests)."""
        binary = self.nodes.get()
        return MeshAccel(binary, self.out.get(), tree_depth(binary), "lbvh")


def build_lbvh_gpu(tris: np.ndarray) -> MeshAccel:
    import cupy

    tris = _check(tris)
    if len(tris) == 1:
        return build_lbvh_cpu(tris)
    b = GpuLbvh(cupy.asarray(tris))
    b.build()
    return b.result()


def build(tris: np.ndarray, builder: str = "sah", backend: str = "cpu") -> MeshAccel:
    """The 4-wide tree the renderers read, built by `builder` (LBVH on `backend`'s device)."""
    if builder == "sah":
        accel = build_sah(tris)
    elif backend == "cuda":
        accel = build_lbvh_gpu(tris)
    else:
        accel = build_lbvh_cpu(tris)
    if accel.depth >= STACK:
        raise ValueError(f"triangle BVH depth {accel.depth} exceeds the traversal stack ({STACK})")
    return accel


_CACHE: dict = {}


def cached_build(tris: np.ndarray, builder: str = "sah", backend: str = "cpu") -> MeshAccel:
    """`build`, remembered while the triangle array lives (a benchmark renders one scene many
    times; the hierarchy depends on the triangles alone)."""
    key = (id(tris), builder, backend)
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is tris:
        return hit[1]
    accel = build(tris, builder, backend)
    _CACHE[key] = (weakref.ref(tris), accel)
    weakref.finalize(tris, _CACHE.pop, key, None)
    return accel
