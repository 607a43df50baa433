// rt/scene_view.h — the scene as the kernels see it: flat float arrays made by raytrace/scene.py,
// and the two queries every renderer asks: the closest hit, and "is this segment blocked?".
//
// Primitives are tested in array order by every thread, so the type switch is warp-uniform.
#pragma once
#include "shapes.h"

namespace rt {

struct SceneView {
  const float* prims;      // [nprims][kPrimFloats]
  const float* materials;  // [m][4]: diffuse r, g, b, reflectivity
  const float* lights;     // [nlights][6]: position, intensity
  uint32_t nprims, nlights;
  Vec3 background, ambient;
};

struct Hit {
  float t;       // kNoHit when nothing was hit
  int32_t prim;  // -1 when nothing was hit
};

GQ_HD GQ_INLINE Hit closest_hit(const SceneView& s, Vec3 o, Vec3 d, float tmin) {
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
  for (uint32_t i = 0; i < s.nprims; ++i)
    if (hit_prim(s.prims + i * kPrimFloats, o, d, tmin) < tmax) return true;
  return false;
}

}  // namespace rt
