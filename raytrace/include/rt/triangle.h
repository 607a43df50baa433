// rt/triangle.h — watertight ray/triangle intersection (Woop, Benthin and Wald, "Watertight
// Ray/Triangle Intersection", JCGT 2013).
//
// The ray is turned into a shear that maps its direction onto the +z axis of a permuted frame;
// the triangle's vertices, taken relative to the ray origin and sheared, are tested with 2D edge
// functions. A point on an edge shared by two triangles gets edge-function values of opposite
// sign from the two (they evaluate the same products in the same order), so a ray through a
// shared edge or vertex hits at least one of them: no cracks. Exact zeros are re-evaluated in
// double precision, as the paper prescribes, so the sign decision is never a rounding artefact.
//
// A triangle is one row of kTriFloats floats (raytrace/meshes.py):
//   v0(3), v1(3), v2(3), scene row (uint32 bits), object id (uint32 bits), face in its mesh (bits).
// The scene row is the triangle's position in Scene.triangles; it breaks ties between equal hit
// distances, so every build of the hierarchy and the brute-force loop report the same triangle.
#pragma once
#include "vec.h"

namespace rt {

constexpr int kTriFloats = 12;

GQ_HD GQ_INLINE float axis_of(Vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

GQ_HD GQ_INLINE uint32_t word_of(float f) {
  union { float f; uint32_t u; } b;
  b.f = f;
  return b.u;
}
GQ_HD GQ_INLINE uint32_t tri_word(const float* tri, int k) { return word_of(tri[k]); }
GQ_HD GQ_INLINE uint32_t tri_row(const float* tri) { return tri_word(tri, 9); }
GQ_HD GQ_INLINE uint32_t tri_object(const float* tri) { return tri_word(tri, 10); }
GQ_HD GQ_INLINE uint32_t tri_face(const float* tri) { return tri_word(tri, 11); }

// Per-ray constants: the permutation (kx, ky, kz) with kz the dominant axis of d, and the shear.
struct WatertightRay {
  Vec3 o;
  int kx, ky, kz;
  float sx, sy, sz;
};

GQ_HD GQ_INLINE WatertightRay watertight_ray(Vec3 o, Vec3 d) {
  WatertightRay r;
  r.o = o;
  const float ax = fabsf(d.x), ay = fabsf(d.y), az = fabsf(d.z);
  r.kz = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2);
  r.kx = r.kz == 2 ? 0 : r.kz + 1;
  r.ky = r.kx == 2 ? 0 : r.kx + 1;
  const float dz = axis_of(d, r.kz);
  if (dz < 0.0f) {  // keep the winding: a mirrored frame would flip every edge function's sign
    const int t = r.kx;
    r.kx = r.ky;
    r.ky = t;
  }
  r.sx = axis_of(d, r.kx) / dz;
  r.sy = axis_of(d, r.ky) / dz;
  r.sz = 1.0f / dz;
  return r;
}

// Ray parameter t > tmin of the hit, or kNoHitT when the ray misses (or the triangle is edge-on).
constexpr float kNoHitT = 3.0e38f;  // rt/shapes.h kNoHit

GQ_HD GQ_INLINE float hit_triangle(const WatertightRay& r, const float* tri, float tmin) {
  const Vec3 a = load3(tri) - r.o, b = load3(tri + 3) - r.o, c = load3(tri + 6) - r.o;
  const float az = axis_of(a, r.kz), bz = axis_of(b, r.kz), cz = axis_of(c, r.kz);
  const float ax = axis_of(a, r.kx) - r.sx * az, ay = axis_of(a, r.ky) - r.sy * az;
  const float bx = axis_of(b, r.kx) - r.sx * bz, by = axis_of(b, r.ky) - r.sy * bz;
  const float cx = axis_of(c, r.kx) - r.sx * cz, cy = axis_of(c, r.ky) - r.sy * cz;
  float u = cx * by - cy * bx;
  float v = ax * cy - ay * cx;
  float w = bx * ay - by * ax;
  if (u == 0.0f || v == 0.0f || w == 0.0f) {
    // On an edge in float: decide in double, where these products are exact.
    u = (float)((double)cx * (double)by - (double)cy * (double)bx);
    v = (float)((double)ax * (double)cy - (double)ay * (double)cx);
    w = (float)((double)bx * (double)ay - (double)by * (double)ax);
  }
  if ((u < 0.0f || v < 0.0f || w < 0.0f) && (u > 0.0f || v > 0.0f || w > 0.0f)) return kNoHitT;
  const float det = u + v + w;
  if (det == 0.0f) return kNoHitT;
  const float tscaled = u * (r.sz * az) + v * (r.sz * bz) + w * (r.sz * cz);
  const float t = tscaled / det;
  return t > tmin ? t : kNoHitT;
}

// Unit geometric normal (orientation not yet facing the ray).
GQ_HD GQ_INLINE Vec3 triangle_normal(const float* tri) {
  const Vec3 v0 = load3(tri);
  return normalize(cross(load3(tri + 3) - v0, load3(tri + 6) - v0));
}

}  // namespace rt
