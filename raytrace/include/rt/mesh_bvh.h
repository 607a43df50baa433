// rt/mesh_bvh.h — the triangle hierarchy and its traversal.
//
// The builders write a compact binary BVH in which each node stores the boxes of its two
// children, so one node fetch decides both children (the layout of Aila and Laine, "Understanding
// the Efficiency of Ray Traversal on GPUs", HPG 2009): the binned SAH build on the host
// (raytrace/host/sah_build.cpp) and the LBVH build (rt/lbvh.h, on the GPU or the host). Both
// reorder the triangles into leaf order, so a leaf is a contiguous run of triangle rows. The
// renderers trace a 4-wide tree collapsed from it (rt/bvh_collapse.h): half the node fetches per
// ray, the traversal's latency-bound steps (tools/mesh_trace_counts.py counts them).
//
// Binary node: 16 words (64 bytes), row 0 the root:
//   child 0 lo(3) hi(3), child 1 lo(3) hi(3), ref 0, ref 1 (uint32 bits), 2 unused words.
// Wide node: 32 words (128 bytes), row 0 the root, each field of the four children side by side
// so that a 16-byte load brings one field of all four:
//   lo.x[4], lo.y[4], lo.z[4], hi.x[4], hi.y[4], hi.z[4], ref[4] (uint32 bits), 4 unused words.
//   An empty slot has an infinite box (every slab test misses it) and a leaf ref of 0 triangles.
// ref: an inner child is its node row; a leaf has kMeshLeaf set, its first triangle row in bits
// 0..26 and its triangle count (0..15; 0 = no child) in bits 27..30.
//
// Postponed leaves (Aila and Laine, HPG 2009): a lane that meets leaves keeps them and stops
// fetching nodes; once every lane of the warp holds leaves or has finished, the warp tests its
// leaves together. Testing a node's leaves at once runs the triangle loop for the lanes that met
// a leaf at this node only: on terrain1m about 55% of the lanes are busy in it
// (tools/mesh_trace_counts.py). Run 15 (benchmarks/results/2026-11-29-h200-run15-mesh-ab.json,
// 1920x1080, 4 spp, primary rays) measured 2,415 -> 3,121 MRays/s for the compaction renderer
// over the SAH tree with this change alone, and 4,083 with the compaction changes of
// rt/compaction.h; first hits alone (rt_aov) went 4,644 -> 4,413. The hits are the same as with
// immediate testing: the closest hit does not depend on the order in which leaves are tested, and
// a box is skipped only when it starts beyond a found hit. RT_POSTPONE_LEAVES=0 builds the
// immediate testing instead, for the sphere-scene A/B of tools/gpu_render_ab.py (rt/compaction.h).
//
// Closest hit: the least t, ties to the least scene row (rt/triangle.h), which is what a loop
// over all triangles reports, whatever order the builder left the leaves in. A pending node is
// skipped only when it starts strictly beyond the best hit.
#pragma once
#include "triangle.h"

namespace rt {

#ifndef RT_POSTPONE_LEAVES
#define RT_POSTPONE_LEAVES 1
#endif

constexpr uint32_t kMeshLeaf = 0x80000000u;
constexpr int kMeshNodeFloats = 16;  // binary node (the builders' output, collapsed before tracing)
constexpr int kWideNodeFloats = 32;  // 4-wide node
constexpr int kWideReadFloats = 28;  // what the traversal reads of it: boxes and refs
constexpr int kWideArity = 4;
constexpr int kMeshLeafMax = 15;
// The builders accept binary trees of depth (deepest inner level) <= 63 (raytrace/mesh_accel.py).
// The 4-wide traversal holds at most three pending nodes per wide level, and a wide level is two
// binary ones: 3 * 32 = 96.
constexpr int kMeshStack = 96;

GQ_HD GQ_INLINE uint32_t mesh_leaf_ref(uint32_t first, uint32_t count) { return kMeshLeaf | (count << 27) | first; }
GQ_HD GQ_INLINE uint32_t leaf_first(uint32_t ref) { return ref & 0x07FFFFFFu; }
GQ_HD GQ_INLINE uint32_t leaf_count(uint32_t ref) { return (ref >> 27) & 15u; }

// A triangle's box, padded by kBoxPad of its coordinates' magnitude: the slab test rounds
// differently from the triangle test, and a flat box (an axis-aligned triangle) has no thickness
// at all; without the pad a grazing hit could be pruned. Both builders use this one function.
constexpr float kBoxPad = 1.0f / 1048576.0f;

GQ_HD GQ_INLINE void tri_box(const float* tri, float lo[3], float hi[3]) {
  float m = 1.0f;
  for (int a = 0; a < 3; ++a) {
    lo[a] = fminf(tri[a], fminf(tri[3 + a], tri[6 + a]));
    hi[a] = fmaxf(tri[a], fmaxf(tri[3 + a], tri[6 + a]));
    m = fmaxf(m, fmaxf(fabsf(lo[a]), fabsf(hi[a])));
  }
  const float pad = kBoxPad * m;
  for (int a = 0; a < 3; ++a) {
    lo[a] -= pad;
    hi[a] += pad;
  }
}

struct MeshBvh {
  const float* nodes;  // [nnodes][kMeshNodeFloats]; nnodes = 0: test every triangle (the reference)
  const float* tris;   // [ntris][kTriFloats], in leaf order when nnodes > 0
  uint32_t nnodes, ntris;
};

struct TriHit {
  float t;
  int32_t tri;   // triangle row in `tris`, -1 when none
  uint32_t key;  // its scene row (tie-break)
  GQ_HD GQ_INLINE void consider(float t2, uint32_t i, uint32_t k) {
    if (t2 < t || (t2 == t && t2 < kNoHitT && tri >= 0 && k < key)) {
      t = t2;
      tri = (int32_t)i;
      key = k;
    }
  }
};

// Per-ray constants of the slab test: inv = 1 / d and oi = -o * inv, so that each slab distance
// (b - o) / d is one fused multiply-add, fmaf(b, inv, oi): one rounding on both builds (CUDA's
// fmaf and libm's are exact), one dependent operation instead of two on the traversal's critical
// path, 6 instead of 12 per child box (on the H200 no slower than subtract-then-multiply: run 13,
// benchmarks/results/2026-11-29-h200-run13-mesh-ab.json). It rounds within a few ulps of the
// exact distance, which kBoxPad covers. A zero direction component makes inv infinite and some
// distances on that axis NaN (0 * inf, or inf - inf); fminf/fmaxf drop NaN operands, so that axis
// simply stops pruning: the test stays conservative.
struct SlabRay {
  Vec3 inv, oi;
};

GQ_HD GQ_INLINE SlabRay slab_ray(Vec3 o, Vec3 d) {
  const Vec3 inv = vec3(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
  return SlabRay{inv, vec3(-o.x * inv.x, -o.y * inv.y, -o.z * inv.z)};
}

GQ_HD GQ_INLINE float slab(float b, float inv, float oi) { return fmaf(b, inv, oi); }

// Entry distance into child k of a wide node (fields side by side: rt/mesh_bvh.h's header).
GQ_HD GQ_INLINE float enter_wide(const float* n, int k, const SlabRay& s, float tmax) {
  const float tx0 = slab(n[k], s.inv.x, s.oi.x), tx1 = slab(n[12 + k], s.inv.x, s.oi.x);
  const float ty0 = slab(n[4 + k], s.inv.y, s.oi.y), ty1 = slab(n[16 + k], s.inv.y, s.oi.y);
  const float tz0 = slab(n[8 + k], s.inv.z, s.oi.z), tz1 = slab(n[20 + k], s.inv.z, s.oi.z);
  const float tnear = fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fmaxf(fminf(tz0, tz1), 0.0f));
  const float tfar = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fminf(fmaxf(tz0, tz1), tmax));
  return tnear <= tfar ? tnear : kNoHitT;
}

// (ta, ra) takes the nearer of the two pairs.
GQ_HD GQ_INLINE void sort_pair(float& ta, uint32_t& ra, float& tb, uint32_t& rb) {
  const bool swap = tb < ta;
  const float t = swap ? tb : ta;
  const uint32_t r = swap ? rb : ra;
  tb = swap ? ta : tb;
  rb = swap ? ra : rb;
  ta = t;
  ra = r;
}

// Copy `count4` 16-byte words from p (16-byte aligned: node rows are 64 bytes, triangle rows 48,
// and the arrays start aligned) into w. On the GPU one vector load per word through the
// read-only cache instead of four scalar loads; the values are the same on both builds.
GQ_HD GQ_INLINE void load_words(const float* p, float* w, int count4) {
#if GQ_DEVICE_BUILD
  const float4* q = reinterpret_cast<const float4*>(p);
  for (int k = 0; k < count4; ++k) {
    const float4 v = __ldg(q + k);
    w[4 * k] = v.x;
    w[4 * k + 1] = v.y;
    w[4 * k + 2] = v.z;
    w[4 * k + 3] = v.w;
  }
#else
  for (int k = 0; k < 4 * count4; ++k) w[k] = p[k];
#endif
}

// What one traversal did, for the host's counting tool (host/trace_counts.cpp). The renderers
// pass NoTraceCount, whose empty members compile to nothing, so counting costs the kernels nothing.
struct NoTraceCount {
  GQ_HD GQ_INLINE void node(uint32_t) {}
  GQ_HD GQ_INLINE void tri() {}
  GQ_HD GQ_INLINE void stack(int) {}
};
struct TraceCount {
  uint32_t nodes = 0, tris = 0, max_stack = 0;  // node rows fetched, triangles tested, deepest stack
  GQ_HD GQ_INLINE void node(uint32_t) { ++nodes; }
  GQ_HD GQ_INLINE void tri() { ++tris; }
  GQ_HD GQ_INLINE void stack(int sp) { max_stack = (uint32_t)sp > max_stack ? (uint32_t)sp : max_stack; }
};

template <bool kAny, class Count>
GQ_HD GQ_INLINE bool mesh_leaf(const MeshBvh& m, const WatertightRay& r, uint32_t ref, float tmin, TriHit& h,
                               Count& count) {
  const uint32_t first = leaf_first(ref), end = first + leaf_count(ref);
  for (uint32_t i = first; i < end; ++i) {
    float tri[kTriFloats];
    count.tri();
    load_words(m.tris + (uint64_t)i * kTriFloats, tri, kTriFloats / 4);
    h.consider(hit_triangle(r, tri, tmin), i, tri_row(tri));
    if (kAny && h.tri >= 0) return true;
  }
  return false;
}

// Closest (or, kAny, any) triangle hit with tmin < t < tmax (t == tmax is not a hit).
template <bool kAny, class Count>
GQ_HD GQ_INLINE TriHit mesh_trace(const MeshBvh& m, Vec3 o, Vec3 d, float tmin, float tmax, Count& count) {
  TriHit h{tmax, -1, 0xFFFFFFFFu};
  if (m.ntris == 0) return h;
  const WatertightRay r = watertight_ray(o, d);
  if (m.nnodes == 0) {
    for (uint32_t i = 0; i < m.ntris; ++i) {
      const float* tri = m.tris + (uint64_t)i * kTriFloats;
      count.tri();
      h.consider(hit_triangle(r, tri, tmin), i, tri_row(tri));
      if (kAny && h.tri >= 0) return h;
    }
    return h;
  }
  const SlabRay sr = slab_ray(o, d);
  uint32_t stack[kMeshStack];
  float entry[kMeshStack];
  int sp = 0;
  uint32_t node = 0;
#if RT_POSTPONE_LEAVES
  constexpr uint32_t kNoNode = 0xFFFFFFFFu;
  uint32_t leaves = 0, lref[kWideArity];
  for (;;) {
    // Node phase: inner nodes until this lane holds leaves or has none left. A lane leaves the
    // loop as soon as it holds leaves, and the warp's lanes meet again after it: the leaf phase
    // below runs for all of them together.
    while (node != kNoNode && leaves == 0) {
      float n[kWideReadFloats];
      count.node(node);
      load_words(m.nodes + (uint64_t)node * kWideNodeFloats, n, kWideReadFloats / 4);
      float t[kWideArity];
      uint32_t c[kWideArity];
      for (int k = 0; k < kWideArity; ++k) {
        t[k] = enter_wide(n, k, sr, h.t);
        c[k] = word_of(n[24 + k]);
        lref[k] = c[k];
        if (t[k] < kNoHitT && (c[k] & kMeshLeaf)) {
          leaves |= 1u << k;
          t[k] = kNoHitT;
        }
      }
      sort_pair(t[0], c[0], t[1], c[1]);
      sort_pair(t[2], c[2], t[3], c[3]);
      sort_pair(t[0], c[0], t[2], c[2]);
      sort_pair(t[1], c[1], t[3], c[3]);
      sort_pair(t[1], c[1], t[2], c[2]);
      for (int k = kWideArity - 1; k >= 1; --k)
        if (t[k] < kNoHitT) {  // enter_wide already bounded the entry by the best hit
          stack[sp] = c[k];
          entry[sp++] = t[k];
        }
      count.stack(sp);
      if (t[0] < kNoHitT) {
        node = c[0];
        continue;
      }
      node = kNoNode;
      while (sp > 0) {
        --sp;
        if (entry[sp] <= h.t) {
          node = stack[sp];
          break;
        }
      }
    }
    if (leaves == 0) return h;
    // Leaf phase: one copy of the triangle loop for all four slots (a register array is indexed
    // only by constants: the slot is picked by compares).
    while (leaves) {
      const uint32_t ref = (leaves & 1u) ? lref[0] : (leaves & 2u) ? lref[1] : (leaves & 4u) ? lref[2] : lref[3];
      leaves &= leaves - 1u;
      if (mesh_leaf<kAny>(m, r, ref, tmin, h, count)) return h;
    }
  }
#else
  for (;;) {
    float n[kWideReadFloats];
    count.node(node);
    load_words(m.nodes + (uint64_t)node * kWideNodeFloats, n, kWideReadFloats / 4);
    float t[kWideArity];
    uint32_t c[kWideArity];
    uint32_t leaves = 0;
    for (int k = 0; k < kWideArity; ++k) {
      t[k] = enter_wide(n, k, sr, h.t);
      c[k] = word_of(n[24 + k]);
      if (t[k] < kNoHitT && (c[k] & kMeshLeaf)) {
        leaves |= 1u << k;
        t[k] = kNoHitT;  // a leaf is tested now and never pushed
      }
    }
    // One copy of the triangle loop for all four slots (a register array is indexed only by
    // constants: the slot is picked by compares).
    while (leaves) {
      const uint32_t ref = (leaves & 1u) ? c[0] : (leaves & 2u) ? c[1] : (leaves & 4u) ? c[2] : c[3];
      leaves &= leaves - 1u;
      if (mesh_leaf<kAny>(m, r, ref, tmin, h, count)) return h;
    }
    // The inner children hit, nearest first: a sorting network on (t, ref), then the farther
    // ones wait on the stack, farthest deepest.
    sort_pair(t[0], c[0], t[1], c[1]);
    sort_pair(t[2], c[2], t[3], c[3]);
    sort_pair(t[0], c[0], t[2], c[2]);
    sort_pair(t[1], c[1], t[3], c[3]);
    sort_pair(t[1], c[1], t[2], c[2]);
    if (t[0] < kNoHitT) {
      for (int k = kWideArity - 1; k >= 1; --k)
        if (t[k] < kNoHitT && t[k] <= h.t) {
          stack[sp] = c[k];
          entry[sp++] = t[k];
        }
      count.stack(sp);
      node = c[0];
      continue;
    }
    // The next pending node that may still hold a hit at or before the best one (its box was
    // entered at `entry` before the best hit shrank).
    for (;;) {
      if (sp == 0) return h;
      --sp;
      if (entry[sp] <= h.t) break;
    }
    node = stack[sp];
  }
#endif
}

template <bool kAny>
GQ_HD GQ_INLINE TriHit mesh_trace(const MeshBvh& m, Vec3 o, Vec3 d, float tmin, float tmax) {
  NoTraceCount none;
  return mesh_trace<kAny>(m, o, d, tmin, tmax, none);
}

}  // namespace rt
