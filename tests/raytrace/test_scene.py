"""Scene files: the shipped scenes load as documented, the arrays are what the renderer reads, the
camera basis is right, and every broken file is one SceneError line naming the file and field."""

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from queues_cuda.errors import GQError
from raytrace.scene import PRIM_BOX, PRIM_PLANE, PRIM_QUAD, PRIM_SPHERE, Camera, Scene, SceneError, load_scene

ROOT = Path(__file__).resolve().parents[2]
SCENES = ROOT / "scenes"


# ---- the shipped scenes --------------------------------------------------------------------------


def test_spheres100_as_documented():
    scene = load_scene(SCENES / "spheres100.toml")
    kinds = scene.prims[:, 0]
    assert (kinds == PRIM_SPHERE).sum() == 100 and (kinds == PRIM_PLANE).sum() == 1 and len(kinds) == 101
    assert (scene.width, scene.height, scene.spp, scene.max_depth) == (1920, 1080, 4, 2)
    assert scene.name == "spheres100" and len(scene.lights) == 2
    spheres = scene.prims[:100].astype(np.float64)
    centers, radii = spheres[:, 2:5], spheres[:, 5]
    assert np.allclose(centers[:, 1], radii)  # resting on the ground, y = 0
    assert np.allclose(scene.prims[100, 2:6], [0, 1, 0, 0])
    gaps = np.linalg.norm(centers[:, None] - centers[None], axis=-1) - radii[:, None] - radii[None]
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() > 0  # no two spheres intersect
    reflectivity = scene.materials[spheres[:, 1].astype(int), 3]
    assert 20 <= ((reflectivity >= 0.3) & (reflectivity <= 0.9)).sum() <= 50  # a fair share of mirrors


def test_spheres100_matches_its_generator():
    out = subprocess.run([sys.executable, "tools/make_spheres100.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_cornell_as_documented():
    scene = load_scene(SCENES / "cornell.toml")
    kinds = scene.prims[:, 0].tolist()
    assert kinds == [PRIM_SPHERE] * 2 + [PRIM_PLANE] + [PRIM_QUAD] * 3
    assert (scene.width, scene.height, scene.spp, scene.max_depth) == (1920, 1080, 4, 4)
    names = [scene.material_names[int(m)] for m in scene.prims[:, 1]]
    assert names[3:] == ["red", "green", "white"]  # left, right, back wall
    reflectivity = sorted(scene.materials[scene.prims[:2, 1].astype(int), 3].tolist())
    assert reflectivity[0] == 0.0 and reflectivity[1] == pytest.approx(0.8)

    def inside(p, margin=0.0):
        return (-2.75 + margin <= p[0] <= 2.75 - margin and margin <= p[1] <= 5.5 - margin
                and -5.5 + margin <= p[2] <= -margin)

    for row in scene.prims[:2]:
        assert inside(row[2:5], margin=float(row[5]))  # each sphere wholly inside the box
    assert 1 <= len(scene.lights) <= 2 and all(inside(light[:3]) and light[1] > 4.5 for light in scene.lights)
    assert scene.camera.eye[2] > 0  # looking in through the open front (z = 0)


@pytest.mark.parametrize("name", ["spheres100", "cornell"])
def test_arrays_are_what_the_renderer_reads(name):
    scene = load_scene(SCENES / f"{name}.toml")
    for array, columns in ((scene.prims, 12), (scene.materials, 4), (scene.lights, 6)):
        assert array.dtype == np.float32 and array.ndim == 2 and array.shape[1] == columns
        assert array.flags.c_contiguous and not array.flags.writeable
    assert len(scene.material_names) == len(scene.materials)
    assert set(scene.prims[:, 1].astype(int)) <= set(range(len(scene.materials)))
    assert np.all((scene.materials >= 0) & (scene.materials <= 1))
    assert np.all(scene.lights[:, 3:] >= 0)
    basis = scene.camera.basis(scene.width, scene.height)
    right, up, forward = basis[3:6], basis[6:9], basis[9:12]
    frame = np.stack([right, up, forward]).astype(np.float64)
    assert np.allclose(frame @ frame.T, np.eye(3), atol=1e-6)


# ---- loading: object ids, defaults, flattening ---------------------------------------------------

OBJECTS_OUT_OF_ORDER = """
[camera]
eye = [0, 1, 5]
look_at = [0, 0, 0]
[materials.a]
diffuse = [0.5, 0.5, 0.5]
[materials.b]
diffuse = [1, 0, 0]
reflectivity = 0.5
[[quad]]
corner = [0, 0, 0]
u = [1, 0, 0]
v = [0, 0, 2]
material = "b"
[[box]]
min = [0, 0, 0]
max = [1, 2, 3]
material = "a"
[[plane]]
point = [1, 3, 4]
normal = [0, 2, 0]
material = "a"
[[sphere]]
center = [1, 2, 3]
radius = 4
material = "b"
[[sphere]]
center = [0, 0, 0]
radius = 0.5
material = "a"
[[light]]
position = [0, 10, 0]
intensity = [5, 5, 5]
"""


def test_object_ids_spheres_planes_boxes_quads(tmp_path):
    path = tmp_path / "order.toml"
    path.write_text(OBJECTS_OUT_OF_ORDER)
    scene = load_scene(path)
    expected = np.array([
        [PRIM_SPHERE, 1, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0],
        [PRIM_SPHERE, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0],
        [PRIM_PLANE, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0],  # normal normalised; d = dot(n, point)
        [PRIM_BOX, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0],
        [PRIM_QUAD, 1, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0],
    ], dtype=np.float32)
    np.testing.assert_array_equal(scene.prims, expected)
    assert [scene.object_name(i) for i in range(5)] == ["sphere[0]", "sphere[1]", "plane[0]", "box[0]", "quad[0]"]
    assert scene.material_names == ("a", "b")
    np.testing.assert_array_equal(scene.materials, np.array([[0.5, 0.5, 0.5, 0], [1, 0, 0, 0.5]], np.float32))
    np.testing.assert_array_equal(scene.lights, np.array([[0, 10, 0, 5, 5, 5]], np.float32))


def test_defaults(tmp_path):
    path = tmp_path / "minimal.toml"
    path.write_text(MINIMAL)
    scene = load_scene(path)
    assert (scene.width, scene.height, scene.spp, scene.max_depth) == (640, 480, 1, 2)
    assert scene.camera.up == (0.0, 1.0, 0.0) and scene.camera.fov_deg == 45.0
    assert scene.background == (0.0, 0.0, 0.0) and scene.ambient == (0.05, 0.05, 0.05)
    assert scene.materials[:, 3].tolist() == [0.0, 0.0]
    assert scene.lights.shape == (0, 6) and scene.lights.dtype == np.float32
    assert scene.path == path and scene.name == "minimal"


def test_with_image_overrides(tmp_path):
    scene = load_scene(SCENES / "cornell.toml")
    small = scene.with_image(width=64, spp=1)
    assert (small.width, small.height, small.spp) == (64, 1080, 1)
    assert (scene.width, scene.spp) == (1920, 4)  # the original is untouched
    assert small.prims is scene.prims and small.camera == scene.camera
    assert scene.with_image().width == 1920
    for bad in ({"width": 0}, {"height": 16385}, {"spp": 0}, {"spp": 1.5}, {"width": True}):
        override = r"cornell\.toml: image\.(width|height|spp) \(override\): expected an integer"
        with pytest.raises(SceneError, match=override):
            scene.with_image(**bad)


# ---- the camera ----------------------------------------------------------------------------------


def test_basis_by_hand():
    # forward = (1, 0, 0); cross(forward, (0, 1, 1)) = (0, -1, 1) -> right = (0, -a, a), a = 1/sqrt(2);
    # up' = cross(right, forward) = (0, a, a).
    a = 1 / math.sqrt(2)
    basis = Camera(eye=(1, 2, 3), look_at=(4, 2, 3), up=(0, 1, 1), fov_deg=90).basis(300, 200)
    assert basis.dtype == np.float32 and basis.shape == (16,)
    expected = [1, 2, 3, 0, -a, a, 0, a, a, 1, 0, 0, 1.0, 1.5, 0, 0]
    np.testing.assert_allclose(basis, np.array(expected, np.float32), rtol=0, atol=1e-7)


def test_basis_is_orthonormal_and_right_handed():
    camera = Camera(eye=(3.0, 7.5, -2.0), look_at=(-1.0, 0.25, 4.0), up=(0.2, 1.0, -0.1), fov_deg=33.0)
    basis = camera.basis(1920, 1080).astype(np.float64)
    right, up, forward = basis[3:6], basis[6:9], basis[9:12]
    frame = np.stack([right, up, forward])
    np.testing.assert_allclose(frame @ frame.T, np.eye(3), atol=1e-6)
    np.testing.assert_allclose(np.cross(right, up), -forward, atol=1e-6)  # right x up = -forward
    view = np.array(camera.look_at) - np.array(camera.eye)
    np.testing.assert_allclose(forward, view / np.linalg.norm(view), atol=1e-7)
    assert up @ np.array(camera.up) > 0  # the image's up is on the side of the requested up
    assert basis[12] == pytest.approx(math.tan(math.radians(33) / 2)) and basis[13] == pytest.approx(16 / 9)


def test_basis_refuses_a_degenerate_camera():
    with pytest.raises(SceneError, match="camera.up"):
        Camera(eye=(0, 0, 0), look_at=(0, 5, 0), up=(0, 1, 0), fov_deg=45).basis(10, 10)


def test_scene_error_is_a_user_error():
    assert issubclass(SceneError, GQError)
    assert Scene.__eq__ is object.__eq__  # arrays in the fields: identity, not an ambiguous ==


# ---- broken files --------------------------------------------------------------------------------

CAMERA = "[camera]\neye = [0, 1, 5]\nlook_at = [0, 0, 0]\n"
MATERIALS = "[materials.red]\ndiffuse = [1, 0, 0]\n[materials.white]\ndiffuse = [1, 1, 1]\n"
SPHERE = '[[sphere]]\ncenter = [0, 0, 0]\nradius = 1.0\nmaterial = "red"\n'
LIGHT = "[[light]]\nposition = [0, 5, 0]\nintensity = [10, 10, 10]\n"
PLANE = '[[plane]]\npoint = [0, 0, 0]\nnormal = [0, 1, 0]\nmaterial = "white"\n'
BOX = '[[box]]\nmin = [0, 0, 0]\nmax = [1, 1, 1]\nmaterial = "white"\n'
QUAD = '[[quad]]\ncorner = [0, 0, 0]\nu = [1, 0, 0]\nv = [0, 1, 0]\nmaterial = "white"\n'
MINIMAL = CAMERA + MATERIALS + SPHERE


def scene(image="", camera=CAMERA, world="", materials=MATERIALS, objects=SPHERE, lights=LIGHT, top=""):
    """A valid scene, with one part replaced; `top` goes first (top-level keys)."""
    return top + image + camera + world + materials + lights + objects


def edit(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


def sphere(**keys):
    base = {"center": "[0, 0, 0]", "radius": "1.0", "material": '"red"'}
    base.update(keys)
    return "[[sphere]]\n" + "".join(f"{k} = {v}\n" for k, v in base.items() if v is not None)


BAD = {
    # TOML itself
    "syntax": (edit(MINIMAL, "radius = 1.0", "radius = = 1.0"),
               "line 10, column 10: invalid TOML: Invalid value"),
    "unclosed array": (edit(MINIMAL, "look_at = [0, 0, 0]", "look_at = [0, 0, 0"), "invalid TOML"),
    "duplicate table": (MINIMAL + CAMERA,
                        "line 12, column 8: invalid TOML: Cannot declare ('camera',) twice"),
    "duplicate key": (edit(MINIMAL, "radius = 1.0", "radius = 1.0\nradius = 2.0"), "invalid TOML"),
    # missing tables and keys
    "no camera": (scene(camera=""), "camera: missing table (required keys: eye, look_at)"),
    "no eye": (scene(camera="[camera]\nlook_at = [0, 0, 0]\n"), "camera.eye: missing key"),
    "no look_at": (scene(camera="[camera]\neye = [0, 0, 1]\n"), "camera.look_at: missing key"),
    "no materials": (scene(materials=""), "materials: missing table (at least one [materials.NAME]"),
    "empty materials": (scene(materials="[materials]\n"),
                        "materials: expected at least one [materials.NAME] table, got none"),
    "no diffuse": (scene(materials="[materials.red]\nreflectivity = 0.5\n"),
                   "materials.red.diffuse: missing key"),
    "no radius": (scene(objects=sphere(radius=None)), "sphere[0].radius: missing key"),
    "no center": (scene(objects=sphere(center=None)), "sphere[0].center: missing key"),
    "no material": (scene(objects=sphere(material=None)), "sphere[0].material: missing key"),
    "no plane normal": (scene(objects=edit(PLANE, "normal = [0, 1, 0]\n", "")),
                        "plane[0].normal: missing key"),
    "no quad v": (scene(objects=edit(QUAD, "v = [0, 1, 0]\n", "")), "quad[0].v: missing key"),
    "no box max": (scene(objects=edit(BOX, "max = [1, 1, 1]\n", "")), "box[0].max: missing key"),
    "no intensity": (scene(lights="[[light]]\nposition = [0, 5, 0]\n"), "light[0].intensity: missing key"),
    "no position": (scene(lights="[[light]]\nintensity = [1, 1, 1]\n"), "light[0].position: missing key"),
    # the wrong shape of table
    "camera not a table": (scene(camera="", top="camera = 3\n"),
                           "camera: expected a table ([camera]), got 3"),
    "camera array of tables": (scene(camera=CAMERA.replace("[camera]", "[[camera]]")),
                               "camera: expected a table ([camera]), got [{...}]"),
    "materials not a table": (scene(materials="", top="materials = [1, 2]\n"),
                              "materials: expected a table of [materials.NAME] tables, got [1, 2]"),
    "material not a table": (scene(materials="[materials]\nred = 3\n"),
                             "materials.red: expected a table ([materials.red]), got 3"),
    "blank material name": (scene(materials='[materials." "]\ndiffuse = [1, 1, 1]\n'),
                            "materials.' ': expected a material name that is not blank"),
    "sphere as a table": (scene(objects=SPHERE.replace("[[sphere]]", "[sphere]")),
                          "sphere: expected an array of tables ([[sphere]]), got a table"),
    "sphere entry not a table": (scene(objects="", top="sphere = [1]\n"),
                                 "sphere[0]: expected a table, got 1"),
    "light as a table": (scene(lights=LIGHT.replace("[[light]]", "[light]")),
                         "light: expected an array of tables ([[light]]), got a table"),
    # wrong types: strings, booleans, arrays, dates are not numbers
    "radius string": (scene(objects=sphere(radius='"1"')),
                      "sphere[0].radius: expected a positive finite number, got '1' (a string)"),
    "radius boolean": (scene(objects=sphere(radius="true")),
                       "sphere[0].radius: expected a positive finite number, got true (a boolean)"),
    "radius array": (scene(objects=sphere(radius="[1]")),
                     "sphere[0].radius: expected a positive finite number, got [1]"),
    "radius date": (scene(objects=sphere(radius="1979-05-27")),
                    "sphere[0].radius: expected a positive finite number, got 1979-05-27 (a date/time)"),
    "reflectivity boolean": (scene(materials=MATERIALS + "reflectivity = false\n"),
                             "materials.white.reflectivity: expected a number in [0, 1], got false (a boolean)"),
    "eye string": (scene(camera=edit(CAMERA, "eye = [0, 1, 5]", 'eye = "here"')),
                   "camera.eye: expected 3 numbers [x, y, z], got 'here' (a string)"),
    "eye element string": (scene(camera=edit(CAMERA, "eye = [0, 1, 5]", 'eye = [0, "1", 5]')),
                           "camera.eye[1]: expected a finite number, got '1' (a string)"),
    "eye element boolean": (scene(camera=edit(CAMERA, "eye = [0, 1, 5]", "eye = [0, true, 5]")),
                            "camera.eye[1]: expected a finite number, got true (a boolean)"),
    "material number": (scene(objects=sphere(material="1")),
                        "sphere[0].material: expected a material name (a string), got 1"),
    "width float": (scene(image="[image]\nwidth = 1920.0\n"),
                    "image.width: expected an integer in 1..16384, got 1920.0"),
    "width string": (scene(image='[image]\nwidth = "1920"\n'),
                     "image.width: expected an integer in 1..16384, got '1920' (a string)"),
    "spp boolean": (scene(image="[image]\nspp = true\n"),
                    "image.spp: expected an integer in 1..4096, got true (a boolean)"),
    "fov string": (scene(camera=CAMERA + 'fov = "wide"\n'),
                   "camera.fov: expected a number of degrees in (0, 180), got 'wide' (a string)"),
    # vectors of the wrong length
    "center of 2": (scene(objects=sphere(center="[0, 0]")),
                    "sphere[0].center: expected 3 numbers [x, y, z], got [0, 0] (2 elements)"),
    "center of 4": (scene(objects=sphere(center="[0, 0, 0, 1]")),
                    "sphere[0].center: expected 3 numbers [x, y, z], got [0, 0, 0, 1] (4 elements)"),
    "empty diffuse": (scene(materials="[materials.red]\ndiffuse = []\n"),
                      "materials.red.diffuse: expected 3 numbers [r, g, b], got [] (0 elements)"),
    "intensity of 1": (scene(lights=edit(LIGHT, "intensity = [10, 10, 10]", "intensity = [10]")),
                       "light[0].intensity: expected 3 numbers [r, g, b], got [10] (1 element)"),
    "up of 2": (scene(camera=CAMERA + "up = [0, 1]\n"),
                "camera.up: expected 3 numbers [x, y, z], got [0, 1] (2 elements)"),
    # NaN, infinity, beyond float32
    "nan center": (scene(objects=sphere(center="[nan, 0, 0]")),
                   "sphere[0].center[0]: expected a finite number, got nan"),
    "inf radius": (scene(objects=sphere(radius="inf")),
                   "sphere[0].radius: expected a positive finite number, got inf"),
    "-inf light": (scene(lights=edit(LIGHT, "position = [0, 5, 0]", "position = [0, -inf, 0]")),
                   "light[0].position[1]: expected a finite number, got -inf"),
    "nan fov": (scene(camera=CAMERA + "fov = nan\n"),
                "camera.fov: expected a number of degrees in (0, 180), got nan"),
    "nan reflectivity": (scene(materials=MATERIALS + "reflectivity = nan\n"),
                         "materials.white.reflectivity: expected a number in [0, 1], got nan"),
    "nan background": (scene(world="[world]\nbackground = [0, nan, 0]\n"),
                       "world.background[1]: expected a finite number >= 0, got nan"),
    "beyond float32": (scene(objects=sphere(center="[1e39, 0, 0]")),
                       "sphere[0].center[0]: expected a finite number, got 1e+39 (beyond float32 range)"),
    "huge integer": (scene(objects=sphere(radius="9" * 400)),
                     "sphere[0].radius: expected a positive finite number, got 9999999999...9999 (400 digits)"),
    # out of range
    "negative radius": (scene(objects=SPHERE + sphere(radius="-1.0")),
                        "sphere[1].radius: expected a positive finite number, got -1.0"),
    "zero radius": (scene(objects=sphere(radius="0")),
                    "sphere[0].radius: expected a positive finite number, got 0"),
    "diffuse above 1": (scene(materials="[materials.red]\ndiffuse = [1.2, 0, 0]\n"),
                        "materials.red.diffuse[0]: expected a number in [0, 1], got 1.2"),
    "diffuse below 0": (scene(materials="[materials.red]\ndiffuse = [1, 0, -0.1]\n"),
                        "materials.red.diffuse[2]: expected a number in [0, 1], got -0.1"),
    "reflectivity above 1": (scene(materials=MATERIALS + "reflectivity = 1.5\n"),
                             "materials.white.reflectivity: expected a number in [0, 1], got 1.5"),
    "reflectivity below 0": (scene(materials=MATERIALS + "reflectivity = -0.25\n"),
                             "materials.white.reflectivity: expected a number in [0, 1], got -0.25"),
    "negative intensity": (scene(lights=edit(LIGHT, "intensity = [10, 10, 10]", "intensity = [10, 10, -1]")),
                           "light[0].intensity[2]: expected a finite number >= 0, got -1"),
    "negative ambient": (scene(world="[world]\nambient = [-0.1, 0, 0]\n"),
                         "world.ambient[0]: expected a finite number >= 0, got -0.1"),
    "negative background": (scene(world="[world]\nbackground = [0, 0, -1]\n"),
                            "world.background[2]: expected a finite number >= 0, got -1"),
    "width 0": (scene(image="[image]\nwidth = 0\n"), "image.width: expected an integer in 1..16384, got 0"),
    "width 16385": (scene(image="[image]\nwidth = 16385\n"),
                    "image.width: expected an integer in 1..16384, got 16385"),
    "height -1": (scene(image="[image]\nheight = -1\n"),
                  "image.height: expected an integer in 1..16384, got -1"),
    "height 20000": (scene(image="[image]\nheight = 20000\n"),
                     "image.height: expected an integer in 1..16384, got 20000"),
    "spp 0": (scene(image="[image]\nspp = 0\n"), "image.spp: expected an integer in 1..4096, got 0"),
    "spp 4097": (scene(image="[image]\nspp = 4097\n"), "image.spp: expected an integer in 1..4096, got 4097"),
    "max_depth -1": (scene(image="[image]\nmax_depth = -1\n"),
                     "image.max_depth: expected an integer in 0..16, got -1"),
    "max_depth 17": (scene(image="[image]\nmax_depth = 17\n"),
                     "image.max_depth: expected an integer in 0..16, got 17"),
    "fov 0": (scene(camera=CAMERA + "fov = 0\n"),
              "camera.fov: expected a number of degrees in (0, 180), got 0"),
    "fov 180": (scene(camera=CAMERA + "fov = 180.0\n"),
                "camera.fov: expected a number of degrees in (0, 180), got 180.0"),
    "fov negative": (scene(camera=CAMERA + "fov = -30\n"),
                     "camera.fov: expected a number of degrees in (0, 180), got -30"),
    # unknown keys, at every level
    "unknown top-level key": (scene(objects=SPHERE.replace("[[sphere]]", "[[spheres]]")),
                              "top level: unknown key 'spheres' (did you mean 'sphere'?); allowed: image, camera, "
                              "world, materials, light, sphere, plane, box, quad"),
    "unknown image key": (scene(image="[image]\nfps = 30\n"),
                          "image: unknown key 'fps'; allowed: width, height, spp, max_depth"),
    "unknown camera key": (scene(camera=CAMERA + "fovy = 40\n"),
                           "camera: unknown key 'fovy' (did you mean 'fov'?); allowed: eye, look_at, up, fov"),
    "unknown world key": (scene(world="[world]\nfog = 0.1\n"),
                          "world: unknown key 'fog'; allowed: background, ambient"),
    "unknown material key": (scene(materials=MATERIALS + "specular = 0.5\n"),
                             "materials.white: unknown key 'specular'; allowed: diffuse, reflectivity"),
    "unknown light key": (scene(lights=LIGHT + "colour = [1, 1, 1]\n"),
                          "light[0]: unknown key 'colour'; allowed: position, intensity"),
    "unknown sphere key": (scene(objects=sphere(color="[1, 0, 0]")),
                           "sphere[0]: unknown key 'color'; allowed: center, radius, material"),
    "unknown plane key": (scene(objects=PLANE + "offset = 1\n"),
                          "plane[0]: unknown key 'offset'; allowed: point, normal, material"),
    "unknown box key": (scene(objects=BOX + "size = 1\n"),
                        "box[0]: unknown key 'size'; allowed: min, max, material"),
    "unknown quad key": (scene(objects=QUAD + "w = [0, 0, 1]\n"),
                         "quad[0]: unknown key 'w'; allowed: corner, u, v, material"),
    # references and emptiness
    "unknown material": (scene(objects=sphere(material='"gold"')),
                         "sphere[0].material: unknown material 'gold'; defined: red, white"),
    "unknown material on a quad": (scene(objects=SPHERE + QUAD + edit(QUAD, '"white"', '"blu"')),
                                   "quad[1].material: unknown material 'blu'; defined: red, white"),
    "no objects": (scene(objects=""),
                   "scene: expected at least one object ([[sphere]], [[plane]], [[box]], [[quad]] or [[mesh]]), got none"),
    "empty object arrays": (scene(objects="", top="sphere = []\nquad = []\n"),
                            "scene: expected at least one object"),
    # geometry with no extent or no direction
    "eye is look_at": (scene(camera="[camera]\neye = [1, 2, 3]\nlook_at = [1, 2, 3]\n"),
                       "camera.look_at: expected a point different from camera.eye, got [1, 2, 3] (the eye)"),
    "up parallel": (scene(camera=CAMERA + "up = [0, -2, -10]\n"),
                    "camera.up: expected a direction not parallel to the view direction (look_at - eye = [0.0, "
                    "-1.0, -5.0]), got [0, -2, -10]"),
    "up antiparallel": (scene(camera="[camera]\neye = [0, 5, 0]\nlook_at = [0, 0, 0]\n"),
                        "camera.up: expected a direction not parallel to the view direction (look_at - eye = [0.0, "
                        "-5.0, 0.0]), got [0.0, 1.0, 0.0]"),
    "up zero": (scene(camera=CAMERA + "up = [0, 0, 0]\n"),
                "camera.up: expected a direction not parallel to the view direction"),
    "zero plane normal": (scene(objects=edit(PLANE, "normal = [0, 1, 0]", "normal = [0, 0, 0]")),
                          "plane[0].normal: expected a non-zero vector, got [0, 0, 0]"),
    "box flat in y": (scene(objects=edit(BOX, "max = [1, 1, 1]", "max = [1, 0, 1]")),
                      "box[0].max: expected a corner above min = [0, 0, 0] in every axis, got [1, 0, 1] (not above "
                      "in y)"),
    "box inside out": (scene(objects=edit(BOX, "min = [0, 0, 0]", "min = [2, 0, 2]")),
                       "box[0].max: expected a corner above min = [2, 0, 2] in every axis, got [1, 1, 1] (not "
                       "above in x, z)"),
    "quad zero u": (scene(objects=edit(QUAD, "u = [1, 0, 0]", "u = [0, 0, 0]")),
                    "quad[0].u: expected a non-zero edge vector, got [0, 0, 0]"),
    "quad zero v": (scene(objects=edit(QUAD, "v = [0, 1, 0]", "v = [0.0, 0.0, 0.0]")),
                    "quad[0].v: expected a non-zero edge vector, got [0.0, 0.0, 0.0]"),
    "quad parallel edges": (scene(objects=edit(QUAD, "v = [0, 1, 0]", "v = [-3, 0, 0]")),
                            "quad[0].v: expected an edge not parallel to u = [1, 0, 0], got [-3, 0, 0]"),
    "quad nearly parallel edges": (scene(objects=edit(QUAD, "v = [0, 1, 0]", "v = [1, 1e-8, 0]")),
                                   "quad[0].v: expected an edge not parallel to u"),
}


@pytest.mark.parametrize("text, needle", BAD.values(), ids=BAD.keys())
def test_bad_scene_is_one_line_naming_file_and_field(tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert needle in message, message


def test_the_valid_scene_the_bad_ones_start_from_loads(tmp_path):
    """Every BAD case is one edit away from this file, so each failure is the edit's fault."""
    path = tmp_path / "good.toml"
    path.write_text(scene(objects=SPHERE + PLANE + BOX + QUAD, world="[world]\nambient = [0.1, 0.1, 0.1]\n"))
    loaded = load_scene(path)
    assert loaded.prims[:, 0].tolist() == [PRIM_SPHERE, PRIM_PLANE, PRIM_BOX, PRIM_QUAD]
    assert loaded.prims[0, 5] == 1.0  # ints are accepted as floats throughout


@pytest.mark.parametrize("make, needle", [
    (lambda p: p, "expected an existing scene file, got no such file or folder"),
    (lambda p: p.mkdir() or p, "expected a scene file, got a folder"),
    (lambda p: (p.write_bytes(MINIMAL.encode() + b"# caf\xe9\n"), p)[1],
     "line 12: expected UTF-8 text, got the byte 0xe9"),
], ids=["missing", "folder", "not utf-8"])
def test_unreadable_file(tmp_path, make, needle):
    path = make(tmp_path / "scene.toml")
    with pytest.raises(SceneError, match=f"^{re.escape(str(path))}: ") as caught:
        load_scene(path)
    assert needle in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("error, needle", [
    (PermissionError(13, "Permission denied"), "expected a readable scene file, got permission denied"),
    (OSError(5, "Input/output error"), "expected a readable scene file, got Input/output error"),
], ids=["permission", "io"])
def test_unreadable_file_system_errors(tmp_path, monkeypatch, error, needle):
    # Raised by a stand-in for read_bytes: as root, chmod 0 would not stop the read.
    path = tmp_path / "locked.toml"
    path.write_text(MINIMAL)

    def refuse(self):
        raise error

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(SceneError, match=f"^{re.escape(str(path))}: {needle}$"):
        load_scene(path)


def test_byte_order_mark_is_harmless(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + MINIMAL.encode())
    assert len(load_scene(path).prims) == 1
