"""One 1920x1080, 4 spp render per row, for Nsight Compute to profile (a measuring aid for issue 3):

    ncu --kernel-name regex:"rt_wave|rt_tiles" --csv --metrics <...> \\
        python3 tools/ncu_render.py [--lineinfo] SCENE ROW [ROW ...]

A row is `compaction`, or `QUEUE:TXxTY` with optional build defines after a second colon
(`glfq:2x2:RT_SCENE_SHARED=0,RT_MIN_BLOCKS=6`). Each row renders once, with the build its defines
select (raytrace.build.kernel_variant), and prints its label and render time (which ncu's replays
inflate); ncu's CSV gives the figures. Runs 113-123 used an uncommitted script of the same kind.
--lineinfo compiles the kernels with line information (NVRTC -lineinfo), so that a disassembly
(nvdisasm -g) of the cached module ties each instruction of ncu's source page to a source line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import raytrace.build  # noqa: E402
from raytrace.build import kernel_variant  # noqa: E402
from raytrace.render import RenderOptions, render  # noqa: E402
from raytrace.scene import load_scene  # noqa: E402


def parse_row(row: str) -> tuple[dict, tuple[str, ...]]:
    """(RenderOptions keywords, build defines) of a row."""
    if row == "compaction":
        return dict(renderer="compaction"), ()
    parts = row.split(":")
    if len(parts) not in (2, 3):
        raise SystemExit(f"ncu_render.py: row {row!r}: expected 'compaction' or QUEUE:TXxTY[:DEFINE,...]")
    tx, ty = (int(v) for v in parts[1].lower().split("x"))
    defines = tuple(d for d in parts[2].split(",") if d) if len(parts) == 3 else ()
    return dict(renderer="queue", queue=parts[0], tiles=(tx, ty)), defines


def main(argv: list[str]) -> None:
    if argv[:1] == ["--lineinfo"]:
        raytrace.build.NVRTC_FLAGS = raytrace.build.NVRTC_FLAGS + ("-lineinfo",)  # read at each build
        argv = argv[1:]
    if len(argv) < 2:
        raise SystemExit(__doc__)
    scene = load_scene(argv[0])
    for row in argv[1:]:
        kw, defines = parse_row(row)
        with kernel_variant(defines):
            r = render(scene, RenderOptions(width=1920, height=1080, spp=4, backend="cuda", **kw))
        print(f"row {row}: {r.seconds * 1e3:.2f} ms", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
