"""Write the small reference renders of tests/raytrace/data with the CPU renderer.

    python3 tools/make_render_refs.py

The GPU tests compare against these within the tolerance of tests/raytrace/render_cases.py;
rerun this only when the shading model or a shipped scene changes, and say so in the commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "raytrace"))

from render_cases import REFERENCES, reference_path, render_case, srgb8  # noqa: E402

from raytrace.image import write_png  # noqa: E402


def main() -> None:
    for case in REFERENCES:
        path = reference_path(*case)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_png(path, srgb8(render_case(*case, renderer="compaction", backend="cpu")))
        print(path)


if __name__ == "__main__":
    main()
