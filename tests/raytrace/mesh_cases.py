"""Shared by the mesh tests: a small scene of meshes beside analytic objects, and an independent
brute-force first-hit reference in float64 numpy (every triangle and object per ray)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from raytrace.scene import load_scene

SMALL_MESH_SCENE = """
[image]
width = 40
height = 30
spp = 2
max_depth = 2
[camera]
eye = [0.3, 1.8, 5.5]
look_at = [0, 0.4, 0]
fov = 45
[materials.grey]
diffuse = [0.6, 0.6, 0.6]
reflectivity = 0.3
[materials.red]
diffuse = [0.8, 0.2, 0.1]
[materials.blue]
diffuse = [0.2, 0.3, 0.8]
reflectivity = 0.4
[[light]]
position = [3, 5, 4]
intensity = [60, 60, 60]
[[plane]]
point = [0, -0.6, 0]
normal = [0, 1, 0]
material = "grey"
[[sphere]]
center = [-1.6, 0.1, 0.2]
radius = 0.6
material = "blue"
[[mesh]]
generate = "icosphere"
subdivisions = 2
radius = 0.8
material = "red"
translate = [0.6, 0.3, 0]
[[mesh]]
generate = "torus"
segments = [20, 10]
major_radius = 0.7
minor_radius = 0.2
material = "blue"
rotate = [75, 10, 0]
translate = [-0.4, 0.8, -1.2]
[[mesh]]
generate = "terrain"
size = [4, 2]
resolution = 12
height = 0.4
seed = 3
material = "grey"
translate = [0, -0.55, -2.2]
"""


def small_scene(tmp_path: Path):
    path = tmp_path / "small-mesh.toml"
    path.write_text(SMALL_MESH_SCENE)
    return load_scene(path)


def primary_rays(scene, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Origins and unit directions through the pixel centres, as the camera header defines them."""
    b = scene.camera.basis(width, height).astype(np.float64)
    eye, right, up, forward, tan_half, aspect = b[0:3], b[3:6], b[6:9], b[9:12], b[12], b[13]
    ys, xs = np.mgrid[0:height, 0:width]
    u = (xs.ravel() + 0.5) / width
    v = (ys.ravel() + 0.5) / height
    d = forward + np.outer((2 * u - 1) * tan_half * aspect, right) + np.outer((1 - 2 * v) * tan_half, up)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    return np.broadcast_to(eye, d.shape), d


def brute_force(scene, width: int, height: int):
    """Per pixel: depth (inf on a miss), object id, face (-1 unless a triangle), and an
    `ambiguous` mask: rays within a hair of a triangle edge, or whose two nearest surfaces are
    nearly equally far, where float32 and float64 may rightly disagree."""
    o, d = primary_rays(scene, width, height)
    n = len(d)
    best_t = np.full(n, np.inf)
    best_id = np.full(n, -1)
    best_face = np.full(n, -1)
    second_t = np.full(n, np.inf)
    near_edge = np.zeros(n, bool)

    def offer(t, ident, face, edge):
        nonlocal best_t, best_id, best_face, second_t, near_edge
        closer = t < best_t
        second_t = np.where(closer, best_t, np.minimum(second_t, t))
        best_t = np.where(closer, t, best_t)
        best_id = np.where(closer, ident, best_id)
        best_face = np.where(closer, face, best_face)
        near_edge = np.where(closer, edge, near_edge)

    for row, p in enumerate(scene.prims.astype(np.float64)):
        kind = int(p[0])
        if kind == 0:  # sphere
            oc = o - p[2:5]
            b = np.einsum("ij,ij->i", oc, d)
            disc = b * b - (np.einsum("ij,ij->i", oc, oc) - p[5] ** 2)
            s = np.sqrt(np.maximum(disc, 0))
            t = np.where(-b - s > 0, -b - s, -b + s)
            t = np.where((disc >= 0) & (t > 0), t, np.inf)
            offer(t, row, -1, np.abs(disc) < 1e-6)
        elif kind == 1:  # plane
            denom = d @ p[2:5]
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (p[5] - o @ p[2:5]) / denom
            offer(np.where(t > 0, t, np.inf), row, -1, np.zeros(n, bool))
    tris = scene.triangles
    bits = tris.view(np.uint32)
    v = tris[:, :9].astype(np.float64).reshape(-1, 3, 3)
    for k in range(len(tris)):  # Moller-Trumbore in float64, every triangle for every ray
        v0, e1, e2 = v[k, 0], v[k, 1] - v[k, 0], v[k, 2] - v[k, 0]
        pv = np.cross(d, e2)
        det = pv @ e1
        with np.errstate(divide="ignore", invalid="ignore"):
            inv = 1.0 / det
            tv = o - v0
            a = np.einsum("ij,ij->i", tv, pv) * inv
            qv = np.cross(tv, e1)
            b = np.einsum("ij,ij->i", d, qv) * inv
            t = (qv @ e2) * inv
        inside = (a >= 0) & (b >= 0) & (a + b <= 1) & (t > 0) & (np.abs(det) > 0)
        margin = np.minimum(np.minimum(a, b), 1 - a - b)
        offer(np.where(inside, t, np.inf), int(bits[k, 10]), int(bits[k, 11]), inside & (margin < 1e-4))
    with np.errstate(invalid="ignore"):  # inf - inf where nothing at all was hit
        ambiguous = near_edge | (np.abs(second_t - best_t) < 1e-4 * np.maximum(1, best_t))
    shape = (height, width)
    return best_t.reshape(shape), best_id.reshape(shape), best_face.reshape(shape), ambiguous.reshape(shape)
