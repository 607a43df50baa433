"""Shared by the CPU and GPU renderer tests: the small renders that have reference PNGs, the
tolerance between builds, and tiny analytic scenes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from raytrace.image import to_srgb8
from raytrace.render import RenderOptions, render
from raytrace.scene import load_scene

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
# (scene, width, height, spp): the reference images (tools/make_render_refs.py writes them).
REFERENCES = (("cornell", 96, 54, 2), ("spheres100", 96, 54, 2))
# Two builds agree when at most 1/255 apart on 99.9% of the 8-bit values (CPU against GPU, or
# against a reference made by another compiler).
TOLERANCE_LEVELS = 1
TOLERANCE_FRACTION = 0.999


def reference_path(scene: str, width: int, height: int, spp: int) -> Path:
    return DATA / f"{scene}-{width}x{height}-{spp}spp.png"


def render_case(scene: str, width: int, height: int, spp: int, **kw):
    sc = load_scene(ROOT / "scenes" / f"{scene}.toml")
    return render(sc, RenderOptions(width=width, height=height, spp=spp, **kw))


def within_tolerance(a8: np.ndarray, b8: np.ndarray) -> tuple[bool, str]:
    diff = np.abs(a8.astype(np.int16) - b8.astype(np.int16))
    close = float((diff <= TOLERANCE_LEVELS).mean())
    return close >= TOLERANCE_FRACTION, f"{close:.5f} of values within {TOLERANCE_LEVELS}/255, max diff {diff.max()}"


def srgb8(result) -> np.ndarray:
    return to_srgb8(result.image)


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    """PSNR in dB of two linear images clamped to [0, 1] (inf when equal)."""
    a, b = np.clip(a, 0, 1).astype(np.float64), np.clip(b, 0, 1).astype(np.float64)
    mse = float(((a - b) ** 2).mean())
    return float("inf") if mse == 0 else 10 * np.log10(1.0 / mse)


def lone_sphere_toml(rho: float, intensity: float, light_z: float) -> str:
    """One sphere of radius 1 at the origin seen head-on from z = 5, one light on the axis."""
    return f"""
[image]
width = 101
height = 101
spp = 4
max_depth = 0
[camera]
eye = [0, 0, 5]
look_at = [0, 0, 0]
fov = 30
[world]
background = [0, 0, 0]
ambient = [0, 0, 0]
[materials.grey]
diffuse = [{rho}, {rho}, {rho}]
[[light]]
position = [0, 0, {light_z}]
intensity = [{intensity}, {intensity}, {intensity}]
[[sphere]]
center = [0, 0, 0]
radius = 1
material = "grey"
"""


def mirror_toml(k: float, colour: tuple[float, float, float]) -> str:
    """A mirror plane in front of the camera, a coloured wall behind it lit by ambient 1 only."""
    r, g, b = colour
    return f"""
[image]
width = 16
height = 12
spp = 2
max_depth = 1
[camera]
eye = [0, 0, 0]
look_at = [0, 0, -1]
fov = 30
[world]
background = [0, 0, 0]
ambient = [1, 1, 1]
[materials.mirror]
diffuse = [0, 0, 0]
reflectivity = {k}
[materials.wall]
diffuse = [{r}, {g}, {b}]
[[plane]]
point = [0, 0, -5]
normal = [0, 0, 1]
material = "mirror"
[[plane]]
point = [0, 0, 5]
normal = [0, 0, -1]
material = "wall"
"""


def sphere_grid_toml(n: int) -> str:
    """n x n small mirror-and-matte spheres over a plane, two lights: a scene of n * n + 1
    primitives, for sizes on either side of what the GPU tile renderer copies into shared memory
    (raytrace/cuda_render.py: SHARED_SCENE_FLOATS)."""
    rows = ["""
[image]
width = 64
height = 48
spp = 2
max_depth = 2
[camera]
eye = [0, 6, 12]
look_at = [0, 0, 0]
fov = 45
[world]
background = [0.1, 0.1, 0.2]
ambient = [0.05, 0.05, 0.05]
[materials.matte]
diffuse = [0.8, 0.4, 0.2]
[materials.mirror]
diffuse = [0.2, 0.2, 0.2]
reflectivity = 0.7
[[light]]
position = [5, 10, 5]
intensity = [80, 80, 80]
[[light]]
position = [-6, 8, 2]
intensity = [40, 40, 60]
[[plane]]
point = [0, -0.5, 0]
normal = [0, 1, 0]
material = "matte"
"""]
    for i in range(n):
        for j in range(n):
            x, z = -5 + 10 * (i + 0.5) / n, -5 + 10 * (j + 0.5) / n
            rows.append(f"""[[sphere]]
center = [{x:.4f}, 0, {z:.4f}]
radius = {3.0 / n:.4f}
material = "{'mirror' if (i + j) % 2 else 'matte'}"
""")
    return "".join(rows)
