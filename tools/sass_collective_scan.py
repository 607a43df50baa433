"""Warp collectives whose convergence check reads one lane's mask, after a region that may yield:
the shape that gave wave_faa's wrong tickets under CuPy's NVRTC 13.0 (gq/wave_faa.cuh, runs 254-268).

    python3 tools/sass_collective_scan.py --nvrtc LIBNVRTC --nvdisasm NVDISASM OUT_DIR
    python3 tools/sass_collective_scan.py --sass FILE.sass ...

The first form builds every shipped GPU module (the queue benchmark at 1 and 8 blocks an SM, the
check kernels, the renderer and the BFS, for each queue) with the given NVRTC, as the GPU build does
(the same file, flags and defines), disassembles each with nvdisasm into OUT_DIR and scans it; the
second scans SASS listings made elsewhere. Neither needs a GPU. The compilers come as pip wheels:
`pip download nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-nvdisasm --no-deps` (13.0.88 is the NVRTC of
the device's CuPy; unpack the wheels, and put the NVRTC's lib directory on LD_LIBRARY_PATH).

What it looks for. A shuffle or lane barrier whose mask may differ from lane to lane compiles to a
fast path and a slow one. ptxas chooses between them by `BRA.DIV` on a uniform register: either
every active lane's mask ORed together (`REDUX.OR`) or one lane's (`R2UR`). The one-lane check is
sound only if every lane that reaches the collective arrives with its whole group. After a
convergence region (`BSSY Bk` ... `BSYNC Bk`) holding a `YIELD` or a fence (`MEMBAR`), a lane
may be left behind (our reading of run 267: with the fence in wave_faa's leader branch the
blind-wave stress lost elements in 18 of 18 runs, with it before the branch in none of 27). The
scan reports, per kernel, the one-lane-checked collectives (not counting the MATCH, VOTE or REDUX
right after a VOTE, whose mask every executing lane computed together) and those among them whose
nearest region before holds a YIELD or MEMBAR. It reads the listing in address order, so a region
laid out elsewhere is missed: a clean report is a check, not a proof. Exit status 1 when any is
found.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLLECTIVES = ("SHFL", "MATCH", "VOTE", "REDUX", "NOP", "WARPSYNC")
LOOK_BACK = 40  # instructions between a collective's check and the region it follows, at most


@dataclass
class Finding:
    kernel: str
    address: str
    collective: str
    region: str  # e.g. "B2: 45 instructions, YIELD 1, MEMBAR 1"; "" when no region was found
    risky: bool


def scan(listing: str) -> list[Finding]:
    """The one-lane-checked collectives of an `nvdisasm -c` listing (see the module's note)."""
    lines = listing.splitlines()
    found, kernel = [], ""
    for i, line in enumerate(lines):
        m = re.search(r"\.text\.(\S+):", line)
        if m:
            kernel = m.group(1)
        if "BRA.DIV" not in line:
            continue
        before = " ".join(lines[max(0, i - 6):i])
        if "REDUX.OR" in before or "R2UR" not in before:
            continue  # every lane's mask, or a check of another kind
        after = next((x for x in lines[i + 1:i + 8] if any(c in x for c in COLLECTIVES)), "")
        what = next((c for c in COLLECTIVES if c in after), "other")
        if what in ("MATCH", "VOTE", "REDUX"):
            continue
        address = line.split("*/")[0].strip(" /*")
        j = next((k for k in range(i, max(0, i - LOOK_BACK), -1) if "BSYNC" in lines[k]), None)
        if j is None:
            found.append(Finding(kernel, address, what, "", True))
            continue
        barrier = re.search(r"BSYNC (B\d+)", lines[j]).group(1)
        k = next((k for k in range(j, -1, -1) if re.search(rf"BSSY {barrier},", lines[k])), 0)
        region = lines[k:j]
        yields, fences = sum("YIELD" in r for r in region), sum("MEMBAR" in r for r in region)
        found.append(Finding(kernel, address, what, f"{barrier}: {len(region)} instructions, YIELD {yields}, "
                             f"MEMBAR {fences}", bool(yields or fences)))
    return found


def shipped_modules():
    """(name, kind id, kernel file, include dirs, flags, defines) of every module the GPU build makes."""
    sys.path.insert(0, str(ROOT))
    import raytrace.build as rb
    from queues_cuda import bench_queues as bq
    from queues_cuda import build as qb
    from queues_cuda.queues import QUEUES
    from sssp_demo import bfs

    for q in ("glfq", "gwfq", "sfq", "ymc"):
        k = QUEUES[q].kind_id
        for blocks in (1, 8):
            defines = (f"GQ_BENCH_MIN_BLOCKS={blocks}",) if blocks > 1 else ()
            yield f"bench-{q}-{blocks}", k, bq.BENCH_KERNEL, (qb.INCLUDE_DIR,), qb.NVRTC_FLAGS, defines
        yield f"check-{q}", k, qb.KERNEL_DIR / "queue_check.cu", (qb.INCLUDE_DIR,), qb.NVRTC_FLAGS, ()
        yield f"render-{q}", k, rb.KERNEL, rb.INCLUDE_DIRS, rb.NVRTC_FLAGS, ()
        yield f"bfs-{q}", k, bfs.KERNEL, bfs.INCLUDE_DIRS, qb.NVRTC_FLAGS, ()


def compile_cubin(nvrtc: str, source: str, options: list[str]) -> bytes:
    """One NVRTC compile to a cubin, through the library at `nvrtc` (ctypes: any version, no cupy)."""
    import ctypes

    lib = ctypes.CDLL(nvrtc)
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"k.cu", 0, None, None):
        raise RuntimeError("nvrtcCreateProgram failed")
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    if lib.nvrtcCompileProgram(prog, len(options), opts):
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        raise RuntimeError(log.value.decode(errors="replace")[-2000:])
    size = ctypes.c_size_t()
    lib.nvrtcGetCUBINSize(prog, ctypes.byref(size))
    cubin = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetCUBIN(prog, cubin)
    return cubin.raw


def build_listings(nvrtc: str, nvdisasm: str, out: Path) -> list[Path]:
    from queues_cuda import build as qb

    out.mkdir(parents=True, exist_ok=True)
    listings = []
    for name, kind, path, includes, flags, defines in shipped_modules():
        options = list(qb._file_flags(kind, defines, tuple(includes), tuple(flags))) + ["--gpu-architecture=sm_90"]
        cubin = out / f"{name}.cubin"
        cubin.write_bytes(compile_cubin(nvrtc, qb.kernel_source(path, tuple(includes)), options))
        sass = out / f"{name}.sass"
        sass.write_text(subprocess.run([nvdisasm, "-c", str(cubin)], check=True, capture_output=True, text=True).stdout)
        listings.append(sass)
        print(f"built {name}", file=sys.stderr)
    return listings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path, help="where the cubins and listings go (with --nvrtc)")
    ap.add_argument("--nvrtc", help="libnvrtc.so to build the shipped modules with")
    ap.add_argument("--nvdisasm", default="nvdisasm", help="nvdisasm binary [default: on PATH]")
    ap.add_argument("--sass", nargs="+", type=Path, help="scan these listings instead of building")
    args = ap.parse_args()
    if args.sass:
        listings = args.sass
    elif args.nvrtc and args.out:
        listings = build_listings(os.path.abspath(args.nvrtc), args.nvdisasm, args.out)
    else:
        ap.error("give --sass FILES, or --nvrtc LIB and OUT_DIR")
    risky_total = 0
    for path in listings:
        by_kernel: dict[str, list[Finding]] = {}
        for f in scan(path.read_text()):
            by_kernel.setdefault(f.kernel, []).append(f)
        for kernel, fs in by_kernel.items():
            risky = [f for f in fs if f.risky]
            risky_total += len(risky)
            print(f"{path.stem:16} {kernel:16} one-lane checks {len(fs):3}, after a region that may yield {len(risky):3}"
                  + "".join(f"\n    {f.address} {f.collective}: {f.region or 'no region found'}" for f in risky))
    print(f"{risky_total} one-lane-checked collectives after a region with a YIELD or MEMBAR")
    return 1 if risky_total else 0


if __name__ == "__main__":
    sys.exit(main())
