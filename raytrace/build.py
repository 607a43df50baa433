"""Builds of the renderers: the same headers (include/rt plus the queue layer's include/gq)
compiled for the CPU (host/render_cpu.cpp, system C++ compiler) and the GPU (kernels/render.cu,
NVRTC through CuPy), once per queue kind, cached by source hash like the queue layer's builds.

Both builds keep every float operation singly rounded (no FMA contraction: --fmad=false on the
GPU, -ffp-contract=off on the CPU). Performance pays a little; in return a pixel's value cannot
depend on how a compiler inlined the shading code into one renderer or the other, and the CPU
and GPU builds compute the same IEEE operations.
"""

from __future__ import annotations

import ctypes
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from queues_cuda import build as qbuild

PACKAGE_DIR = Path(__file__).resolve().parent
INCLUDE_DIRS = (qbuild.INCLUDE_DIR, PACKAGE_DIR / "include")
KERNEL = PACKAGE_DIR / "kernels" / "render.cu"
HOST_SOURCE = PACKAGE_DIR / "host" / "render_cpu.cpp"
CXX_FLAGS = qbuild.LIBRARY_FLAGS + ("-pthread", "-ffp-contract=off")
NVRTC_FLAGS = ("-std=c++17", "--fmad=false")


def cpu_library(kind_id: int) -> ctypes.CDLL:
    """The CPU build for the queue kind, with the current variant's defines (kernel_variant)."""
    return _cpu_library(kind_id, _variant)


@lru_cache(maxsize=None)
def _cpu_library(kind_id: int, defines: tuple[str, ...]) -> ctypes.CDLL:
    flags = CXX_FLAGS + qbuild.defines_for(kind_id) + tuple(f"-D{d}" for d in defines)
    target = qbuild.compile_library(HOST_SOURCE, flags, "librt_cpu", include_dirs=INCLUDE_DIRS)
    lib = ctypes.CDLL(str(target))
    u32, u64, p = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
    scene = [p, u32, p, p, u32, p, p, p, p, u32, p, u32, p, u32, p, u32, u32, u32, u32, u32]  # RT_SCENE_ARGS
    lib.rt_queue_words.restype = u64
    lib.rt_queue_words.argtypes = [u64, u64]
    lib.rt_tile_capacity.restype = u64
    lib.rt_tile_capacity.argtypes = [u64, u32, u32, u64]
    lib.rt_tile_order.restype = u32
    lib.rt_tile_order.argtypes = [u32, u32, u32, u32, p]
    lib.rt_tile_queue_words.restype = None
    lib.rt_tile_queue_words.argtypes = [u32, u32, u32, u32, u64, u64, u64, p, p]
    lib.rt_cpu_compaction.restype = u32
    lib.rt_cpu_compaction.argtypes = scene + [p, p, p, u32, p, p]
    lib.rt_cpu_tiles.restype = u32
    lib.rt_cpu_tiles.argtypes = scene + [p, p, p, u64, u64, u32, u32, u32, p, p, p]
    lib.rt_cpu_aov.restype = None
    lib.rt_cpu_aov.argtypes = scene + [u32, p, p, p, p]
    return lib


# Compile-time switches of the compaction path ("NAME=VALUE" defines; rt/compaction.h,
# kernels/render.cu and rt/mesh_bvh.h name them, each defaulting to the shipped code), for the
# sphere-scene A/B of tools/gpu_render_ab.py and the tests that check them against the default.
# Empty means the defaults; only that tool and those tests set it.
_variant: tuple[str, ...] = ()


@contextmanager
def kernel_variant(defines: tuple[str, ...]):
    """Within the block, the renderers are the builds with these defines (each build cached)."""
    global _variant
    saved, _variant = _variant, tuple(defines)
    try:
        yield
    finally:
        _variant = saved


def cuda_module(kind_id: int):
    return qbuild.cuda_module(kind_id, _variant, KERNEL, INCLUDE_DIRS, NVRTC_FLAGS)


def compile_sm90(kind_id: int, arch: str = "sm_90", defines: tuple[str, ...] = ()) -> tuple[str, int]:
    return qbuild.compile_sm90(kind_id, tuple(defines), KERNEL, arch, INCLUDE_DIRS, NVRTC_FLAGS)
