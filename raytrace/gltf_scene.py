"""A glTF/GLB file as a whole scene (`gq render model.glb`): every node that holds a mesh becomes
one mesh object, placed by the node's world transform, coloured by its material's base colour
(baseColorFactor; a mesh without one, or with vertex colours only, is light grey). The file's
first perspective camera is used when it has one (trimesh reads that one); otherwise the scene
gets a camera that frames the bounds from the front and above. glTF lights are not read (trimesh
does not expose them): one point light sits above and to the side, with a dark background and a
little ambient light. The format is in scenes/README.md, "glTF scenes"."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from . import meshes
from .scene import (
    DEFAULT_HEIGHT,
    DEFAULT_MAX_DEPTH,
    DEFAULT_SPP,
    DEFAULT_UP,
    DEFAULT_WIDTH,
    LIGHT_COLUMNS,
    MATERIAL_COLUMNS,
    PRIM_COLUMNS,
    PRIM_MESH,
    Camera,
    Scene,
    SceneError,
    _camera_problem,
    _frozen_array,
)

DEFAULT_COLOUR = (0.7, 0.7, 0.7)
FOV_DEG = 40.0
VIEW_FROM = np.array([0.35, 0.45, 1.0])  # direction from the centre to the eye, +z is glTF's front
BACKGROUND = (0.02, 0.02, 0.03)
AMBIENT = (0.08, 0.08, 0.08)


def _fail(path: Path, field: str, message: str):
    raise SceneError(f"{path}: {field}: {message}")


def base_colour(geometry) -> tuple[float, float, float]:
    material = getattr(getattr(geometry, "visual", None), "material", None)
    factor = getattr(material, "baseColorFactor", None)
    if factor is None:
        return DEFAULT_COLOUR
    rgb = np.asarray(factor, np.float64).reshape(-1)[:3]
    if np.asarray(factor).dtype.kind in "ui":  # trimesh keeps the factor as 8-bit values
        rgb = rgb / 255.0
    return tuple(float(c) for c in np.clip(rgb, 0.0, 1.0))


def load_gltf_scene(path: Path) -> Scene:
    if not path.is_file():
        raise SceneError(f"{path}: expected an existing glTF/GLB file, got no such file")
    import trimesh

    try:
        loaded = trimesh.load(str(path), process=False)
    except Exception as exc:
        first = str(exc).splitlines()[0] if str(exc) else "unreadable"
        raise SceneError(f"{path}: expected a readable glTF/GLB file, got {type(exc).__name__}: {first}") from None
    if isinstance(loaded, trimesh.Trimesh):
        loaded = trimesh.Scene(loaded)
    materials: list[tuple] = []
    colour_row: dict[tuple, int] = {}
    rows, parts, skipped, names = [], [], [], []
    total = 0
    for node in sorted(loaded.graph.nodes_geometry):
        matrix, geometry_name = loaded.graph[node]
        geometry = loaded.geometry[geometry_name]
        if not isinstance(geometry, trimesh.Trimesh):
            continue  # points and paths have no surface to hit
        field = f"node {node!r}"
        vertices = np.asarray(geometry.vertices, np.float64).reshape(-1, 3)
        faces = np.asarray(geometry.faces, np.int64).reshape(-1, 3)
        try:
            meshes.check_mesh(vertices, faces, f"mesh {geometry_name!r}")
            tri, dropped = meshes.triangle_rows(vertices, faces, np.asarray(matrix, np.float64), len(rows), total)
        except meshes.MeshProblem as exc:
            _fail(path, field, str(exc))
        if len(tri) == 0:
            continue
        colour = base_colour(geometry)
        if colour not in colour_row:
            colour_row[colour] = len(materials)
            materials.append(colour + (0.0,))
        total += len(tri)
        if total > meshes.MAX_TRIANGLES:
            _fail(path, field, f"expected at most {meshes.MAX_TRIANGLES} triangles in the scene, got {total}")
        if dropped:
            skipped.append((field, dropped))
        v = tri[:, :9].reshape(-1, 3)
        row = [float(PRIM_MESH), float(colour_row[colour]), *v.min(axis=0).tolist(), *v.max(axis=0).tolist()]
        rows.append(row + [0.0] * (PRIM_COLUMNS - len(row)))
        parts.append(tri)
        names.append(str(node))
    if not rows:
        _fail(path, "meshes", "expected at least one mesh with a triangle of non-zero area, got none")
    triangles = np.concatenate(parts)
    triangles.setflags(write=False)
    camera, light = default_view(triangles)
    if loaded.has_camera:
        camera = file_camera(path, loaded)
    return Scene(path=path, name=path.stem, width=DEFAULT_WIDTH, height=DEFAULT_HEIGHT, spp=DEFAULT_SPP,
                 max_depth=DEFAULT_MAX_DEPTH, camera=camera, background=BACKGROUND, ambient=AMBIENT,
                 material_names=tuple(f"base_colour_{i}" for i in range(len(materials))),
                 materials=_frozen_array(materials, MATERIAL_COLUMNS), prims=_frozen_array(rows, PRIM_COLUMNS),
                 lights=_frozen_array([light], LIGHT_COLUMNS), triangles=triangles, skipped=tuple(skipped))


def file_camera(path: Path, loaded) -> Camera:
    """The glTF camera: it looks down its node's -z with +y up; yfov is its vertical field of view."""
    m = np.asarray(loaded.camera_transform, np.float64)
    eye, forward, up = m[:3, 3], -m[:3, 2], m[:3, 1]
    fov = float(np.asarray(loaded.camera.fov, np.float64).reshape(-1)[-1])
    look_at = eye + forward
    problem = _camera_problem(tuple(eye.tolist()), tuple(look_at.tolist()), tuple(up.tolist()), fov)
    if problem or not np.isfinite(m).all():
        why = problem[1] if problem else "expected a finite transform"
        _fail(path, f"camera {loaded.camera.name!r}", why)
    return Camera(eye=tuple(eye.tolist()), look_at=tuple(look_at.tolist()), up=tuple(up.tolist()), fov_deg=fov)


def default_view(triangles: np.ndarray) -> tuple[Camera, tuple]:
    """A camera whose view cone holds the bounding sphere of the triangles, and a point light
    above and to the side of it, bright enough to give a facing surface at the centre about its
    own diffuse colour."""
    v = triangles[:, :9].reshape(-1, 3).astype(np.float64)
    lo, hi = v.min(axis=0), v.max(axis=0)
    centre = (lo + hi) / 2
    radius = max(float(np.linalg.norm(hi - lo)) / 2, 1e-6)
    direction = VIEW_FROM / np.linalg.norm(VIEW_FROM)
    distance = radius / math.sin(math.radians(FOV_DEG) / 2) * 1.05
    eye = centre + direction * distance
    light_pos = centre + (direction + np.array([0.6, 0.8, 0.0])) * distance
    intensity = math.pi * float(np.sum((light_pos - centre) ** 2))
    camera = Camera(eye=tuple(eye.tolist()), look_at=tuple(centre.tolist()), up=DEFAULT_UP, fov_deg=FOV_DEG)
    return camera, (*light_pos.tolist(), intensity, intensity, intensity)
