// rt/bvh_collapse.h — a binary BVH collapsed into a 4-wide one, each node adopting its
// grandchildren (the shallow hierarchies of Dammertz, Hanika and Keller, "Shallow Bounding Volume
// Hierarchies for Fast SIMD Ray Tracing of Incoherent Rays", EGSR 2008), one item per binary node,
// the same code on the GPU (kernels/lbvh.cu) and the host (host/lbvh_cpu.cpp).
//
// The binary nodes at even levels (root 0) become the wide nodes, numbered in binary row order
// (`wide` = exclusive prefix sum of "level is even", computed by the caller), so the root stays
// row 0. A wide node's slots are, for each binary child: the child itself when it is a leaf, else
// (an odd-level inner node) its two children, each box taken from the node that stored it. Leaves
// and their triangle rows are unchanged; an empty child (a leaf of 0 triangles) takes no slot, and
// unused slots are empty (rt/mesh_bvh.h).
#pragma once
#include "mesh_bvh.h"

namespace rt {

// Level of binary node i (root 0) by its parents (the LBVH build's parent array).
GQ_HD GQ_INLINE uint32_t node_level(uint32_t i, const uint32_t* parent) {
  uint32_t level = 0;
  for (uint32_t p = i; p != 0; p = parent[p]) ++level;
  return level;
}

GQ_HD GQ_INLINE float float_of(uint32_t u) {
  union { uint32_t u; float f; } b;
  b.u = u;
  return b.f;
}

GQ_HD GQ_INLINE void wide_slot(float* w, int k, const float* box, uint32_t ref) {
  for (int a = 0; a < 3; ++a) {
    w[4 * a + k] = box[a];
    w[12 + 4 * a + k] = box[3 + a];
  }
  w[24 + k] = float_of(ref);
}

// Binary node i: when its level is even, write wide node wide[i]. `wide` maps every binary row
// at an even level to its wide row.
GQ_HD GQ_INLINE void collapse_node(uint32_t i, const float* binary, const uint8_t* level, const uint32_t* wide,
                                   float* out) {
  if (level[i] % 2 != 0) return;
  const float* b = binary + (uint64_t)i * kMeshNodeFloats;
  float* w = out + (uint64_t)wide[i] * kWideNodeFloats;
  int k = 0;
  for (int c = 0; c < 2; ++c) {
    const uint32_t ref = word_of(b[12 + c]);
    if (ref & kMeshLeaf) {
      if (leaf_count(ref) > 0) wide_slot(w, k++, b + 6 * c, ref);
      continue;
    }
    const float* g = binary + (uint64_t)ref * kMeshNodeFloats;
    for (int gc = 0; gc < 2; ++gc) {
      const uint32_t gref = word_of(g[12 + gc]);
      if ((gref & kMeshLeaf) && leaf_count(gref) == 0) continue;
      wide_slot(w, k++, g + 6 * gc, (gref & kMeshLeaf) ? gref : wide[gref]);  // an inner grandchild: its wide row
    }
  }
  const float inf = float_of(0x7F800000u);
  const float empty[6] = {inf, inf, inf, inf, inf, inf};
  for (; k < kWideArity; ++k) wide_slot(w, k, empty, kMeshLeaf);
  for (int j = 28; j < kWideNodeFloats; ++j) w[j] = 0.0f;
}

}  // namespace rt
