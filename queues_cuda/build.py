"""Builds of the native queue layer, both from the same headers.

* CPU: ``host/runtime.cpp`` and the headers compiled by the system C++ compiler into a shared
  library with a small C ABI, loaded through ctypes.
* GPU: ``kernels/*.cu`` compiled by NVRTC through CuPy for the card's own architecture.
* Compile check: the same kernels compiled for sm_90 without a GPU, through NVRTC from
  ``cuda-bindings`` (or ``nvcc`` where the toolkit is installed), so CI fails on a kernel that no
  longer compiles.

Every build is keyed by a hash of all sources it reads plus its flags, so editing any header
rebuilds; builds land in the cache folder (``$GQ_CACHE_DIR``, default ``~/.cache/gpu-queues``).
Only ``#define`` constants are injected into the sources (the queue kind, planted faults).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from .errors import GQError

PACKAGE_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = PACKAGE_DIR / "include"
HOST_DIR = PACKAGE_DIR / "host"
KERNEL_DIR = PACKAGE_DIR / "kernels"
# The CPU runtime is the checkers' platform: preemption points on (arch.cuh, GQ_HOST_CHAOS).
# Every CPU library: optimised, position-independent, warnings on.
LIBRARY_FLAGS = ("-O2", "-std=c++17", "-shared", "-fPIC", "-Wall")
CXX_FLAGS = LIBRARY_FLAGS + ("-pthread", "-DGQ_HOST_CHAOS=16")
NVRTC_FLAGS = ("-std=c++17",)


def cache_dir() -> Path:
    path = Path(os.environ.get("GQ_CACHE_DIR", Path.home() / ".cache" / "gpu-queues"))
    path.mkdir(parents=True, exist_ok=True)
    return path


ROOT = PACKAGE_DIR.parent


def source_hash(*extra: str, sources: tuple[Path, ...] = (), include_dirs: tuple[Path, ...] = (INCLUDE_DIR,)) -> str:
    """Hash of every header under the include folders, the given source files, and any extra
    strings (flags, compiler)."""
    h = hashlib.sha256()
    headers = [path for folder in include_dirs for path in sorted(folder.rglob("*"))]
    for path in headers + sorted(sources):
        if path.is_file():
            h.update(str(path.relative_to(ROOT)).encode())
            h.update(path.read_bytes())
    for item in extra:
        h.update(item.encode())
    return h.hexdigest()[:20]


def defines_for(kind_id: int, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    return (f"-DGQ_QUEUE_KIND={kind_id}",) + tuple(f"-D{d}" for d in extra)


# --------------------------------------------------------------------------------------- CPU


def cxx() -> str | None:
    return shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++") or shutil.which("clang++")


@lru_cache(maxsize=None)
def compiler_version(exe: str) -> str:
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return (out.stdout or out.stderr).splitlines()[0] if (out.stdout or out.stderr) else exe


@lru_cache(maxsize=None)
def cpu_library(kind_id: int, extra_defines: tuple[str, ...] = ()) -> ctypes.CDLL:
    """Build (or reuse) and load the CPU runtime for one queue kind and set of defines."""
    source = HOST_DIR / "runtime.cpp"
    target = compile_library(source, CXX_FLAGS + defines_for(kind_id, extra_defines), "libgq_cpu")
    return _bind(ctypes.CDLL(str(target)))


@lru_cache(maxsize=None)
def checker_library() -> ctypes.CDLL | None:
    """The compiled FIFO linearizability search (host/fifo_search.cpp), or None without a compiler."""
    if cxx() is None:
        return None
    lib = ctypes.CDLL(str(compile_library(HOST_DIR / "fifo_search.cpp", LIBRARY_FLAGS, "libgq_fifo_search")))
    i64, p = ctypes.c_int64, ctypes.c_void_p
    lib.gq_fifo_search.restype = ctypes.c_int
    lib.gq_fifo_search.argtypes = [i64, p, p, p, p, i64, i64, p, p, ctypes.c_double, p, p, p, p, p]
    return lib


def compile_library(source: Path, flags: tuple[str, ...], stem: str,
                    include_dirs: tuple[Path, ...] = (INCLUDE_DIR,)) -> Path:
    """Compile `source` into the cache (once per content hash) and return the library's path."""
    exe = cxx()
    if exe is None:
        raise GQError("--backend cpu: no C++ compiler found (set CXX, or install g++)")
    key = source_hash(compiler_version(exe), *flags, sources=(source,), include_dirs=include_dirs)
    target = cache_dir() / f"{stem}_{key}.so"
    if not target.exists():
        with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
            partial = Path(tmp) / target.name
            cmd = [exe, *flags, *(f"-I{d}" for d in include_dirs), str(source), "-o", str(partial)]
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"CPU build failed: {' '.join(cmd)}\n{done.stderr}")
            os.replace(partial, target)  # atomic: concurrent builders never see half a library
    return target


def _bind(lib: ctypes.CDLL) -> ctypes.CDLL:
    u32, u64, p = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
    lib.gq_queue_words.restype = u64
    lib.gq_queue_words.argtypes = [u64, u64]
    lib.gq_queue_init.restype = None
    lib.gq_queue_init.argtypes = [p, u64, u64]
    lib.gq_queue_fill.restype = ctypes.c_int
    lib.gq_queue_fill.argtypes = [p, u64, u64, u64, p]
    lib.gq_queue_fill_skips.restype = ctypes.c_int
    lib.gq_queue_fill_skips.argtypes = [u64, u64, u64]
    lib.gq_queue_sequential.restype = u32
    lib.gq_queue_sequential.argtypes = [p, u64, u64, u64, p, p, p, p]
    lib.gq_queue_stats.restype = None
    lib.gq_queue_stats.argtypes = [p, u64, u64, p]
    lib.gq_history.restype = u32
    lib.gq_history.argtypes = [p, u64, p, u32, u32, u32, u32, u64, p, p, p, p, p, p, p]
    lib.gq_fifo.restype = u32
    lib.gq_fifo.argtypes = [p, u64, u32, u32, u32, u32, u64, u64, p, p, p, p, p]
    lib.gq_multi_queue.restype = u32
    lib.gq_multi_queue.argtypes = [p, u64, u64, u32, u32, u32, p, p]
    return lib


# --------------------------------------------------------------------------------------- GPU


def kernel_source(path: Path = KERNEL_DIR / "queue_check.cu", include_dirs: tuple[Path, ...] = (INCLUDE_DIR,)) -> str:
    """Kernel source, tagged with the hash of everything it includes.

    CuPy keys its own cache on the source text and options only; the tag makes a header edit
    reach that key too.
    """
    return f"// gq-sources {source_hash(sources=(path,), include_dirs=include_dirs)}\n" + path.read_text()


@lru_cache(maxsize=None)
def cuda_module(kind_id: int, extra_defines: tuple[str, ...] = (), path: Path = KERNEL_DIR / "queue_check.cu",
                include_dirs: tuple[Path, ...] = (INCLUDE_DIR,), flags: tuple[str, ...] = NVRTC_FLAGS):
    """Compile (or reuse) the GPU module for one queue kind through CuPy's NVRTC path."""
    import cupy

    options = _file_flags(kind_id, extra_defines, include_dirs, flags)
    return cupy.RawModule(code=kernel_source(path, include_dirs), options=options, backend="nvrtc")


def _file_flags(kind_id: int, extra_defines: tuple[str, ...], include_dirs: tuple[Path, ...],
                flags: tuple[str, ...]) -> tuple[str, ...]:
    """The options a kernel file of the package compiles with: `flags`, its include directories and
    the defines of the queue kind (the GPU build and every compile-only check alike)."""
    return tuple(flags) + tuple(f"-I{d}" for d in include_dirs) + defines_for(kind_id, extra_defines)


# ------------------------------------------------------------------------- compile-only check


def compile_sm90(kind_id: int, extra_defines: tuple[str, ...] = (), path: Path = KERNEL_DIR / "queue_check.cu",
                 arch: str = "sm_90", include_dirs: tuple[Path, ...] = (INCLUDE_DIR,),
                 flags: tuple[str, ...] = NVRTC_FLAGS) -> tuple[str, int]:
    """Compile a kernel file to a cubin for `arch` with no GPU present, with the options the
    GPU build uses. Returns (which compiler, cubin size). NVRTC from cuda-bindings first, then nvcc.
    """
    flags = _file_flags(kind_id, extra_defines, include_dirs, flags)
    return compile_source_sm90(kernel_source(path, include_dirs), path.name, flags, arch)


def compile_source_sm90(source: str, name: str, flags: tuple[str, ...], arch: str = "sm_90") -> tuple[str, int]:
    """compile_sm90 for kernel text that is not a file of the package (a measuring aid's kernel,
    tools/gpu_hot_line_probe.py); `flags` are complete, includes and defines too."""
    compiler, size, _ = _compile(source, name, flags, arch)
    return compiler, size


def kernel_resources(kind_id: int, extra_defines: tuple[str, ...] = (), path: Path = KERNEL_DIR / "queue_check.cu",
                     arch: str = "sm_90", include_dirs: tuple[Path, ...] = (INCLUDE_DIR,),
                     flags: tuple[str, ...] = NVRTC_FLAGS) -> dict[str, dict[str, int]]:
    """What ptxas gave each kernel of a file when compiled as compile_sm90 does: registers a thread
    and bytes of stack frame, spill stores and spill loads, by entry name. No GPU needed."""
    flags = _file_flags(kind_id, extra_defines, include_dirs, flags)
    _, _, log = _compile(kernel_source(path, include_dirs), path.name, flags, arch, verbose=True)
    found: dict[str, dict[str, int]] = {}
    entry = None
    for line in log.splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            entry = found.setdefault(m.group(1), {})
        elif entry is not None and (m := re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                                                   r"(\d+) bytes spill loads", line)):
            entry.update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
        elif entry is not None and (m := re.search(r"Used (\d+) registers", line)):
            entry["registers"] = int(m.group(1))
    return found


def kernel_ptx(kind_id: int, extra_defines: tuple[str, ...] = (), path: Path = KERNEL_DIR / "queue_check.cu",
               arch: str = "compute_90", include_dirs: tuple[Path, ...] = (INCLUDE_DIR,),
               flags: tuple[str, ...] = NVRTC_FLAGS) -> str:
    """The PTX of a kernel file, compiled as compile_sm90 does (NVRTC from cuda-bindings first, then
    nvcc). No GPU needed; for tests that hold the emitted memory instructions to a rule."""
    flags = _file_flags(kind_id, extra_defines, include_dirs, flags)
    return _compile(kernel_source(path, include_dirs), path.name, flags, arch, ptx=True)[1]


def _compile(source: str, name: str, flags: tuple[str, ...], arch: str, verbose: bool = False,
             ptx: bool = False) -> tuple[str, int | str, str]:
    """(compiler, the cubin's size or with `ptx` the PTX text, log): NVRTC from cuda-bindings first,
    then nvcc. `verbose` asks ptxas for each kernel's registers and spills, in the log."""
    flags = list(flags)
    try:
        from cuda.bindings import nvrtc
    except ImportError:
        nvrtc = None
    if nvrtc is not None:
        extra = ["--ptxas-options=-v"] if verbose else []
        out, log = _nvrtc_output(nvrtc, source, name, flags + [f"--gpu-architecture={arch}"] + extra, ptx=ptx)
        return "nvrtc", out, log
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["-Xptxas", "-v"] if verbose else []
        mode, out_name = ("--ptx", "out.ptx") if ptx else ("--cubin", "out.cubin")
        out, log = _nvcc(source, name, [mode, f"-arch={arch}", *flags, *extra], Path(tmp), out_name)
        return "nvcc", (out.read_text() if ptx else out.stat().st_size), log


def _nvcc(source: str, name: str, args: list[str], tmp: Path, out_name: str) -> tuple[Path, str]:
    """nvcc `args` on `source` (written to `tmp`/`name`) into `tmp`/`out_name`: (that path, nvcc's
    stderr, where ptxas writes its -v report)."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise GQError("no CUDA compiler for the compile check: pip install 'gpu-queues[compile]' "
                      "(cuda-bindings + nvidia-cuda-nvrtc) or install the CUDA toolkit")
    src, out = tmp / name, tmp / out_name
    src.write_text(source)
    done = subprocess.run([nvcc, *args, str(src), "-o", str(out)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"nvcc failed on {name} ({' '.join(args[:2])}):\n{done.stderr}")
    return out, done.stderr


def _nvrtc_output(nvrtc, source: str, name: str, flags: list[str], ptx: bool = False) -> tuple[int | str, str]:
    """(the cubin's size in bytes, or with `ptx` the PTX text; the program log)."""
    def ok(result):
        err = result[0]
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise RuntimeError(f"NVRTC call failed: {err}")
        return result[1:]

    (prog,) = ok(nvrtc.nvrtcCreateProgram(source.encode(), name.encode(), 0, [], []))

    def program_log() -> str:
        (size,) = ok(nvrtc.nvrtcGetProgramLogSize(prog))
        log = b" " * size
        ok(nvrtc.nvrtcGetProgramLog(prog, log))
        return log.decode(errors="replace")

    try:
        opts = [f.encode() for f in flags]
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise RuntimeError(f"NVRTC failed on {name}:\n{program_log()}")
        if ptx:
            (size,) = ok(nvrtc.nvrtcGetPTXSize(prog))
            text = b" " * size
            ok(nvrtc.nvrtcGetPTX(prog, text))
            return text.rstrip(b"\0 ").decode(), program_log()
        (size,) = ok(nvrtc.nvrtcGetCUBINSize(prog))
        return int(size), program_log()
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
