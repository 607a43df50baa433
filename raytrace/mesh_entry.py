"""The [[mesh]] tables of a scene file (scenes/README.md, "Meshes"): checked with the scene
loader's rules and messages, turned into mesh rows of `Scene.prims` and triangle rows."""

from __future__ import annotations

import numpy as np

from . import meshes
from .scene import _FINITE, _POSITIVE, PRIM_COLUMNS, PRIM_MESH, _frozen_array, _show

TRANSFORM_KEYS = ("translate", "rotate", "scale")
# generator -> its parameters and their defaults
GENERATOR_KEYS = {
    "icosphere": {"subdivisions": 3, "radius": 1.0},
    "torus": {"major_radius": 1.0, "minor_radius": 0.25, "segments": [64, 32]},
    "terrain": {"size": [10.0, 10.0], "resolution": 256, "height": 1.0, "seed": 0},
}
PARAMETER_KEYS = tuple(dict.fromkeys(k for keys in GENERATOR_KEYS.values() for k in keys))
MESH_KEYS = ("file", "generate", "material") + TRANSFORM_KEYS + PARAMETER_KEYS
MAX_SUBDIVISIONS = 9        # 5.2 M faces
MAX_SEGMENTS = 8192
MAX_RESOLUTION = 4096       # 33.5 M faces


def load_mesh_entries(loader, doc: dict, material_index: dict[str, int], first_id: int):
    if "mesh" not in doc:
        return [], _frozen_array([], meshes.TRI_FLOATS), ()
    entries = doc["mesh"]
    if not isinstance(entries, list):
        loader.fail("mesh", f"expected an array of tables ([[mesh]]), got {_show(entries)}")
    rows, parts, skipped = [], [], []
    total = 0
    for i, entry in enumerate(entries):
        field = f"mesh[{i}]"
        if not isinstance(entry, dict):
            loader.fail(field, f"expected a table, got {_show(entry)}")
        loader.keys(entry, field, MESH_KEYS)
        if "material" not in entry:
            loader.fail(f"{field}.material", "missing key")
        material = loader.material(entry["material"], f"{field}.material", material_index)
        vertices, faces, source_field = _geometry(loader, entry, field)
        matrix = _matrix(loader, entry, field)
        object_id = first_id + i
        try:
            tri, dropped = meshes.triangle_rows(vertices, faces, matrix, object_id, total)
        except meshes.MeshProblem as exc:
            loader.fail(f"{field}.scale", str(exc))
        if len(tri) == 0:
            loader.fail(source_field, f"expected a mesh with at least one triangle of non-zero area, got "
                                      f"{len(faces)} degenerate faces")
        total += len(tri)
        if total > meshes.MAX_TRIANGLES:
            loader.fail(field, f"expected at most {meshes.MAX_TRIANGLES} triangles in the scene, got {total}")
        if dropped:
            skipped.append((field, dropped))
        v = tri[:, :9].reshape(-1, 3)
        row = [float(PRIM_MESH), float(material), *v.min(axis=0).tolist(), *v.max(axis=0).tolist()]
        rows.append(row + [0.0] * (PRIM_COLUMNS - len(row)))
        parts.append(tri)
    triangles = np.concatenate(parts) if parts else np.zeros((0, meshes.TRI_FLOATS), np.float32)
    triangles.setflags(write=False)
    return rows, triangles, tuple(skipped)


def _geometry(loader, entry: dict, field: str):
    """(vertices, faces, the field that named them) from `file` or `generate`."""
    has_file, has_gen = "file" in entry, "generate" in entry
    if has_file == has_gen:
        loader.fail(field, "expected exactly one of file = \"PATH\" or generate = \"" +
                    "|".join(GENERATOR_KEYS) + "\", got " + ("both" if has_file else "neither"))
    if has_file:
        value = entry["file"]
        stray = [k for k in PARAMETER_KEYS if k in entry]
        if stray:
            loader.fail(f"{field}.{stray[0]}", "applies to generated meshes only, not to file = ...")
        if not isinstance(value, str) or not value.strip():
            loader.fail(f"{field}.file", f"expected a mesh file path (a string), got {_show(value)}")
        path = loader.path.parent / value
        try:
            vertices, faces = meshes.read_mesh_file(path)
        except meshes.MeshProblem as exc:
            loader.fail(f"{field}.file", str(exc))
        return vertices, faces, f"{field}.file"
    kind = entry["generate"]
    if kind not in GENERATOR_KEYS:
        loader.fail(f"{field}.generate", f"expected one of {', '.join(GENERATOR_KEYS)}, got {_show(kind)}")
    params = GENERATOR_KEYS[kind]
    stray = [k for k in PARAMETER_KEYS if k in entry and k not in params]
    if stray:
        loader.fail(f"{field}.{stray[0]}", f"does not apply to generate = {kind!r}; its keys: {', '.join(params)}")
    p = {k: entry.get(k, d) for k, d in params.items()}
    f = lambda k: f"{field}.{k}"
    if kind == "icosphere":
        n = loader.integer(p["subdivisions"], f("subdivisions"), 0, MAX_SUBDIVISIONS)
        vertices, faces = meshes.icosphere(n, loader.number(p["radius"], f("radius"), _POSITIVE))
    elif kind == "torus":
        major = loader.number(p["major_radius"], f("major_radius"), _POSITIVE)
        minor = loader.number(p["minor_radius"], f("minor_radius"), _POSITIVE)
        seg = p["segments"]
        if not isinstance(seg, list) or len(seg) != 2:
            loader.fail(f("segments"), f"expected 2 integers [around the ring, around the tube], got {_show(seg)}")
        seg = [loader.integer(s, f"{f('segments')}[{k}]", 3, MAX_SEGMENTS) for k, s in enumerate(seg)]
        vertices, faces = meshes.torus(major, minor, seg)
    else:
        size = p["size"]
        if not isinstance(size, list) or len(size) != 2:
            loader.fail(f("size"), f"expected 2 numbers [x, z], got {_show(size)}")
        size = [loader.number(s, f"{f('size')}[{k}]", _POSITIVE) for k, s in enumerate(size)]
        res = loader.integer(p["resolution"], f("resolution"), 1, MAX_RESOLUTION)
        height = loader.number(p["height"], f("height"), _FINITE)
        seed = loader.integer(p["seed"], f("seed"), 0, 2**63 - 1)
        vertices, faces = meshes.terrain(size, res, height, seed)
    return vertices, faces, f"{field}.generate"


def _matrix(loader, entry: dict, field: str) -> np.ndarray:
    translate = loader.vector(entry.get("translate", [0, 0, 0]), f"{field}.translate")
    rotate = loader.vector(entry.get("rotate", [0, 0, 0]), f"{field}.rotate")
    scale = entry.get("scale", 1.0)
    if isinstance(scale, list):
        scale = loader.vector(scale, f"{field}.scale", _POSITIVE)
    else:
        s = loader.number(scale, f"{field}.scale", _POSITIVE)
        scale = (s, s, s)
    return meshes.transform_matrix(translate, rotate, scale)
