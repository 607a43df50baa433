// rt/bvh.h — traversal of the bounding volume hierarchy built by raytrace/bvh.py.
//
// Node rows of 8 words: lo(3), hi(3), a, b. Inner: children a and b. Leaf: index[a .. a + count)
// with b = count | kLeafBit. Unbounded primitives (planes) are tested on every ray.
//
// The closest hit is exactly the one the linear loop over all primitives finds: the same
// per-primitive test gives the same t whatever the visiting order, and ties go to the lower
// primitive row, as they do in a first-come linear scan. Nodes are pruned only when they start
// strictly beyond the best hit, so a tie is never skipped.
#pragma once
#include "shapes.h"

namespace rt {

constexpr uint32_t kLeafBit = 0x80000000u;
constexpr int kBvhStack = 48;  // raytrace/bvh.py MAX_DEPTH

struct Bvh {
  const float* nodes;
  const uint32_t* index;
  const uint32_t* unbounded;
  uint32_t nnodes, nunbounded;
};

GQ_HD GQ_INLINE uint32_t word_bits(float f) {
  union { float f; uint32_t u; } b;
  b.f = f;
  return b.u;
}

// Entry distance of the ray into a node's box, or kNoHit when it misses within [0, tmax].
GQ_HD GQ_INLINE float enter_box(const float* n, Vec3 o, Vec3 inv, float tmax) {
  const float tx0 = (n[0] - o.x) * inv.x, tx1 = (n[3] - o.x) * inv.x;
  const float ty0 = (n[1] - o.y) * inv.y, ty1 = (n[4] - o.y) * inv.y;
  const float tz0 = (n[2] - o.z) * inv.z, tz1 = (n[5] - o.z) * inv.z;
  const float tnear = fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fmaxf(fminf(tz0, tz1), 0.0f));
  const float tfar = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fminf(fmaxf(tz0, tz1), tmax));
  return tnear <= tfar ? tnear : kNoHit;
}

struct BvhHit {
  float t;
  int32_t prim;
  GQ_HD GQ_INLINE void consider(float t2, uint32_t i) {
    if (t2 < t || (t2 == t && t2 < kNoHit && (int32_t)i < prim)) {
      t = t2;
      prim = (int32_t)i;
    }
  }
};

// A compile-time any-hit flag: with it the traversal is specialised for one query, as a plain
// `bool` leaves it to be decided at run time (rt/scene_view.h: query).
template <bool B>
struct AnyHit {
  GQ_HD constexpr operator bool() const { return B; }
};

// `any` (a bool, or AnyHit<...>): stop at the first hit closer than tmax (shadow rays).
template <class Any>
GQ_HD GQ_INLINE BvhHit bvh_trace(const Bvh& b, const float* prims, Vec3 o, Vec3 d, float tmin, float tmax, Any any) {
  BvhHit h{tmax, -1};
  for (uint32_t k = 0; k < b.nunbounded; ++k) {
    const uint32_t i = b.unbounded[k];
    h.consider(hit_prim(prims + i * kPrimFloats, o, d, tmin), i);
    if (any && h.prim >= 0) return h;
  }
  if (b.nnodes == 0) return h;
  const Vec3 inv = vec3(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
  uint32_t stack[kBvhStack];
  int sp = 0;
  uint32_t node = 0;
  if (enter_box(b.nodes, o, inv, h.t) >= kNoHit) return h;
  for (;;) {
    const float* n = b.nodes + node * 8;
    const uint32_t a = word_bits(n[6]), c = word_bits(n[7]);
    if (c & kLeafBit) {
      for (uint32_t k = a; k < a + (c & ~kLeafBit); ++k) {
        const uint32_t i = b.index[k];
        h.consider(hit_prim(prims + i * kPrimFloats, o, d, tmin), i);
        if (any && h.prim >= 0) return h;
      }
    } else {
      const float ta = enter_box(b.nodes + a * 8, o, inv, h.t);
      const float tc = enter_box(b.nodes + c * 8, o, inv, h.t);
      if (ta < kNoHit && tc < kNoHit) {
        const bool a_first = ta <= tc;
        stack[sp++] = a_first ? c : a;  // the farther child waits
        node = a_first ? a : c;
        continue;
      }
      if (ta < kNoHit) { node = a; continue; }
      if (tc < kNoHit) { node = c; continue; }
    }
    // Pop the next pending node that may still hold something closer than the best hit.
    for (;;) {
      if (sp == 0) return h;
      node = stack[--sp];
      if (enter_box(b.nodes + node * 8, o, inv, h.t) < kNoHit) break;
    }
  }
}

}  // namespace rt
