"""Triangle meshes in the renderer, CPU backend: first hits against an independent brute-force
reference, the two hierarchy builds against each other and against no hierarchy, the two
renderers bit for bit, the mesh sources (files of every format, generators, glTF scenes) and the
refusals of bad meshes."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from mesh_cases import SMALL_MESH_SCENE, brute_force, small_scene

from raytrace import mesh_accel, meshes
from raytrace.render import RenderOptions, render
from raytrace.scene import SceneError, load_scene

W, H = 40, 30


def aov_render(scene, **kw):
    opts = dict(width=W, height=H, spp=1, renderer="compaction", backend="cpu", aov=True, threads=2)
    opts.update(kw)
    return render(scene, RenderOptions(**opts))


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    return small_scene(tmp_path_factory.mktemp("mesh"))


def test_first_hits_match_a_brute_force_reference(scene):
    r = aov_render(scene)
    depth, ids, faces, ambiguous = brute_force(scene, W, H)
    clear = ~ambiguous
    assert clear.mean() > 0.9
    hit_tri = faces >= 0
    assert hit_tri[clear].sum() > 100, "the view must show many triangle hits"
    assert len(np.unique(faces[clear & hit_tri])) > 50
    assert np.array_equal(r.aov["id"][clear], ids[clear])
    assert np.array_equal(r.aov["prim"][clear], faces[clear])
    finite = clear & np.isfinite(depth)
    assert np.allclose(r.aov["depth"][finite], depth[finite], rtol=1e-4, atol=1e-5)
    assert np.isinf(r.aov["depth"][clear & ~np.isfinite(depth)]).all()
    # A triangle hit's id is its mesh's row, and the normal faces the camera.
    mesh_rows = np.flatnonzero(scene.prims[:, 0] == 4)
    assert np.isin(r.aov["id"][r.aov["prim"] >= 0], mesh_rows).all()


@pytest.mark.parametrize("build", ["sah", "lbvh"])
def test_each_build_gives_the_same_hits_and_image_as_no_hierarchy(scene, build):
    ref = aov_render(scene, accel="none", spp=2)
    r = aov_render(scene, mesh_build=build, spp=2)
    for name in ("depth", "normal", "id", "prim"):
        assert np.array_equal(r.aov[name], ref.aov[name]), name
    assert np.array_equal(r.image.view(np.uint32), ref.image.view(np.uint32))
    assert r.rays == ref.rays


def test_sah_and_lbvh_agree_on_a_tie_heavy_mesh(tmp_path):
    # Two copies of one terrain in the same place: every hit is a tie, broken by the scene row.
    text = SMALL_MESH_SCENE + SMALL_MESH_SCENE[SMALL_MESH_SCENE.index("[[mesh]]\ngenerate = \"terrain\""):]
    path = tmp_path / "ties.toml"
    path.write_text(text)
    sc = load_scene(path)
    a, b = aov_render(sc, mesh_build="sah"), aov_render(sc, mesh_build="lbvh")
    for name in ("depth", "id", "prim"):
        assert np.array_equal(a.aov[name], b.aov[name]), name
    first_copy = np.flatnonzero(sc.prims[:, 0] == 4)[2]
    assert (a.aov["id"] != first_copy + 1).all(), "a tie must go to the lower scene row"


@pytest.mark.parametrize("queue", ["glfq", "sfq"])
def test_queue_render_equals_compaction_bit_for_bit_on_meshes(scene, queue):
    base = aov_render(scene, spp=2, aov=False)
    r = aov_render(scene, spp=2, aov=False, renderer="queue", queue=queue, tiles=(3, 2))
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32))
    assert r.rays == base.rays


def children(accel, k):
    """(ref, lo, hi) of node k's children, binary or 4-wide (rt/mesh_bvh.h), empty slots left out."""
    nodes, bits = accel.nodes, accel.nodes.view(np.uint32)
    if not accel.wide:
        slots = [(int(bits[k, 12 + c]), nodes[k, 6 * c:6 * c + 3], nodes[k, 6 * c + 3:6 * c + 6]) for c in range(2)]
    else:
        slots = [(int(bits[k, 24 + j]), nodes[k, [j, 4 + j, 8 + j]], nodes[k, [12 + j, 16 + j, 20 + j]])
                 for j in range(4)]
    return [(ref, lo, hi) for ref, lo, hi in slots if not (ref & mesh_accel.LEAF_BIT and (ref >> 27) & 15 == 0)]


@pytest.mark.parametrize("wide", [False, True])
def test_each_tree_is_a_valid_hierarchy(wide):
    # Binary: what the builders write; wide: its collapse (rt/bvh_collapse.h), what the renderers read.
    v, f = meshes.icosphere(3, 1.0)
    rows, _ = meshes.triangle_rows(v, f, np.eye(4), 0, 0)
    trees = ((mesh_accel.build_lbvh_cpu(rows, threads=4), mesh_accel.build_sah(rows)) if wide else
             (mesh_accel.binary_lbvh_cpu(rows, threads=4), mesh_accel.binary_sah(rows)))
    for accel in trees:
        assert accel.wide == wide
        seen = np.zeros(len(rows), int)
        stack = [0]
        visited = 0
        while stack:
            k = stack.pop()
            visited += 1
            slots = children(accel, k)
            assert slots, f"{accel.builder}: node {k} has no child"
            for ref, lo, hi in slots:
                if ref & mesh_accel.LEAF_BIT:
                    first, count = ref & 0x07FFFFFF, (ref >> 27) & 15
                    seen[first:first + count] += 1
                    corners = accel.tris[first:first + count, :9].reshape(-1, 3)
                    assert (corners >= lo).all() and (corners <= hi).all()
                else:
                    for _, clo, chi in children(accel, ref):
                        assert (clo >= lo).all() and (chi <= hi).all()
                    stack.append(ref)
        assert (seen == 1).all(), accel.builder
        assert visited == len(accel.nodes), f"{accel.builder}: unreachable nodes"
        assert sorted(accel.tris.view(np.uint32)[:, 9]) == list(range(len(rows)))
        if wide:  # each wide node stands for a binary node at an even level: about half of them
            binary = len(mesh_accel.binary_sah(rows).nodes if accel.builder == "sah" else
                         mesh_accel.binary_lbvh_cpu(rows).nodes)
            assert 0.3 * binary < len(accel.nodes) < 0.7 * binary


def test_every_file_format_loads_and_renders_like_the_generator(tmp_path):
    m = trimesh.creation.icosphere(subdivisions=1, radius=0.9)
    rendered = {}
    for ext in ("obj", "ply", "stl", "glb"):
        m.export(tmp_path / f"ball.{ext}")
        text = SMALL_MESH_SCENE.split("[[mesh]]")[0] + f'[[mesh]]\nfile = "ball.{ext}"\nmaterial = "red"\n' \
            'translate = [0.5, 0.2, 0]\nscale = [1, 1.2, 1]\n'
        (tmp_path / f"{ext}.toml").write_text(text)
        sc = load_scene(tmp_path / f"{ext}.toml")
        assert len(sc.triangles) == 80
        rendered[ext] = aov_render(sc)
    base = rendered["obj"].aov["depth"]  # OBJ is text: its vertices are rounded to a few digits
    for ext in ("ply", "stl", "glb"):
        depth = rendered[ext].aov["depth"]
        assert np.array_equal(np.isinf(depth), np.isinf(base)), ext
        assert np.allclose(depth[np.isfinite(base)], base[np.isfinite(base)], rtol=1e-5), ext
    assert (rendered["obj"].aov["prim"] >= 0).sum() > 50


def test_generators_are_deterministic_and_sized():
    a, b = meshes.terrain((4.0, 3.0), 20, 1.0, 5), meshes.terrain((4.0, 3.0), 20, 1.0, 5)
    assert np.array_equal(a[0], b[0]) and len(a[1]) == 2 * 20 * 20
    assert not np.array_equal(a[0], meshes.terrain((4.0, 3.0), 20, 1.0, 6)[0])
    assert np.ptp(a[0][:, 1]) == pytest.approx(1.0)
    assert len(meshes.torus(1.0, 0.2, (8, 5))[1]) == 80
    assert len(meshes.icosphere(2, 1.0)[1]) == 320


def test_degenerate_triangles_are_skipped_and_counted(tmp_path, capsys):
    (tmp_path / "flat.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\n"
                                       "f 1 2 3\nf 1 2 4\nf 1 1 3\n")
    text = SMALL_MESH_SCENE.split("[[mesh]]")[0] + '[[mesh]]\nfile = "flat.obj"\nmaterial = "red"\n'
    (tmp_path / "flat.toml").write_text(text)
    sc = load_scene(tmp_path / "flat.toml")
    assert len(sc.triangles) == 1 and sc.skipped == (("mesh[0]", 2),)
    assert sc.triangles.view(np.uint32)[0, 11] == 0


BAD = [
    ('file = "missing.obj"', "mesh[0].file: expected an existing mesh file"),
    ('file = "empty.obj"', "mesh[0].file: expected a mesh with at least one triangle, got none"),
    ('file = "nan.obj"', "mesh[0].file: expected finite vertex coordinates, got [nan, 0.0, 0.0] at vertex 0"),
    ('file = "flat.obj"', "mesh[0].file: expected a mesh with at least one triangle of non-zero area"),
    ('file = "notes.txt"', "mesh[0].file: expected a mesh file ending in .obj"),
    ('file = "empty.obj"\ngenerate = "torus"', "mesh[0]: expected exactly one of file"),
    ('generate = "cube"', "mesh[0].generate: expected one of icosphere, torus, terrain, got 'cube'"),
    ('generate = "icosphere"\nsubdivisions = 12', "mesh[0].subdivisions: expected an integer in 0..9, got 12"),
    ('generate = "icosphere"\nresolution = 3', "mesh[0].resolution: does not apply to generate = 'icosphere'"),
    ('generate = "torus"\nsegments = [4]', "mesh[0].segments: expected 2 integers"),
    ('generate = "terrain"\nscale = 0', "mesh[0].scale: expected a positive finite number, got 0"),
    ('generate = "terrain"\nrotate = [0, nan, 0]', "mesh[0].rotate[1]: expected a finite number, got nan"),
    ('file = "ok.obj"\nseed = 3', "mesh[0].seed: applies to generated meshes only"),
]


@pytest.mark.parametrize("entry,message", BAD)
def test_bad_meshes_are_refused_in_one_line(tmp_path, entry, message):
    (tmp_path / "empty.obj").write_text("")
    (tmp_path / "nan.obj").write_text("v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (tmp_path / "flat.obj").write_text("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n")
    (tmp_path / "ok.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (tmp_path / "notes.txt").write_text("hello")
    path = tmp_path / "bad.toml"
    path.write_text(SMALL_MESH_SCENE.split("[[mesh]]")[0] + f'[[mesh]]\nmaterial = "red"\n{entry}\n')
    with pytest.raises(SceneError) as exc:
        load_scene(path)
    text = str(exc.value)
    assert "\n" not in text and text.startswith(f"{path}: ") and message in text, text


def test_gltf_scene_renders_with_node_transforms_colours_and_a_default_view(tmp_path):
    s = trimesh.Scene()
    ball = trimesh.creation.icosphere(subdivisions=1, radius=1.0)
    ball.visual = trimesh.visual.TextureVisuals(
        material=trimesh.visual.material.PBRMaterial(baseColorFactor=[204, 51, 25, 255]))
    s.add_geometry(ball, node_name="ball", transform=trimesh.transformations.translation_matrix([3, 0, 0]))
    s.add_geometry(trimesh.creation.box(), node_name="box")
    s.export(tmp_path / "model.glb")
    sc = load_scene(tmp_path / "model.glb")
    assert len(sc.prims) == 2 and (sc.prims[:, 0] == 4).all() and len(sc.lights) == 1
    colours = sorted(tuple(float(c) for c in m[:3]) for m in sc.materials)
    assert np.allclose(colours, [(0.7, 0.7, 0.7), (0.8, 0.2, 25 / 255)])
    ball_rows = sc.triangles[sc.triangles.view(np.uint32)[:, 10] == 1] if sc.prims[1, 1] == 0 else \
        sc.triangles[sc.triangles.view(np.uint32)[:, 10] == 0]
    assert ball_rows[:, :9].reshape(-1, 3)[:, 0].mean() == pytest.approx(3.0, abs=0.05)
    r = render(sc.with_image(width=48, height=36), RenderOptions(48, 36, 1, backend="cpu", aov=True, threads=2))
    ids = r.aov["id"]
    assert set(np.unique(ids)) == {-1, 0, 1}
    border = np.concatenate([ids[0], ids[-1], ids[:, 0], ids[:, -1]])
    assert (border == -1).all(), "the default camera frames the whole model"


def test_gltf_camera_is_used_when_the_file_has_one(tmp_path):
    s = trimesh.Scene()
    s.add_geometry(trimesh.creation.box(), node_name="box")
    s.camera = trimesh.scene.Camera(resolution=(64, 48), fov=(60.0, 47.0))
    s.camera_transform = trimesh.transformations.translation_matrix([0.5, 1.0, 6.0])
    s.export(tmp_path / "cam.glb")
    cam = load_scene(tmp_path / "cam.glb").camera
    assert np.allclose(cam.eye, (0.5, 1.0, 6.0)) and np.allclose(cam.look_at, (0.5, 1.0, 5.0))
    assert cam.fov_deg == pytest.approx(47.0)


def test_bad_gltf_is_refused_in_one_line(tmp_path):
    (tmp_path / "broken.glb").write_bytes(b"glTF\x02\x00\x00\x00garbage")
    with pytest.raises(SceneError) as exc:
        load_scene(tmp_path / "broken.glb")
    assert "\n" not in str(exc.value) and str(exc.value).startswith(f"{tmp_path / 'broken.glb'}: expected a readable")


def test_rays_through_shared_vertices_and_edges_never_slip_through(tmp_path):
    # Watertightness: from inside a closed mesh every ray hits it, including the rays aimed exactly
    # at a vertex (shared by 5 or 6 triangles) or an edge midpoint (shared by 2).
    v, f = meshes.icosphere(1, 1.0)
    edges = v[f[:, [0, 1]]].mean(axis=1)
    targets = np.concatenate([v[:12], edges[:12]])
    for k, target in enumerate(targets):
        up = [0, 1, 0] if abs(target[1]) < 0.9 else [1, 0, 0]
        path = tmp_path / f"inside{k}.toml"
        path.write_text(f"""
[camera]
eye = [0, 0, 0]
look_at = [{float(target[0])!r}, {float(target[1])!r}, {float(target[2])!r}]
up = {up}
fov = 1
[materials.m]
diffuse = [0.5, 0.5, 0.5]
[[mesh]]
generate = "icosphere"
subdivisions = 1
material = "m"
""")
        sc = load_scene(path)
        for accel in ("none", "bvh"):
            r = render(sc, RenderOptions(width=3, height=3, spp=1, renderer="compaction", backend="cpu", aov=True,
                                         accel=accel, tiles=(1, 1), threads=1))
            assert (r.aov["id"] == 0).all(), (k, accel, r.aov["id"])
            assert np.allclose(r.aov["depth"][1, 1], np.linalg.norm(target), rtol=1e-5)
