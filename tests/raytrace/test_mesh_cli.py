"""`gq render` on meshes through gq's own entry point: a bad mesh is one line and exit 2 with
nothing written; a GLB renders directly; `gq bench render --rays primary` counts primary rays only."""

from __future__ import annotations

import json

import trimesh
from mesh_cases import SMALL_MESH_SCENE


def test_a_mesh_with_nan_vertices_is_one_line_exit_2_and_nothing_written(run_gq, tmp_path):
    (tmp_path / "nan.obj").write_text("v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n")
    scene = tmp_path / "s.toml"
    scene.write_text(SMALL_MESH_SCENE.split("[[mesh]]")[0] + '[[mesh]]\nfile = "nan.obj"\nmaterial = "red"\n')
    code, out, err = run_gq("render", scene, "-o", tmp_path / "x.png", "--backend", "cpu")
    assert code == 2
    assert err.strip().splitlines() == [f"gq: error: {scene}: mesh[0].file: expected finite vertex coordinates, "
                                        f"got [1.0, nan, 0.0] at vertex 1 of {str(tmp_path / 'nan.obj')!r}"]
    assert not (tmp_path / "x.png").exists()


def test_a_glb_renders_straight_from_the_command_line(run_gq, tmp_path):
    trimesh.creation.torus(1.0, 0.3, major_sections=12, minor_sections=6).export(tmp_path / "ring.glb")
    code, out, err = run_gq("render", tmp_path / "ring.glb", "-o", tmp_path / "ring.png", "--width", 32,
                            "--height", 24, "--backend", "cpu", "--aov", "id,prim")
    assert code == 0, err
    assert (tmp_path / "ring.png").is_file() and (tmp_path / "ring.prim.npy").is_file()


def test_degenerate_faces_are_reported(run_gq, tmp_path):
    (tmp_path / "f.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nf 1 2 3\nf 1 2 4\n")
    scene = tmp_path / "s.toml"
    scene.write_text(SMALL_MESH_SCENE.split("[[mesh]]")[0] + '[[mesh]]\nfile = "f.obj"\nmaterial = "red"\n')
    code, out, err = run_gq("render", scene, "-o", tmp_path / "x.png", "--width", 16, "--height", 12,
                            "--backend", "cpu")
    assert code == 0, err
    assert f"gq: note: {scene}: mesh[0]: skipped 1 degenerate triangle" in err


def test_bench_primary_rays_traces_one_ray_per_sample(run_gq, tmp_path):
    scene = tmp_path / "s.toml"
    scene.write_text(SMALL_MESH_SCENE)
    out_json = tmp_path / "b.json"
    code, out, err = run_gq("bench", "render", "--scene", scene, "--width", 16, "--height", 12, "--spp", 2,
                            "--backend", "cpu", "--queue", "glfq", "--repeats", 1, "--warmup", 0,
                            "--rays", "primary", "--json", out_json)
    assert code == 0, err
    rec = json.loads(out_json.read_text())
    assert rec["settings"]["rays"] == "primary"
    for row in rec["rows"]:
        assert row["rays"] == {"primary": 16 * 12 * 2, "reflection": 0, "shadow": 0, "total": 16 * 12 * 2}
        assert row["identical_to_compaction"] and row["triangles"] > 0
    code, _, err = run_gq("bench", "render", "--scene", scene, "--rays", "secondary", "--backend", "cpu")
    assert code == 2 and "--rays: unknown mode 'secondary'" in err
