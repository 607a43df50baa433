"""Scene files: TOML in, checked, flattened into the plain float32 arrays both backends read.

The format (every table and key, units, defaults, and the shading the numbers feed) is documented
in scenes/README.md; this module is its one implementation. The renderer never reads a file: it
gets a `Scene`, whose arrays it copies to the device as they are.

Every check runs before anything is built, and every failure is one `SceneError` line of the form
``<file>: <field path>: expected <rule>, got <value>``, e.g.
``scenes/bad.toml: sphere[3].radius: expected a positive finite number, got -1.0``.

`Scene.prims` is float32 [P, 12], one row per object: column 0 the type (PRIM_*), column 1 the
material index (a row of `Scene.materials`), then the parameters, zeros in unused columns:

    sphere  center x y z, radius
    plane   unit normal x y z, offset d (dot(normal, p) = d on the plane)
    box     min x y z, max x y z              (axis-aligned, min < max in every axis)
    quad    corner x y z, u x y z, v x y z    (parallelogram corner + a u + b v, a, b in [0, 1])
    mesh    bounds min x y z, max x y z       (never hit itself: its triangles are in
                                               `Scene.triangles`, rows made by raytrace/meshes.py)

Object ids: the row of an object in `Scene.prims` is its id (the renderer's id AOV writes it).
Rows are all spheres in file order, then all planes, then all boxes, then all quads, then all
meshes. A glTF/GLB file is a scene by itself (load_scene on a .glb or .gltf): one mesh row per
node that holds a mesh, a default camera framing the bounds and one default light.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, published as `tomli`
    import tomli as tomllib

from queues_cuda.errors import GQError

# Primitive types, stored as floats in column 0 of `Scene.prims`; mirrored by the renderer's
# geometry header. The order is also the order of rows (object ids).
PRIM_SPHERE = 0
PRIM_PLANE = 1
PRIM_BOX = 2
PRIM_QUAD = 3
PRIM_MESH = 4
PRIM_KINDS = ("sphere", "plane", "box", "quad", "mesh")  # indexed by the PRIM_* value
PRIM_COLUMNS = 12
MATERIAL_COLUMNS = 4  # diffuse r, g, b, reflectivity
LIGHT_COLUMNS = 6  # position x, y, z, intensity r, g, b

# [image] limits and defaults.
MAX_IMAGE_SIDE = 16384
MAX_SPP = 4096
MAX_DEPTH = 16
DEFAULT_WIDTH, DEFAULT_HEIGHT, DEFAULT_SPP, DEFAULT_MAX_DEPTH = 640, 480, 1, 2
DEFAULT_FOV_DEG = 45.0
DEFAULT_UP = (0.0, 1.0, 0.0)
DEFAULT_BACKGROUND = (0.0, 0.0, 0.0)
DEFAULT_AMBIENT = (0.05, 0.05, 0.05)

# Two directions count as parallel when the sine of their angle is below this: the renderer works
# in float32 (about 7 digits), so a basis or a quad normal any thinner than this is noise.
PARALLEL_SINE = 1e-6

_FLOAT32_MAX = float(np.finfo(np.float32).max)


class SceneError(GQError):
    """A scene file that cannot be rendered; the one-line message names the file and the field."""


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with a vertical field of view; pixel (x, y) with y = 0 the top row."""

    eye: tuple[float, float, float]
    look_at: tuple[float, float, float]
    up: tuple[float, float, float]
    fov_deg: float  # vertical field of view, degrees, 0 < fov < 180

    def basis(self, width: int, height: int) -> np.ndarray:
        """float32[16]: eye(3), right(3), up(3), forward(3), tan(fov/2), width/height, 0, 0.

        forward = normalize(look_at - eye); right = normalize(cross(forward, up));
        up = cross(right, forward). Computed in float64, then cast to float32, so both backends
        start from the same float32 numbers.
        """
        if width < 1 or height < 1:
            raise SceneError(f"camera: expected an image of at least 1x1 pixels, got {width}x{height}")
        problem = _camera_problem(self.eye, self.look_at, self.up, self.fov_deg)
        if problem:
            raise SceneError(f"camera.{problem[0]}: {problem[1]}")
        eye = np.asarray(self.eye, dtype=np.float64)
        forward = np.asarray(self.look_at, dtype=np.float64) - eye
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.asarray(self.up, dtype=np.float64))
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        tail = [math.tan(math.radians(self.fov_deg) / 2.0), width / height, 0.0, 0.0]
        return np.concatenate([eye, right, up, forward, tail]).astype(np.float32)


# eq=False: the fields include numpy arrays, for which a generated == (and hash) would raise.
@dataclass(frozen=True, eq=False)
class Scene:
    """A checked scene, flattened. The arrays are float32, C-contiguous and read-only."""

    path: Path
    name: str  # file stem
    width: int  # defaults from [image]; the command line may override (with_image)
    height: int
    spp: int  # samples per pixel
    max_depth: int  # reflection bounces after the primary hit
    camera: Camera
    background: tuple[float, float, float]  # radiance of a ray that hits nothing
    ambient: tuple[float, float, float]  # ambient light, multiplied by the diffuse colour
    material_names: tuple[str, ...]  # row i of `materials` is material_names[i]
    materials: np.ndarray  # float32 [M, 4]: diffuse r, g, b in [0, 1], reflectivity in [0, 1]
    prims: np.ndarray  # float32 [P, 12], P >= 1; row = object id; layout in the module docstring
    lights: np.ndarray  # float32 [L, 6]: position xyz, intensity rgb (>= 0); L may be 0
    # float32 [T, 12]: every mesh's triangles, placed (raytrace/meshes.py); T may be 0
    triangles: np.ndarray = dataclasses.field(default_factory=lambda: _frozen_array([], 12))
    # (field, faces skipped as degenerate) for each mesh that had any
    skipped: tuple[tuple[str, int], ...] = ()

    def with_image(self, width: int | None = None, height: int | None = None,
                   spp: int | None = None) -> Scene:
        """This scene with the image size or samples per pixel overridden (None keeps the file's)."""
        changes = {}
        for key, value, top in (("width", width, MAX_IMAGE_SIDE), ("height", height, MAX_IMAGE_SIDE),
                                ("spp", spp, MAX_SPP)):
            if value is None:
                continue
            if not _is_int(value) or not 1 <= value <= top:
                raise SceneError(f"{self.path}: image.{key} (override): expected an integer in 1..{top}, "
                                 f"got {_show(value)}")
            changes[key] = int(value)
        return dataclasses.replace(self, **changes)

    def object_name(self, object_id: int) -> str:
        """The file entry of an object id, e.g. 'sphere[3]' (for the id AOV and for messages)."""
        if not 0 <= object_id < len(self.prims):
            raise SceneError(f"{self.path}: object id {object_id}: expected 0..{len(self.prims) - 1}")
        kinds = self.prims[:, 0]
        kind = int(kinds[object_id])
        first = int(np.argmax(kinds == kind))
        return f"{PRIM_KINDS[kind]}[{object_id - first}]"


def load_scene(path: str | Path) -> Scene:
    """Read, check and flatten one scene file; a SceneError names the file and the field.
    A .glb or .gltf file is read as a whole scene (scenes/README.md, "glTF scenes")."""
    path = Path(path)
    if path.suffix.lower() in (".glb", ".gltf"):
        from .gltf_scene import load_gltf_scene

        return load_gltf_scene(path)
    return _Loader(path).scene(_read_toml(path))


# ---- reading -------------------------------------------------------------------------------------


def _read_toml(path: Path) -> dict:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SceneError(f"{path}: expected an existing scene file, got no such file or folder") from None
    except IsADirectoryError:
        raise SceneError(f"{path}: expected a scene file, got a folder") from None
    except PermissionError:
        raise SceneError(f"{path}: expected a readable scene file, got permission denied") from None
    except OSError as exc:
        raise SceneError(f"{path}: expected a readable scene file, got {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark from an editor is harmless
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SceneError(f"{path}: line {line}: expected UTF-8 text, got the byte "
                         f"0x{data[exc.start]:02x}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib puts the position at the end of its message: "Invalid value (at line 3, column 9)".
        message = str(exc)
        where = re.search(r"\s*\(at (line \d+, column \d+|end of document)\)$", message)
        if where:
            message = message[:where.start()]
            raise SceneError(f"{path}: {where.group(1)}: invalid TOML: {message}") from None
        raise SceneError(f"{path}: invalid TOML: {message}") from None


# ---- checking ------------------------------------------------------------------------------------

_TOP_KEYS = ("image", "camera", "world", "materials", "light", "sphere", "plane", "box", "quad", "mesh")
_IMAGE_KEYS = ("width", "height", "spp", "max_depth")
_CAMERA_KEYS = ("eye", "look_at", "up", "fov")
_WORLD_KEYS = ("background", "ambient")
_MATERIAL_KEYS = ("diffuse", "reflectivity")
_LIGHT_KEYS = ("position", "intensity")
# Object tables: every key is required; `material` names a [materials.NAME] table.
_OBJECT_KEYS = {
    "sphere": ("center", "radius", "material"),
    "plane": ("point", "normal", "material"),
    "box": ("min", "max", "material"),
    "quad": ("corner", "u", "v", "material"),
}

# The rules, worded once so that a wrong type, a NaN and an out-of-range value read alike.
_FINITE = "a finite number"
_POSITIVE = "a positive finite number"
_UNIT = "a number in [0, 1]"
_NON_NEGATIVE = "a finite number >= 0"
_FOV = "a number of degrees in (0, 180)"


class _Loader:
    """Walks the parsed TOML of one file; `fail` turns any broken rule into the one-line error."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, field: str, message: str) -> NoReturn:
        raise SceneError(f"{self.path}: {field}: {message}")

    # -- structure

    def keys(self, table: dict, field: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                self.fail(field, f"unknown key {key!r}{hint}; allowed: {', '.join(allowed)}")

    def table(self, parent: dict, key: str, field: str, allowed: tuple[str, ...],
              required: tuple[str, ...] = ()) -> dict:
        """The sub-table `key` of `parent` ({} when absent and nothing in it is required)."""
        if key not in parent:
            if required:
                self.fail(field, f"missing table (required keys: {', '.join(required)})")
            return {}
        value = parent[key]
        if not isinstance(value, dict):
            self.fail(field, f"expected a table ([{field}]), got {_show(value)}")
        self.keys(value, field, allowed)
        for name in required:
            if name not in value:
                self.fail(f"{field}.{name}", "missing key")
        return value

    def array_of_tables(self, parent: dict, key: str, allowed: tuple[str, ...]) -> list[dict]:
        """The entries of `[[key]]`, each checked for unknown and missing keys (all are required)."""
        if key not in parent:
            return []
        value = parent[key]
        if not isinstance(value, list):
            self.fail(key, f"expected an array of tables ([[{key}]]), got {_show(value)}")
        for i, entry in enumerate(value):
            field = f"{key}[{i}]"
            if not isinstance(entry, dict):
                self.fail(field, f"expected a table, got {_show(entry)}")
            self.keys(entry, field, allowed)
            for name in allowed:
                if name not in entry:
                    self.fail(f"{field}.{name}", "missing key")
        return value

    # -- values

    def number(self, value: Any, field: str, rule: str = _FINITE) -> float:
        """A finite number (an int is a float; a boolean is not a number) obeying `rule`."""
        if not _is_number(value):
            self.fail(field, f"expected {rule}, got {_show(value)}")
        try:
            x = float(value)
        except OverflowError:  # an integer too large for any float
            x = math.inf
        # "Finite" means finite in float32, the precision the renderer works in.
        if not math.isfinite(x) or abs(x) > _FLOAT32_MAX:
            beyond = " (beyond float32 range)" if math.isfinite(x) else ""
            self.fail(field, f"expected {rule}, got {_show(value)}{beyond}")
        ok = {
            _FINITE: True,
            _POSITIVE: x > 0,
            _UNIT: 0 <= x <= 1,
            _NON_NEGATIVE: x >= 0,
            _FOV: 0 < x < 180,
        }[rule]
        if not ok:
            self.fail(field, f"expected {rule}, got {_show(value)}")
        return x

    def integer(self, value: Any, field: str, lo: int, hi: int) -> int:
        if not _is_int(value) or not lo <= value <= hi:
            self.fail(field, f"expected an integer in {lo}..{hi}, got {_show(value)}")
        return int(value)

    def vector(self, value: Any, field: str, rule: str = _FINITE, names: str = "x, y, z") -> tuple:
        """Three numbers, each obeying `rule`; a bad element is named by its index."""
        if not isinstance(value, list) or len(value) != 3:
            count = ""
            if isinstance(value, list):
                count = f" ({len(value)} element{'s' if len(value) != 1 else ''})"
            self.fail(field, f"expected 3 numbers [{names}], got {_show(value)}{count}")
        return tuple(self.number(v, f"{field}[{i}]", rule) for i, v in enumerate(value))

    def colour(self, value: Any, field: str) -> tuple:
        return self.vector(value, field, _UNIT, "r, g, b")

    def radiance(self, value: Any, field: str) -> tuple:
        return self.vector(value, field, _NON_NEGATIVE, "r, g, b")

    def direction(self, value: Any, field: str, what: str) -> np.ndarray:
        """A vector that is not zero (float64, for the geometry the loader derives from it)."""
        v = np.asarray(self.vector(value, field), dtype=np.float64)
        if not np.linalg.norm(v) > 0:
            self.fail(field, f"expected {what}, got {_show(value)}")
        return v

    # -- the file

    def scene(self, doc: dict) -> Scene:
        self.keys(doc, "top level", _TOP_KEYS)

        image = self.table(doc, "image", "image", _IMAGE_KEYS)
        width = self.integer(image.get("width", DEFAULT_WIDTH), "image.width", 1, MAX_IMAGE_SIDE)
        height = self.integer(image.get("height", DEFAULT_HEIGHT), "image.height", 1, MAX_IMAGE_SIDE)
        spp = self.integer(image.get("spp", DEFAULT_SPP), "image.spp", 1, MAX_SPP)
        max_depth = self.integer(image.get("max_depth", DEFAULT_MAX_DEPTH), "image.max_depth", 0, MAX_DEPTH)

        camera = self.camera(self.table(doc, "camera", "camera", _CAMERA_KEYS, ("eye", "look_at")))

        world = self.table(doc, "world", "world", _WORLD_KEYS)
        background = self.radiance(world.get("background", list(DEFAULT_BACKGROUND)), "world.background")
        ambient = self.radiance(world.get("ambient", list(DEFAULT_AMBIENT)), "world.ambient")

        names, materials = self.materials(doc)
        lights = [self.vector(e["position"], f"light[{i}].position")
                  + self.radiance(e["intensity"], f"light[{i}].intensity")
                  for i, e in enumerate(self.array_of_tables(doc, "light", _LIGHT_KEYS))]
        material_index = {name: i for i, name in enumerate(names)}
        rows = self.objects(doc, material_index, allow_empty="mesh" in doc)
        mesh_rows, triangles, skipped = self.meshes(doc, material_index, first_id=len(rows))
        rows += mesh_rows

        return Scene(
            path=self.path,
            name=self.path.stem,
            width=width,
            height=height,
            spp=spp,
            max_depth=max_depth,
            camera=camera,
            background=background,
            ambient=ambient,
            material_names=tuple(names),
            materials=_frozen_array(materials, MATERIAL_COLUMNS),
            prims=_frozen_array(rows, PRIM_COLUMNS),
            lights=_frozen_array(lights, LIGHT_COLUMNS),
            triangles=triangles,
            skipped=skipped,
        )

    def camera(self, table: dict) -> Camera:
        eye = self.vector(table["eye"], "camera.eye")
        look_at = self.vector(table["look_at"], "camera.look_at")
        up = self.vector(table.get("up", list(DEFAULT_UP)), "camera.up")
        fov = self.number(table.get("fov", DEFAULT_FOV_DEG), "camera.fov", _FOV)
        shown = {"look_at": table["look_at"], "up": table.get("up", list(DEFAULT_UP))}  # as written
        problem = _camera_problem(eye, look_at, up, fov, shown)
        if problem:
            self.fail(f"camera.{problem[0]}", problem[1])
        return Camera(eye=eye, look_at=look_at, up=up, fov_deg=fov)

    def materials(self, doc: dict) -> tuple[list[str], list[tuple]]:
        if "materials" not in doc:
            self.fail("materials", "missing table (at least one [materials.NAME] with diffuse = [r, g, b])")
        table = doc["materials"]
        if not isinstance(table, dict):
            self.fail("materials", f"expected a table of [materials.NAME] tables, got {_show(table)}")
        if not table:
            self.fail("materials", "expected at least one [materials.NAME] table, got none")
        names, rows = [], []
        for name in table:
            field = f"materials.{name}" if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f"materials.{name!r}"
            if not name.strip():
                self.fail(field, "expected a material name that is not blank, got ''")
            entry = self.table(table, name, field, _MATERIAL_KEYS, ("diffuse",))
            diffuse = self.colour(entry["diffuse"], f"{field}.diffuse")
            reflectivity = self.number(entry.get("reflectivity", 0.0), f"{field}.reflectivity", _UNIT)
            names.append(name)
            rows.append(diffuse + (reflectivity,))
        return names, rows

    def objects(self, doc: dict, material_index: dict[str, int], allow_empty: bool = False) -> list[list[float]]:
        """Rows of `prims`, in object-id order: spheres, planes, boxes, quads, each in file order."""
        rows = []
        for kind, prim in (("sphere", PRIM_SPHERE), ("plane", PRIM_PLANE), ("box", PRIM_BOX),
                           ("quad", PRIM_QUAD)):
            for i, entry in enumerate(self.array_of_tables(doc, kind, _OBJECT_KEYS[kind])):
                field = f"{kind}[{i}]"
                params = getattr(self, kind)(entry, field)
                material = self.material(entry["material"], f"{field}.material", material_index)
                row = [float(prim), float(material), *params]
                rows.append(row + [0.0] * (PRIM_COLUMNS - len(row)))
        if not rows and not allow_empty:
            self.fail("scene", "expected at least one object ([[sphere]], [[plane]], [[box]], [[quad]] or "
                               "[[mesh]]), got none")
        return rows

    def meshes(self, doc: dict, material_index: dict[str, int], first_id: int):
        """(prims rows, triangles [T, 12] read-only, skipped) of the [[mesh]] entries."""
        from .mesh_entry import load_mesh_entries

        return load_mesh_entries(self, doc, material_index, first_id)

    def material(self, value: Any, field: str, material_index: dict[str, int]) -> int:
        if not isinstance(value, str):
            self.fail(field, f"expected a material name (a string), got {_show(value)}")
        if value not in material_index:
            self.fail(field, f"unknown material {value!r}; defined: {', '.join(material_index)}")
        return material_index[value]

    # -- one method per primitive: the parameters of its prims row (columns 2..)

    def sphere(self, entry: dict, field: str) -> list[float]:
        center = self.vector(entry["center"], f"{field}.center")
        radius = self.number(entry["radius"], f"{field}.radius", _POSITIVE)
        return [*center, radius]

    def plane(self, entry: dict, field: str) -> list[float]:
        point = np.asarray(self.vector(entry["point"], f"{field}.point"))
        normal = self.direction(entry["normal"], f"{field}.normal", "a non-zero vector")
        normal /= np.linalg.norm(normal)
        # The renderer stores dot(n, p) = d; the offset must itself be a float32 number.
        d = float(np.dot(normal, point))
        if abs(d) > _FLOAT32_MAX:
            self.fail(f"{field}.point", f"expected a point within float32 range of the origin, got "
                                        f"{_show(entry['point'])}")
        return [*normal.tolist(), d]

    def box(self, entry: dict, field: str) -> list[float]:
        lo = self.vector(entry["min"], f"{field}.min")
        hi = self.vector(entry["max"], f"{field}.max")
        flat = [axis for axis, a, b in zip("xyz", lo, hi) if not a < b]
        if flat:
            self.fail(f"{field}.max", f"expected a corner above min = {_show(entry['min'])} in every axis, "
                                      f"got {_show(entry['max'])} (not above in {', '.join(flat)})")
        return [*lo, *hi]

    def quad(self, entry: dict, field: str) -> list[float]:
        corner = self.vector(entry["corner"], f"{field}.corner")
        u = self.direction(entry["u"], f"{field}.u", "a non-zero edge vector")
        v = self.direction(entry["v"], f"{field}.v", "a non-zero edge vector")
        if _parallel(u, v):
            self.fail(f"{field}.v", f"expected an edge not parallel to u = {_show(entry['u'])}, "
                                    f"got {_show(entry['v'])}")
        return [*corner, *u.tolist(), *v.tolist()]


# ---- helpers -------------------------------------------------------------------------------------


def _camera_problem(eye, look_at, up, fov_deg, shown: dict | None = None) -> tuple[str, str] | None:
    """(field, message) when the camera has no basis, else None; shared by loader and Camera.basis.
    `shown` holds look_at and up as the file wrote them, for the message."""
    shown = shown or {"look_at": list(look_at), "up": list(up)}
    if not (isinstance(fov_deg, (int, float)) and 0 < fov_deg < 180):
        return "fov", f"expected {_FOV}, got {_show(fov_deg)}"
    e, t, u = (np.asarray(v, dtype=np.float64) for v in (eye, look_at, up))
    forward = t - e
    scale = max(1.0, float(np.linalg.norm(e)), float(np.linalg.norm(t)))
    if not np.linalg.norm(forward) > 1e-9 * scale:
        return "look_at", (f"expected a point different from camera.eye, "
                           f"got {_show(shown['look_at'])} (the eye)")
    if not np.linalg.norm(u) > 0 or _parallel(forward, u):
        return "up", (f"expected a direction not parallel to the view direction "
                      f"(look_at - eye = {_show(forward.tolist())}), got {_show(shown['up'])}")
    return None


def _parallel(a: np.ndarray, b: np.ndarray) -> bool:
    """True when a and b (both non-zero) span no area worth a float32 renderer's attention."""
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    return not np.linalg.norm(np.cross(a, b)) > PARALLEL_SINE


def _frozen_array(rows: list, columns: int) -> np.ndarray:
    """float32 [len(rows), columns], C-contiguous and read-only (a Scene is immutable)."""
    array = np.ascontiguousarray(np.asarray(rows, dtype=np.float64).reshape(len(rows), columns),
                                 dtype=np.float32)
    array.setflags(write=False)
    return array


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _show(value: Any) -> str:
    """A value as the user wrote it in TOML, with its kind where the kind is the problem."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, (int, np.integer)):
        text = str(value)
        return text if len(text) <= 24 else f"{text[:10]}...{text[-4:]} ({len(text)} digits)"
    if isinstance(value, str):
        return f"{value[:60]!r} (a string)" if len(value) <= 60 else f"{value[:57]!r}... (a string)"
    if isinstance(value, list):
        return _short(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return f"{value.isoformat()} (a date/time)"
    return repr(value)


def _short(value: Any) -> str:
    """A value inside an array: TOML spelling without the kind, arrays cut after six elements."""
    if isinstance(value, list):
        inner = ", ".join(_short(v) for v in value[:6])
        return f"[{inner}{', ...' if len(value) > 6 else ''}]"
    if isinstance(value, dict):
        return "{...}"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value) if len(value) <= 20 else f"{value[:17]!r}..."
    return _show(value)
