// rt/whitted.h — Whitted-style shading, one path segment at a time.
//
// A pixel owns one PathState in the ray pool. Its samples are traced one after another, and each
// sample is a chain of segments: the primary ray, then up to max_depth mirror reflections. Every
// renderer (stream compaction, tile queues; CPU, GPU) moves a pixel forward by calling
// advance_path on its state, so a pixel's arithmetic — and the order in which its contributions
// are summed — is the same whichever renderer schedules it. That is what makes the queue renders
// equal the compaction baseline bit for bit.
//
// Radiance at a hit with diffuse colour rho and reflectivity k (scenes/README.md):
//   L = rho * ambient + rho / pi * sum_lights I * max(0, cos) / dist^2  [unoccluded lights]
//       + k * L(mirror direction)
// and a ray that hits nothing returns the background.
#pragma once
#include "camera.h"
#include "sampling.h"
#include "scene_view.h"

namespace rt {

// 64 bytes, four 16-byte words: one path's whole state between segments.
struct alignas(16) PathState {
  Vec3 origin;
  uint32_t sample;     // the sample being traced (== spp once the pixel is finished)
  Vec3 dir;
  uint32_t depth;      // 0: the next segment is sample `sample`'s primary ray
  Vec3 throughput;     // product of the reflectivities along the current sample
  uint32_t nonfinite;  // contributions dropped because they were NaN or infinite
  Vec3 radiance;       // sum of the finished and current samples' contributions
  float unused;
};
static_assert(sizeof(PathState) == 64, "PathState is four 16-byte words");

struct RenderParams {
  SceneView scene;
  Camera cam;
  uint32_t width, height, spp, max_depth;
};

// Rays traced by one worker, by type (reported per render; summed by the host).
struct RayCounts {
  uint64_t primary, reflection, shadow;
};

constexpr float kInvPi = 0.31830988618379067f;

// Where a secondary ray starts: off the surface along the normal facing the incoming ray, by a
// distance that grows with the magnitude of the coordinates (float spacing grows the same way).
GQ_HD GQ_INLINE Vec3 offset_origin(Vec3 x, Vec3 n_facing) {
  return x + n_facing * (1e-4f * fmaxf(1.0f, max_abs(x)));
}

GQ_HD GQ_INLINE PathState fresh_path() {
  PathState st{};
  st.throughput = vec3(1.0f, 1.0f, 1.0f);
  return st;
}

// The next light that faces the surface at o (normal n), from light `k` on: its index, and the
// shadow ray towards it (direction, distance, cosine, squared distance); s.nlights when none.
// A light behind the surface needs no ray.
struct ShadowRay {
  uint32_t light;
  Vec3 dir;
  float dist, cosine, dist2;
};
GQ_HD GQ_INLINE ShadowRay next_shadow_ray(const SceneView& s, Vec3 o, Vec3 n, uint32_t k) {
  for (; k < s.nlights; ++k) {
    const Vec3 to = load3(s.lights + 6 * k) - o;
    const float dist2 = dot(to, to);
    const float dist = sqrtf(dist2);
    const Vec3 dir = to * (1.0f / dist);
    const float cosine = dot(n, dir);
    if (cosine > 0.0f) return ShadowRay{k, dir, dist, cosine, dist2};
  }
  return ShadowRay{s.nlights, Vec3{}, 0.0f, 0.0f, 0.0f};
}

// Direct light at x (facing normal n) from every point light, shadow rays included: the
// two-traversal path's (advance_path<false>), its shadow rays a query of their own. The loop
// is next_shadow_ray's written out: through next_shadow_ray the compaction kernel compiled to
// other code (64 more SASS instructions, not timed), and it is kept as it was measured.
GQ_HD GQ_INLINE Vec3 direct_light(const SceneView& s, Vec3 x, Vec3 n, RayCounts& c) {
  Vec3 sum = vec3(0.0f, 0.0f, 0.0f);
  const Vec3 o = offset_origin(x, n);
  for (uint32_t k = 0; k < s.nlights; ++k) {
    const float* l = s.lights + 6 * k;
    const Vec3 to = load3(l) - o;
    const float dist2 = dot(to, to);
    const float dist = sqrtf(dist2);
    const Vec3 dir = to * (1.0f / dist);
    const float cosine = dot(n, dir);
    if (!(cosine > 0.0f)) continue;  // the light is behind the surface: no ray needed
    ++c.shadow;
    if (occluded(s, o, dir, 0.0f, dist)) continue;
    sum = sum + load3(l + 3) * (cosine / dist2);
  }
  return sum;
}

// What the segment's ray hit (h.prim >= 0): the material's diffuse colour and reflectivity, the
// point, and the normal turned to face the ray.
struct Surface {
  Vec3 rho;
  float reflectivity;
  Vec3 x, n;
};
GQ_HD GQ_INLINE Surface surface_at(const SceneView& s, const PathState& st, const Hit& h) {
  const float* prim = s.prims + h.prim * kPrimFloats;
  const float* m = s.materials + 4 * (int)prim[1];
  Surface f{load3(m), m[3], st.origin + st.dir * h.t, {}};
  f.n = h.tri >= 0 ? triangle_normal(s.mesh.tris + (uint64_t)h.tri * kTriFloats) : prim_normal(prim, f.x);
  if (dot(f.n, st.dir) > 0.0f) f.n = -f.n;
  return f;
}

// What a segment left for the pixel to do.
enum Next : int {
  kReflect = 0,     // trace the mirror reflection of this sample next
  kNextSample = 1,  // this sample is done; the next one's primary ray comes next
  kPixelDone = 2,   // this sample was the pixel's last
};

// Trace one segment of the path and say what comes next.
//
// kOneTraversal (the default; the tile renderer's): the segment's ray and its shadow rays go
// through one call of query with a runtime any-hit flag, so the kernel holds one copy of the
// traversal; the tile kernel's hot code had overflowed the SM's instruction caches (run 148,
// G-LFQ 2x2: spheres100 4.31 -> 3.57 ms, cornell 1.10 -> 0.93). false (the compaction kernel's):
// the segment's ray by one query and each shadow ray by another (direct_light), the flag constant
// in each, two specialised copies, as before run 148. The compaction kernel's hot code fits either
// way, and on spheres100 both the one runtime-flag copy (3.32-3.41 ms) and the single loop with the
// flag constant (3.09 ms) ran slower for it than this (2.68-2.74 ms; runs 148-149). The floating-
// point operations are the same either way, so the images are too (the GPU tests compare the two
// renderers bit for bit).
template <bool kOneTraversal = true>
GQ_HD GQ_INLINE Next advance_path(const RenderParams& p, PathState& st, uint32_t pixel, RayCounts& c) {
  if (st.depth == 0) {
    float fx, fy;
    sample_offset(pixel, st.sample, strata_for(p.spp), &fx, &fy);
    const float u = ((float)(pixel % p.width) + fx) / (float)p.width;
    const float v = ((float)(pixel / p.width) + fy) / (float)p.height;
    st.origin = p.cam.eye;
    st.dir = p.cam.direction(u, v);
    st.throughput = vec3(1.0f, 1.0f, 1.0f);
    ++c.primary;
  } else {
    ++c.reflection;
  }
  const SceneView& s = p.scene;
  Hit h{};
  Vec3 contribution, x{}, n{}, o{};
  float reflectivity = 0.0f;
  if constexpr (kOneTraversal) {
    // The segment's ray, then a shadow ray to each light that faces the hit, all through one
    // call of query. Direct light at the hit x (normal n facing the ray) sums I * cos / dist^2
    // over the unblocked lights, in light order, as direct_light does.
    Vec3 rho{}, d = st.dir, direct = vec3(0.0f, 0.0f, 0.0f);
    float tmax = kNoHit;
    ShadowRay shadow{};
    bool shadowing = false;  // the query in hand is shadow ray `shadow`
    o = st.origin;
    for (;;) {
      const Hit q = query(s, o, d, 0.0f, tmax, shadowing);
      if (!shadowing) {
        h = q;
        if (h.prim < 0) break;
        const Surface f = surface_at(s, st, h);
        rho = f.rho;
        reflectivity = f.reflectivity;
        x = f.x;
        n = f.n;
        o = offset_origin(x, n);
        shadow.light = 0;
      } else {
        if (q.prim < 0) direct = direct + load3(s.lights + 6 * shadow.light + 3) * (shadow.cosine / shadow.dist2);
        ++shadow.light;
      }
      shadow = next_shadow_ray(s, o, n, shadow.light);
      if (shadow.light == s.nlights) break;
      ++c.shadow;
      shadowing = true;
      d = shadow.dir;
      tmax = shadow.dist;
    }
    contribution = h.prim < 0 ? st.throughput * s.background
                              : st.throughput * (rho * s.ambient + rho * direct * kInvPi);
  } else {
    h = closest_hit(s, st.origin, st.dir, 0.0f);
    if (h.prim < 0) {
      contribution = st.throughput * s.background;
    } else {
      const Surface f = surface_at(s, st, h);
      reflectivity = f.reflectivity;
      x = f.x;
      n = f.n;
      const Vec3 diffuse = f.rho * s.ambient + f.rho * direct_light(s, x, n, c) * kInvPi;
      contribution = st.throughput * diffuse;
    }
  }
  if (finite(contribution)) {
    st.radiance = st.radiance + contribution;
  } else {
    ++st.nonfinite;
  }
  if (h.prim >= 0 && reflectivity > 0.0f && st.depth < p.max_depth) {
    st.throughput = st.throughput * reflectivity;
    st.origin = kOneTraversal ? o : offset_origin(x, n);  // o is offset_origin(x, n)
    st.dir = normalize(reflect(st.dir, n));
    ++st.depth;
    return kReflect;
  }
  st.depth = 0;
  ++st.sample;
  return st.sample < p.spp ? kNextSample : kPixelDone;
}

// First-hit outputs at the pixel centre: distance along the ray (kNoHit -> the host writes inf),
// the normal facing the camera (zero on a miss), the primitive's row (-1 on a miss; a mesh's row
// for a triangle) and, for a triangle, its face index in its mesh (-1 otherwise).
GQ_HD GQ_INLINE void first_hit_aov(const RenderParams& p, uint32_t pixel, float* depth, float* normal, int32_t* id,
                                   int32_t* face) {
  const float u = ((float)(pixel % p.width) + 0.5f) / (float)p.width;
  const float v = ((float)(pixel / p.width) + 0.5f) / (float)p.height;
  const Vec3 d = p.cam.direction(u, v);
  const Hit h = closest_hit(p.scene, p.cam.eye, d, 0.0f);
  Vec3 n = vec3(0.0f, 0.0f, 0.0f);
  int32_t f = -1;
  if (h.tri >= 0) {
    const float* tri = p.scene.mesh.tris + (uint64_t)h.tri * kTriFloats;
    n = triangle_normal(tri);
    f = (int32_t)tri_face(tri);
  } else if (h.prim >= 0) {
    n = prim_normal(p.scene.prims + h.prim * kPrimFloats, p.cam.eye + d * h.t);
  }
  if (dot(n, d) > 0.0f) n = -n;
  depth[pixel] = h.t;
  normal[3 * pixel] = n.x;
  normal[3 * pixel + 1] = n.y;
  normal[3 * pixel + 2] = n.z;
  id[pixel] = h.prim;
  face[pixel] = f;
}

}  // namespace rt
