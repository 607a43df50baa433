// rt/scene_view.h — the scene as the kernels see it: flat float arrays made by raytrace/scene.py,
// and the two queries every renderer asks: the closest hit, and "is this segment blocked?".
//
// With a BVH (rt/bvh.h) the queries visit only the primitives whose boxes the ray enters; without
// one (nnodes = nunbounded = 0, the reference mode) they test every primitive in array order, so
// the type switch is warp-uniform. Both give the same hit.
//
// Triangles (meshes) sit in their own hierarchy (rt/mesh_bvh.h). A mesh's row in `prims` carries
// its material and object id; a triangle hit reports that row as `prim` and the triangle's row
// as `tri`. Mesh rows come after every other row, and a triangle must be strictly closer to win,
// so a tie goes to the lower object id as in the linear scan.
#pragma once
#include "bvh.h"
#include "mesh_bvh.h"

namespace rt {

struct SceneView {
  const float* prims;      // [nprims][kPrimFloats]
  const float* materials;  // [m][4]: diffuse r, g, b, reflectivity
  const float* lights;     // [nlights][6]: position, intensity
  uint32_t nprims, nlights;
  Vec3 background, ambient;
  Bvh bvh;
  MeshBvh mesh;
};

struct Hit {
  float t;       // kNoHit when nothing was hit
  int32_t prim;  // -1 when nothing was hit
  int32_t tri;   // row of the triangle hit in mesh.tris, -1 when the hit is not a triangle
};

GQ_HD GQ_INLINE bool has_bvh(const SceneView& s) { return s.bvh.nnodes + s.bvh.nunbounded > 0; }

// Both queries a renderer asks. any = false: the closest hit beyond tmin (tmax = kNoHit). any =
// true, a shadow ray (pbrt's IntersectP): whether anything lies in (tmin, tmax); prim >= 0 then
// says blocked, and which hit is reported is not the closest. The tile renderer calls it from one
// place with `any` decided at run time, so its kernel holds one copy of the traversal instead of
// one per query: its hot code held both and waited on instruction fetches (tools/sass_footprint.py,
// runs 142-148; rt/whitted.h: advance_path). closest_hit and occluded below are the same queries
// with the flag fixed.
GQ_HD GQ_INLINE Hit query(const SceneView& s, Vec3 o, Vec3 d, float tmin, float tmax, bool any) {
  Hit h{tmax, -1, -1};
  if (has_bvh(s)) {
    const BvhHit b = bvh_trace(s.bvh, s.prims, o, d, tmin, tmax, any);
    h.t = b.t;
    h.prim = b.prim;
  } else {
    for (uint32_t i = 0; i < s.nprims; ++i) {
      const float t = hit_prim(s.prims + i * kPrimFloats, o, d, tmin);
      if (t < h.t) {
        h.t = t;
        h.prim = (int32_t)i;
        if (any) return h;
      }
    }
  }
  if (s.mesh.ntris == 0 || (any && h.prim >= 0)) return h;
  const TriHit th = any ? mesh_trace<true>(s.mesh, o, d, tmin, tmax) : mesh_trace<false>(s.mesh, o, d, tmin, h.t);
  if (th.tri >= 0) {
    h.t = th.t;
    h.tri = th.tri;
    h.prim = (int32_t)tri_object(s.mesh.tris + (uint64_t)th.tri * kTriFloats);
  }
  return h;
}

// The two queries with the flag fixed, each its own copy of the traversal: the compaction
// kernel's (rt/whitted.h: advance_path<false>). Kept as they were before query existed, so that
// its code stays what it was (run 150: the same SASS but for one store's place): built on query
// instead, the compaction kernel ran spheres100 in 3.09 ms against 2.68 (run 149).
GQ_HD GQ_INLINE Hit with_triangles(const SceneView& s, Hit h, Vec3 o, Vec3 d, float tmin) {
  if (s.mesh.ntris == 0) return h;
  const TriHit th = mesh_trace<false>(s.mesh, o, d, tmin, h.t);
  if (th.tri >= 0) {
    h.t = th.t;
    h.tri = th.tri;
    h.prim = (int32_t)tri_object(s.mesh.tris + (uint64_t)th.tri * kTriFloats);
  }
  return h;
}

GQ_HD GQ_INLINE Hit closest_hit(const SceneView& s, Vec3 o, Vec3 d, float tmin) {
  if (has_bvh(s)) {
    const BvhHit b = bvh_trace(s.bvh, s.prims, o, d, tmin, kNoHit, AnyHit<false>{});
    return with_triangles(s, Hit{b.t, b.prim, -1}, o, d, tmin);
  }
  Hit h{kNoHit, -1, -1};
  for (uint32_t i = 0; i < s.nprims; ++i) {
    const float t = hit_prim(s.prims + i * kPrimFloats, o, d, tmin);
    if (t < h.t) {
      h.t = t;
      h.prim = (int32_t)i;
    }
  }
  return with_triangles(s, h, o, d, tmin);
}

// Shadow query (pbrt's IntersectP): any hit with tmin < t < tmax.
GQ_HD GQ_INLINE bool occluded(const SceneView& s, Vec3 o, Vec3 d, float tmin, float tmax) {
  if (has_bvh(s)) {
    if (bvh_trace(s.bvh, s.prims, o, d, tmin, tmax, AnyHit<true>{}).prim >= 0) return true;
  } else {
    for (uint32_t i = 0; i < s.nprims; ++i)
      if (hit_prim(s.prims + i * kPrimFloats, o, d, tmin) < tmax) return true;
  }
  return s.mesh.ntris > 0 && mesh_trace<true>(s.mesh, o, d, tmin, tmax).tri >= 0;
}

}  // namespace rt
