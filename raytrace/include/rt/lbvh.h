// rt/lbvh.h — the linear BVH build (Karras, "Maximizing Parallelism in the Construction of BVHs,
// Octrees, and k-d Trees", HPG 2012), one thread per item, writing rt/mesh_bvh.h's node layout.
//
// 1. lbvh_key: each triangle's key is the 30-bit Morton code of its box centre in the scene's
//    bounds, above its own row (32 bits), so all keys differ and the radix tree is well defined
//    even where centres coincide.
// 2. The keys are sorted (CUB radix sort through CuPy on the GPU, numpy on the host) and the
//    triangles gathered into key order: leaf j of the tree is triangle row j.
// 3. lbvh_node: internal node i (n - 1 of them, node 0 the root) finds its key range and split
//    from the common-prefix lengths of neighbouring keys and links its two children.
// 4. lbvh_refit: one thread per leaf climbs towards the root, writing the box of the child it
//    comes from into the parent's slot; of the two children's climbers the first to arrive stops
//    and the second (which sees the other slot written) carries the union on up.
//
// The tree's depth is at most the key width (62 distinguishing bits), within kMeshStack.
#pragma once
#include "mesh_bvh.h"

namespace rt {

GQ_HD GQ_INLINE uint32_t spread_bits10(uint32_t v) {  // 10 bits -> every third of 30
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

GQ_HD GQ_INLINE uint32_t grid10(float x) {
  const float q = x * 1024.0f;
  return q <= 0.0f ? 0u : (q >= 1023.0f ? 1023u : (uint32_t)q);
}

// scene = lo(3), 1 / extent(3) of the vertices' bounds (0 where the extent is 0).
GQ_HD GQ_INLINE uint64_t lbvh_key(const float* tris, uint32_t i, const float* scene) {
  float lo[3], hi[3];
  tri_box(tris + (uint64_t)i * kTriFloats, lo, hi);
  uint32_t g[3];
  for (int a = 0; a < 3; ++a) g[a] = grid10(((lo[a] + hi[a]) * 0.5f - scene[a]) * scene[3 + a]);
  const uint32_t code = (spread_bits10(g[0]) << 2) | (spread_bits10(g[1]) << 1) | spread_bits10(g[2]);
  return (uint64_t)code << 32 | i;
}

GQ_HD GQ_INLINE int clz64(uint64_t x) {
#if GQ_DEVICE_BUILD
  return __clzll((long long)x);
#else
  return x == 0 ? 64 : __builtin_clzll(x);
#endif
}

// Common-prefix length of keys i and j; -1 when j is outside [0, n).
GQ_HD GQ_INLINE int lbvh_delta(const uint64_t* keys, uint32_t n, int64_t i, int64_t j) {
  if (j < 0 || j >= (int64_t)n) return -1;
  return clz64(keys[i] ^ keys[j]);
}

// Internal node i of n - 1 (n >= 2): children refs into nodes[i], parents of the children.
GQ_HD GQ_INLINE void lbvh_node(uint32_t i, const uint64_t* keys, uint32_t n, float* nodes, uint32_t* parent,
                               uint32_t* leaf_parent) {
  const int64_t ii = i;
  const int d = lbvh_delta(keys, n, ii, ii + 1) > lbvh_delta(keys, n, ii, ii - 1) ? 1 : -1;
  const int dmin = lbvh_delta(keys, n, ii, ii - d);
  int64_t lmax = 2;
  while (lbvh_delta(keys, n, ii, ii + lmax * d) > dmin) lmax *= 2;
  int64_t l = 0;
  for (int64_t t = lmax / 2; t >= 1; t /= 2)
    if (lbvh_delta(keys, n, ii, ii + (l + t) * d) > dmin) l += t;
  const int64_t j = ii + l * d;
  const int dnode = lbvh_delta(keys, n, ii, j);
  int64_t s = 0;
  for (int64_t div = 2;; div *= 2) {
    const int64_t t = (l + div - 1) / div;
    if (lbvh_delta(keys, n, ii, ii + (s + t) * d) > dnode) s += t;
    if (t <= 1) break;
  }
  const uint32_t gamma = (uint32_t)(ii + s * d + (d < 0 ? -1 : 0));
  const uint32_t lo = (uint32_t)(ii < j ? ii : j), hi = (uint32_t)(ii < j ? j : ii);
  float* node = nodes + (uint64_t)i * kMeshNodeFloats;
  uint32_t refs[2];
  refs[0] = lo == gamma ? mesh_leaf_ref(gamma, 1) : gamma;
  refs[1] = hi == gamma + 1 ? mesh_leaf_ref(gamma + 1, 1) : gamma + 1;
  for (int c = 0; c < 2; ++c) {
    union { uint32_t u; float f; } b;
    b.u = refs[c];
    node[12 + c] = b.f;
    if (refs[c] & kMeshLeaf) leaf_parent[leaf_first(refs[c])] = i;
    else parent[refs[c]] = i;
  }
  node[14] = 0.0f;
  node[15] = 0.0f;
}

// Leaf j's climb. `arrived` holds one zeroed counter per internal node.
GQ_HD GQ_INLINE void lbvh_refit(uint32_t j, const float* tris, float* nodes, const uint32_t* parent,
                                const uint32_t* leaf_parent, uint32_t* arrived) {
  float lo[3], hi[3];
  tri_box(tris + (uint64_t)j * kTriFloats, lo, hi);
  uint32_t from = mesh_leaf_ref(j, 1);
  uint32_t p = leaf_parent[j];
  for (;;) {
    float* node = nodes + (uint64_t)p * kMeshNodeFloats;
    const int slot = word_of(node[12]) == from ? 0 : 1;
    for (int a = 0; a < 3; ++a) {
      node[6 * slot + a] = lo[a];
      node[6 * slot + 3 + a] = hi[a];
    }
    // Release: the slot written above is visible to whoever arrives second; acquire: the second
    // sees the first's slot.
    if (gq::fetch_add<gq::mo::acq_rel>(arrived + p, 1u) == 0u) return;
    const int other = 1 - slot;
    for (int a = 0; a < 3; ++a) {
      lo[a] = fminf(lo[a], node[6 * other + a]);
      hi[a] = fmaxf(hi[a], node[6 * other + 3 + a]);
    }
    if (p == 0) return;
    from = p;
    p = parent[p];
  }
}

// Leaf-order gather: row j of `out` is row perm[j] of `tris`.
GQ_HD GQ_INLINE void gather_tri(uint32_t j, const float* tris, const uint64_t* sorted_keys, float* out) {
  const uint32_t src = (uint32_t)(sorted_keys[j] & 0xFFFFFFFFu);
  for (int k = 0; k < kTriFloats; ++k) out[(uint64_t)j * kTriFloats + k] = tris[(uint64_t)src * kTriFloats + k];
}

}  // namespace rt
