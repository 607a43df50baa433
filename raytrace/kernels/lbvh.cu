// kernels/lbvh.cu — the LBVH build (rt/lbvh.h) on the GPU: one thread per triangle or node,
// grid-stride. The host (raytrace/mesh_accel.py) sorts the keys with CuPy between rt_lbvh_keys
// and rt_lbvh_gather, and takes the prefix sum of the even levels between rt_lbvh_levels and
// rt_collapse4 (the 4-wide tree the renderers trace: rt/bvh_collapse.h).
#include <rt/bvh_collapse.h>
#include <rt/lbvh.h>

#define GRID_STRIDE(i, n) \
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (uint64_t)gridDim.x * blockDim.x)

extern "C" __global__ void rt_lbvh_keys(const float* tris, uint32_t n, const float* scene, uint64_t* keys) {
  GRID_STRIDE(i, n) keys[i] = rt::lbvh_key(tris, (uint32_t)i, scene);
}

extern "C" __global__ void rt_lbvh_gather(const float* tris, const uint64_t* sorted_keys, uint32_t n,
                                          float* tris_out) {
  GRID_STRIDE(j, n) rt::gather_tri((uint32_t)j, tris, sorted_keys, tris_out);
}

extern "C" __global__ void rt_lbvh_nodes(const uint64_t* sorted_keys, uint32_t n, float* nodes, uint32_t* parent,
                                         uint32_t* leaf_parent) {
  GRID_STRIDE(i, (uint64_t)n - 1) rt::lbvh_node((uint32_t)i, sorted_keys, n, nodes, parent, leaf_parent);
}

extern "C" __global__ void rt_lbvh_refit(const float* tris, uint32_t n, float* nodes, const uint32_t* parent,
                                         const uint32_t* leaf_parent, uint32_t* arrived) {
  GRID_STRIDE(j, n) rt::lbvh_refit((uint32_t)j, tris, nodes, parent, leaf_parent, arrived);
}

extern "C" __global__ void rt_lbvh_levels(const uint32_t* parent, uint32_t ninner, uint8_t* level) {
  GRID_STRIDE(i, ninner) level[i] = (uint8_t)rt::node_level((uint32_t)i, parent);
}

extern "C" __global__ void rt_collapse4(const float* binary, uint32_t nbinary, const uint8_t* level,
                                        const uint32_t* wide, float* out) {
  GRID_STRIDE(i, nbinary) rt::collapse_node((uint32_t)i, binary, level, wide, out);
}
