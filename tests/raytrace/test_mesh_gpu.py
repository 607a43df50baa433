"""Triangle meshes on the GPU: the GPU LBVH build equals the host build of the same code, its tree
gives the same first hits as the host SAH tree, queue renders equal the compaction baseline bit
for bit, and the GPU agrees with the CPU build within the stated tolerance."""

from __future__ import annotations

import numpy as np
import pytest
from mesh_cases import small_scene
from render_cases import srgb8, within_tolerance

from raytrace import mesh_accel, meshes
from raytrace.render import RenderOptions, render

pytestmark = pytest.mark.gpu

W, H = 96, 72


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    return small_scene(tmp_path_factory.mktemp("mesh-gpu"))


def opts(**kw):
    base = dict(width=W, height=H, spp=2, renderer="compaction", backend="cuda")
    base.update(kw)
    return RenderOptions(**base)


@pytest.mark.parametrize("resolution", [1, 40, 300])
def test_gpu_lbvh_build_equals_the_host_build(resolution):
    # Both the binary tree and its collapse into the 4-wide tree (rt/bvh_collapse.h).
    v, f = meshes.terrain((6.0, 4.0), resolution, 1.0, 9)
    rows, _ = meshes.triangle_rows(v, f, np.eye(4), 0, 0)
    gpu, host = mesh_accel.build_lbvh_gpu(rows), mesh_accel.build_lbvh_cpu(rows)
    assert gpu.wide and host.wide
    assert np.array_equal(gpu.tris.view(np.uint32), host.tris.view(np.uint32))
    assert np.array_equal(gpu.nodes.view(np.uint32), host.nodes.view(np.uint32))
    if len(rows) > 1:  # one triangle never reaches the GPU build
        import cupy

        b = mesh_accel.GpuLbvh(cupy.asarray(rows))
        b.build()
        host_binary = mesh_accel.binary_lbvh_cpu(rows)
        assert np.array_equal(b.binary().nodes.view(np.uint32), host_binary.nodes.view(np.uint32))


def test_gpu_lbvh_tree_gives_the_same_first_hits_as_the_sah_tree(scene):
    a = render(scene, opts(aov=True, mesh_build="sah"))
    b = render(scene, opts(aov=True, mesh_build="lbvh"))
    for name in ("depth", "normal", "id", "prim"):
        assert np.array_equal(a.aov[name], b.aov[name]), name
    assert np.array_equal(a.image.view(np.uint32), b.image.view(np.uint32))


@pytest.mark.parametrize("queue", ["glfq", "sfq", "gwfq"])
def test_gpu_queue_equals_compaction_on_meshes(scene, queue):
    base = render(scene, opts())
    r = render(scene, opts(renderer="queue", queue=queue, tiles=(4, 3)))
    assert np.array_equal(r.image.view(np.uint32), base.image.view(np.uint32))
    assert r.rays == base.rays


def test_gpu_mesh_render_agrees_with_cpu(scene):
    gpu = render(scene, opts(aov=True))
    cpu = render(scene, opts(aov=True, backend="cpu"))
    ok, why = within_tolerance(srgb8(gpu), srgb8(cpu))
    assert ok, why
    assert (gpu.aov["id"] == cpu.aov["id"]).mean() >= 0.999
    assert (gpu.aov["prim"] == cpu.aov["prim"]).mean() >= 0.999
