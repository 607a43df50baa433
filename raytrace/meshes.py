"""Triangle meshes for scenes: read from files through trimesh (OBJ, PLY, STL, GLB/glTF), or made
from a few parameters by the generators here (icosphere, torus, terrain), then placed by a
transform and flattened into the triangle rows the renderer reads (include/rt/triangle.h):

    v0 xyz, v1 xyz, v2 xyz, scene row, object id, face index     (the last three as uint32 bits)

The generators are deterministic (the terrain's random numbers come from numpy's PCG64 seeded by
the scene), so a scene file of a few lines stands for a million triangles and always the same
ones. Faces of zero area are skipped and counted; they could never be hit, and the watertight test
would only spend time on them.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

TRI_FLOATS = 12
MESH_SUFFIXES = (".obj", ".ply", ".stl", ".glb", ".gltf")
GENERATORS = ("icosphere", "torus", "terrain")
MAX_TRIANGLES = 1 << 26  # per scene; rt/mesh_bvh.h leaf refs allow 2^27


class MeshProblem(ValueError):
    """What is wrong with a mesh, worded as `expected ..., got ...` (the caller adds file and field)."""


def read_mesh_file(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(vertices float64 [V, 3], faces int64 [F, 3]) of a mesh file; a GLB/glTF's nodes are
    flattened with their transforms. MeshProblem for anything unusable."""
    if path.suffix.lower() not in MESH_SUFFIXES:
        raise MeshProblem(f"expected a mesh file ending in {', '.join(MESH_SUFFIXES)}, got {str(path)!r}")
    if not path.is_file():
        raise MeshProblem(f"expected an existing mesh file, got {str(path)!r} (no such file)")
    import trimesh

    try:
        mesh = trimesh.load(str(path), force="mesh", process=False)
    except Exception as exc:  # trimesh raises many kinds for a malformed file
        raise MeshProblem(f"expected a readable mesh, got {str(path)!r} ({type(exc).__name__}: "
                          f"{str(exc).splitlines()[0] if str(exc) else 'unreadable'})") from None
    vertices = np.asarray(getattr(mesh, "vertices", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
    faces = np.asarray(getattr(mesh, "faces", np.zeros((0, 3))), dtype=np.int64).reshape(-1, 3)
    check_mesh(vertices, faces, repr(str(path)))
    return vertices, faces


def check_mesh(vertices: np.ndarray, faces: np.ndarray, what: str) -> None:
    if len(faces) == 0:
        raise MeshProblem(f"expected a mesh with at least one triangle, got none in {what}")
    bad = ~np.isfinite(vertices).all(axis=1)
    if bad.any():
        raise MeshProblem(f"expected finite vertex coordinates, got {vertices[np.argmax(bad)].tolist()} "
                          f"at vertex {int(np.argmax(bad))} of {what}")
    if faces.min() < 0 or faces.max() >= len(vertices):
        raise MeshProblem(f"expected face indices below the {len(vertices)} vertices, got "
                          f"{int(faces.max()) if faces.max() >= len(vertices) else int(faces.min())} in {what}")
    if len(faces) > MAX_TRIANGLES:
        raise MeshProblem(f"expected at most {MAX_TRIANGLES} triangles, got {len(faces)} in {what}")


# ---- generators ------------------------------------------------------------------------------


def icosphere(subdivisions: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """A subdivided icosahedron on the sphere of `radius` about the origin: 20 * 4^s faces."""
    import trimesh

    m = trimesh.creation.icosphere(subdivisions=int(subdivisions), radius=float(radius))
    return np.asarray(m.vertices, np.float64), np.asarray(m.faces, np.int64)


def torus(major_radius: float, minor_radius: float, segments: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A torus about the y axis: segments[0] around the ring, segments[1] around the tube;
    2 * segments[0] * segments[1] faces."""
    nu, nv = int(segments[0]), int(segments[1])
    u = np.arange(nu) * (2 * math.pi / nu)
    v = np.arange(nv) * (2 * math.pi / nv)
    uu, vv = np.meshgrid(u, v, indexing="ij")
    ring = major_radius + minor_radius * np.cos(vv)
    vertices = np.stack([ring * np.cos(uu), minor_radius * np.sin(vv), ring * np.sin(uu)], axis=-1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(nu), np.arange(nv), indexing="ij")
    a = i * nv + j
    b = ((i + 1) % nu) * nv + j
    c = ((i + 1) % nu) * nv + (j + 1) % nv
    d = i * nv + (j + 1) % nv
    faces = np.concatenate([np.stack([a, c, b], -1).reshape(-1, 3), np.stack([a, d, c], -1).reshape(-1, 3)])
    return vertices, faces.astype(np.int64)


def terrain(size: tuple[float, float], resolution: int, height: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A height field over [-size_x/2, size_x/2] x [-size_z/2, size_z/2] at y = 0: a grid of
    resolution x resolution cells (2 * resolution^2 faces), displaced by a sum of 24 sinusoids
    with PCG64(seed) frequencies, directions and phases, amplitude falling as 1/frequency, scaled
    so the heights span [0, height]."""
    n = int(resolution)
    rng = np.random.Generator(np.random.PCG64(int(seed)))
    xs = np.linspace(-size[0] / 2, size[0] / 2, n + 1)
    zs = np.linspace(-size[1] / 2, size[1] / 2, n + 1)
    x, z = np.meshgrid(xs, zs, indexing="ij")
    y = np.zeros_like(x)
    scale = 2 * math.pi / max(size)
    for _ in range(24):
        freq = scale * 2.0 ** rng.uniform(0.0, 6.0)
        angle, phase = rng.uniform(0.0, 2 * math.pi, 2)
        y += np.sin(freq * (x * math.cos(angle) + z * math.sin(angle)) + phase) / freq
    span = y.max() - y.min()
    y = (y - y.min()) * (height / span if span > 0 else 0.0)
    vertices = np.stack([x, y, z], axis=-1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    a = i * (n + 1) + j
    b = (i + 1) * (n + 1) + j
    c = (i + 1) * (n + 1) + j + 1
    d = i * (n + 1) + j + 1
    faces = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    return vertices, faces.astype(np.int64)


# ---- placing ---------------------------------------------------------------------------------


def transform_matrix(translate=(0.0, 0.0, 0.0), rotate_deg=(0.0, 0.0, 0.0), scale=(1.0, 1.0, 1.0)) -> np.ndarray:
    """4x4 float64: scale, then rotate about x, then y, then z (degrees), then translate."""
    rx, ry, rz = (math.radians(a) for a in rotate_deg)
    cx, sx, cy, sy, cz, sz = math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry), math.cos(rz), math.sin(rz)
    r_x = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    r_y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    r_z = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    m = np.eye(4)
    m[:3, :3] = r_z @ r_y @ r_x @ np.diag(np.asarray(scale, np.float64))
    m[:3, 3] = translate
    return m


def triangle_rows(vertices: np.ndarray, faces: np.ndarray, matrix: np.ndarray, object_id: int,
                  first_row: int) -> tuple[np.ndarray, int]:
    """(float32 [T, 12] rows, degenerate faces skipped) for one placed mesh. Degenerate means zero
    area once the vertices are float32, the precision the renderer tests them in."""
    placed = vertices @ matrix[:3, :3].T + matrix[:3, 3]
    if not np.isfinite(placed).all() or np.abs(placed).max() > float(np.finfo(np.float32).max):
        raise MeshProblem("expected vertex coordinates within float32 range after the transform, got overflow")
    v32 = placed.astype(np.float32)
    corners = v32[faces]  # [F, 3, 3]
    c64 = corners.astype(np.float64)
    area2 = np.linalg.norm(np.cross(c64[:, 1] - c64[:, 0], c64[:, 2] - c64[:, 0]), axis=1)
    keep = np.flatnonzero(area2 > 0)
    rows = np.zeros((len(keep), TRI_FLOATS), np.float32)
    rows[:, :9] = corners[keep].reshape(-1, 9)
    bits = rows.view(np.uint32)
    bits[:, 9] = np.arange(first_row, first_row + len(keep), dtype=np.uint32)
    bits[:, 10] = object_id
    bits[:, 11] = keep.astype(np.uint32)
    return rows, len(faces) - len(keep)
