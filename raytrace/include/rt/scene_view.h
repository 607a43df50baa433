// rt/scene_view.h — the scene as the kernels see it: flat float arrays made by raytrace/scene.py,
// and the two queries every renderer asks: the closest hit, and "is this segment blocked?".
//
// With a BVH (rt/bvh.h) the queries visit only the primitives whose boxes the ray enters; without
// one (nnodes = nunbounded = 0, the reference mode) they test every primitive in array order, so
// the type switch is warp-uniform. Both give the same hit.
#pragma once
#include "bvh.h"

namespace rt {

struct SceneView {
  const float* prims;      // [nprims][kPrimFloats]
  const float* materials;  // [m][4]: diffuse r, g, b, reflectivity
  const float* lights;     // [nlights][6]: position, intensity
  uint32_t nprims, nlights;
  Vec3 background, ambient;
  Bvh bvh;
};

struct Hit {
  float t;       // kNoHit when nothing was hit
  int32_t prim;  // -1 when nothing was hit
};

GQ_HD GQ_INLINE bool has_bvh(const SceneView& s) { return s.bvh.nnodes + s.bvh.nunbounded > 0; }

GQ_HD GQ_INLINE Hit closest_hit(const SceneView& s, Vec3 o, Vec3 d, float tmin) {
  if (has_bvh(s)) {
    const BvhHit b = bvh_trace<false>(s.bvh, s.prims, o, d, tmin, kNoHit);
    return Hit{b.t, b.prim};
  }
  Hit h{kNoHit, -1};
  for (uint32_t i = 0; i < s.nprims; ++i) {
    const float t = hit_prim(s.prims + i * kPrimFloats, o, d, tmin);
    if (t < h.t) {
      h.t = t;
      h.prim = (int32_t)i;
    }
  }
  return h;
}

// Shadow query (pbrt's IntersectP): any hit with tmin < t < tmax.
GQ_HD GQ_INLINE bool occluded(const SceneView& s, Vec3 o, Vec3 d, float tmin, float tmax) {
  if (has_bvh(s)) return bvh_trace<true>(s.bvh, s.prims, o, d, tmin, tmax).prim >= 0;
  for (uint32_t i = 0; i < s.nprims; ++i)
    if (hit_prim(s.prims + i * kPrimFloats, o, d, tmin) < tmax) return true;
  return false;
}

}  // namespace rt
