// host/trace_counts.cpp — what a primary ray costs in the triangle hierarchy, counted on the host:
// the traversal of rt/mesh_bvh.h with a TraceCount, node rows fetched and triangles tested per
// ray, for tools/mesh_trace_counts.py. The kernels run the same traversal with NoTraceCount.
#include <rt/camera.h>
#include <rt/mesh_bvh.h>
#include <rt/pixel_order.h>
#include <rt/sampling.h>

#include <thread>
#include <vector>

extern "C" {

// Sample `sample` (of `spp`) of every pixel, row order: the primary ray the renderers trace for it
// (rt/whitted.h advance_path: stratified offset, camera direction, t > 0), against the triangles
// alone. Per pixel: nodes, triangles, deepest stack, and the hit's t (kNoHitT on a miss) and row.
void rt_trace_counts(const float* mesh_nodes, uint32_t nmesh_nodes, const float* tris, uint32_t ntris,
                     const float* camera, uint32_t width, uint32_t height, uint32_t sample, uint32_t spp,
                     uint32_t nthreads, uint32_t* nodes_out, uint32_t* tris_out, uint32_t* stack_out, float* t_out,
                     int32_t* tri_out) {
  const rt::MeshBvh m{mesh_nodes, tris, nmesh_nodes, ntris};
  const rt::Camera cam = rt::Camera::from(camera);
  const uint64_t pixels = (uint64_t)width * height;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < nthreads; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t p = t; p < pixels; p += nthreads) {
        float fx, fy;
        rt::sample_offset((uint32_t)p, sample, rt::strata_for(spp), &fx, &fy);
        const float u = ((float)(p % width) + fx) / (float)width;
        const float v = ((float)(p / width) + fy) / (float)height;
        rt::TraceCount c;
        const rt::TriHit h = rt::mesh_trace<false>(m, cam.eye, cam.direction(u, v), 0.0f, rt::kNoHitT, c);
        nodes_out[p] = c.nodes;
        tris_out[p] = c.tris;
        stack_out[p] = c.max_stack;
        t_out[p] = h.t;
        tri_out[p] = h.tri;
      }
    });
  for (auto& th : threads) th.join();
}

// out[i] = the pixel that work item i traces (rt/pixel_order.h).
void rt_pixel_order(uint32_t width, uint32_t height, uint32_t* out) {
  for (uint64_t i = 0; i < (uint64_t)width * height; ++i) out[i] = rt::blocked_pixel((uint32_t)i, width, height);
}

}  // extern "C"
