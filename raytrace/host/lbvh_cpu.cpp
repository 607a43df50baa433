// host/lbvh_cpu.cpp — the LBVH build (rt/lbvh.h) on the host: the same per-item functions as
// kernels/lbvh.cu, run by std::threads (the refit's climbers race as GPU threads do). The sort
// between the key and node steps is numpy's (raytrace/mesh_accel.py). Also the collapse into the
// 4-wide tree (rt/bvh_collapse.h), which the host uses for both builds.
#include <rt/bvh_collapse.h>
#include <rt/lbvh.h>

#include <thread>
#include <vector>

namespace {

template <class Body>
void parallel_for(uint32_t n, uint32_t nthreads, Body body) {
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < nthreads; ++t)
    threads.emplace_back([&, t] {
      for (uint32_t i = t; i < n; i += nthreads) body(i);
    });
  for (auto& th : threads) th.join();
}

}  // namespace

extern "C" {

void rt_lbvh_keys(const float* tris, uint32_t n, const float* scene, uint64_t* keys) {
  for (uint32_t i = 0; i < n; ++i) keys[i] = rt::lbvh_key(tris, i, scene);
}

// sorted_keys: n >= 2 unique keys in ascending order; tris_out, nodes (n - 1 rows), parent,
// leaf_parent and arrived (n - 1 zeroed counters) are written.
void rt_lbvh_build(const float* tris, const uint64_t* sorted_keys, uint32_t n, uint32_t nthreads, float* tris_out,
                   float* nodes, uint32_t* parent, uint32_t* leaf_parent, uint32_t* arrived) {
  parallel_for(n, nthreads, [&](uint32_t j) { rt::gather_tri(j, tris, sorted_keys, tris_out); });
  parallel_for(n - 1, nthreads, [&](uint32_t i) { rt::lbvh_node(i, sorted_keys, n, nodes, parent, leaf_parent); });
  parallel_for(n, nthreads, [&](uint32_t j) { rt::lbvh_refit(j, tris_out, nodes, parent, leaf_parent, arrived); });
}

// The 4-wide tree of a binary one of `nbinary` rows: level[i] of each row, wide[i] its wide row
// (for the even levels); `out` holds one wide node per even-level row.
void rt_collapse4(const float* binary, uint32_t nbinary, const uint8_t* level, const uint32_t* wide, uint32_t nthreads,
                  float* out) {
  parallel_for(nbinary, nthreads, [&](uint32_t i) { rt::collapse_node(i, binary, level, wide, out); });
}

}  // extern "C"
