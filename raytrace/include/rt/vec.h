// rt/vec.h — three-float vectors for the renderer, the same on both builds (host and device).
// Plain IEEE float arithmetic only: no fast-math intrinsics, so the CPU and GPU builds differ
// only where the GPU compiler contracts a*b+c into one rounding (FMA).
#pragma once
#include <gq/arch.cuh>

#if !GQ_DEVICE_BUILD
#include <math.h>
#endif

namespace rt {

struct Vec3 {
  float x, y, z;
};

GQ_HD GQ_INLINE Vec3 vec3(float x, float y, float z) { return Vec3{x, y, z}; }
GQ_HD GQ_INLINE Vec3 operator+(Vec3 a, Vec3 b) { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }
GQ_HD GQ_INLINE Vec3 operator-(Vec3 a, Vec3 b) { return Vec3{a.x - b.x, a.y - b.y, a.z - b.z}; }
GQ_HD GQ_INLINE Vec3 operator-(Vec3 a) { return Vec3{-a.x, -a.y, -a.z}; }
GQ_HD GQ_INLINE Vec3 operator*(Vec3 a, float s) { return Vec3{a.x * s, a.y * s, a.z * s}; }
GQ_HD GQ_INLINE Vec3 operator*(float s, Vec3 a) { return a * s; }
// Component-wise product: colour times colour.
GQ_HD GQ_INLINE Vec3 operator*(Vec3 a, Vec3 b) { return Vec3{a.x * b.x, a.y * b.y, a.z * b.z}; }
GQ_HD GQ_INLINE float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
GQ_HD GQ_INLINE Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
GQ_HD GQ_INLINE float length(Vec3 a) { return sqrtf(dot(a, a)); }
GQ_HD GQ_INLINE Vec3 normalize(Vec3 a) { return a * (1.0f / length(a)); }
GQ_HD GQ_INLINE float max_abs(Vec3 a) { return fmaxf(fabsf(a.x), fmaxf(fabsf(a.y), fabsf(a.z))); }
// Mirror direction of d about the unit normal n.
GQ_HD GQ_INLINE Vec3 reflect(Vec3 d, Vec3 n) { return d - n * (2.0f * dot(d, n)); }

// Finite test on the bits (no libm dependence, same answer on both builds).
GQ_HD GQ_INLINE bool finite(float v) {
  union { float f; uint32_t u; } b;
  b.f = v;
  return (b.u & 0x7f800000u) != 0x7f800000u;
}
GQ_HD GQ_INLINE bool finite(Vec3 v) { return finite(v.x) && finite(v.y) && finite(v.z); }

GQ_HD GQ_INLINE Vec3 load3(const float* p) { return Vec3{p[0], p[1], p[2]}; }

}  // namespace rt
