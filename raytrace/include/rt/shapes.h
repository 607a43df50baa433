// rt/shapes.h — ray intersection for each primitive type of a scene (raytrace/scene.py).
//
// A primitive is one row of 12 floats: type, material, then the shape's parameters:
//   sphere: centre(3), radius          plane: unit normal(3), offset d with dot(n, p) = d
//   box:    min(3), max(3)             quad:  corner(3), edge u(3), edge v(3) (two-sided)
// Each `hit_*` returns the ray parameter t > tmin of the nearest intersection, or kNoHit.
// Rays have unit-length directions, so t is a distance.
#pragma once
#include "vec.h"

namespace rt {

// kMesh: a mesh's row; its triangles live in the triangle arrays (rt/mesh_bvh.h), the row itself
// is never hit.
enum PrimType : int { kSphere = 0, kPlane = 1, kBox = 2, kQuad = 3, kMesh = 4 };
constexpr int kPrimFloats = 12;
constexpr float kNoHit = 3.0e38f;

GQ_HD GQ_INLINE float hit_sphere(const float* p, Vec3 o, Vec3 d, float tmin) {
  const Vec3 c = load3(p + 2);
  const float r = p[5];
  const Vec3 oc = o - c;
  const float b = dot(oc, d);
  // r^2 - |oc - b d|^2 rather than b^2 - (|oc|^2 - r^2): no cancellation for small, far spheres.
  const Vec3 v = oc - d * b;
  const float disc = r * r - dot(v, v);
  if (disc < 0.0f) return kNoHit;
  const float s = sqrtf(disc);
  const float t0 = -b - s;
  if (t0 > tmin) return t0;
  const float t1 = -b + s;
  return t1 > tmin ? t1 : kNoHit;
}

GQ_HD GQ_INLINE float hit_plane(const float* p, Vec3 o, Vec3 d, float tmin) {
  const Vec3 n = load3(p + 2);
  const float denom = dot(n, d);
  if (fabsf(denom) < 1e-12f) return kNoHit;
  const float t = (p[5] - dot(n, o)) / denom;
  return t > tmin ? t : kNoHit;
}

// Slab test. A zero direction component gives infinite slab distances, which fminf/fmaxf order
// correctly; the NaN of an origin exactly on a slab face is dropped by fminf/fmaxf.
GQ_HD GQ_INLINE float hit_box(const float* p, Vec3 o, Vec3 d, float tmin) {
  const float lo[3] = {p[2], p[3], p[4]}, hi[3] = {p[5], p[6], p[7]};
  const float org[3] = {o.x, o.y, o.z}, dir[3] = {d.x, d.y, d.z};
  float tnear = -kNoHit, tfar = kNoHit;
  for (int a = 0; a < 3; ++a) {
    const float inv = 1.0f / dir[a];
    const float t0 = (lo[a] - org[a]) * inv, t1 = (hi[a] - org[a]) * inv;
    tnear = fmaxf(tnear, fminf(t0, t1));
    tfar = fminf(tfar, fmaxf(t0, t1));
  }
  if (tfar < tnear) return kNoHit;
  if (tnear > tmin) return tnear;
  return tfar > tmin ? tfar : kNoHit;  // the origin is inside the box
}

GQ_HD GQ_INLINE float hit_quad(const float* p, Vec3 o, Vec3 d, float tmin) {
  const Vec3 c = load3(p + 2), u = load3(p + 5), v = load3(p + 8);
  const Vec3 n = cross(u, v);
  const float denom = dot(n, d);
  if (fabsf(denom) < 1e-12f) return kNoHit;
  const float t = dot(n, c - o) / denom;
  if (!(t > tmin)) return kNoHit;
  const Vec3 w = o + d * t - c;
  const float nn = dot(n, n);
  const float a = dot(cross(w, v), n) / nn, b = dot(cross(u, w), n) / nn;
  return (a >= 0.0f && a <= 1.0f && b >= 0.0f && b <= 1.0f) ? t : kNoHit;
}

GQ_HD GQ_INLINE float hit_prim(const float* p, Vec3 o, Vec3 d, float tmin) {
  switch ((int)p[0]) {
    case kSphere: return hit_sphere(p, o, d, tmin);
    case kPlane: return hit_plane(p, o, d, tmin);
    case kBox: return hit_box(p, o, d, tmin);
    case kMesh: return kNoHit;
    default: return hit_quad(p, o, d, tmin);
  }
}

// Unit geometric normal at point x on the primitive (orientation not yet facing the ray).
GQ_HD GQ_INLINE Vec3 prim_normal(const float* p, Vec3 x) {
  switch ((int)p[0]) {
    case kSphere: return (x - load3(p + 2)) * (1.0f / p[5]);
    case kPlane: return load3(p + 2);
    case kBox: {
      const Vec3 lo = load3(p + 2), hi = load3(p + 5);
      const Vec3 c = (lo + hi) * 0.5f, h = (hi - lo) * 0.5f, l = x - c;
      const float ax = fabsf(l.x / h.x), ay = fabsf(l.y / h.y), az = fabsf(l.z / h.z);
      if (ax >= ay && ax >= az) return vec3(l.x > 0.0f ? 1.0f : -1.0f, 0.0f, 0.0f);
      if (ay >= az) return vec3(0.0f, l.y > 0.0f ? 1.0f : -1.0f, 0.0f);
      return vec3(0.0f, 0.0f, l.z > 0.0f ? 1.0f : -1.0f);
    }
    default: return normalize(cross(load3(p + 5), load3(p + 8)));
  }
}

}  // namespace rt
