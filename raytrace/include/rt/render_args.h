// rt/render_args.h — the scene and image as the renderers' entry points receive them: plain
// pointers and scalars (CuPy launches kernels and ctypes calls functions without struct
// marshalling), gathered into RenderParams once per thread.
#pragma once
#include "whitted.h"

#define RT_SCENE_ARGS                                                                              \
  const float *prims, uint32_t nprims, const float *materials, const float *lights, uint32_t nlights, \
      const float *world, const float *camera, const float *nodes, const uint32_t *bvh_index,       \
      uint32_t nnodes, const uint32_t *unbounded, uint32_t nunbounded, const float *mesh_nodes,     \
      uint32_t nmesh_nodes, const float *tris, uint32_t ntris, uint32_t width, uint32_t height,     \
      uint32_t spp, uint32_t max_depth
#define RT_SCENE_PASS                                                                           \
  prims, nprims, materials, lights, nlights, world, camera, nodes, bvh_index, nnodes, unbounded, \
      nunbounded, mesh_nodes, nmesh_nodes, tris, ntris, width, height, spp, max_depth

namespace rt {

// world = background rgb, ambient rgb; camera = Camera.basis (rt/camera.h).
GQ_HD GQ_INLINE RenderParams make_params(RT_SCENE_ARGS) {
  RenderParams p;
  p.scene = SceneView{prims, materials, lights, nprims, nlights, load3(world), load3(world + 3),
                      Bvh{nodes, bvh_index, unbounded, nnodes, nunbounded},
                      MeshBvh{mesh_nodes, tris, nmesh_nodes, ntris}};
  p.cam = Camera::from(camera);
  p.width = width;
  p.height = height;
  p.spp = spp;
  p.max_depth = max_depth;
  return p;
}

}  // namespace rt
