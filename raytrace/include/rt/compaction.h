// rt/compaction.h — the stream-compaction wavefront baseline (Wald, "Active thread compaction
// for GPU path tracing", HPG 2011; the seed paper's comparison).
//
// Per wave, every active path advances one segment; the survivors are compacted into the next
// wave's list by a warp-aggregated append (one atomic per warp, WaveFAA of the queue layer), and
// the next wave starts over the dense list. No host round trip between waves: the host launches
// an upper bound of spp * (max_depth + 1) waves, and a wave whose list is empty costs one launch.
//
// Two departures from one wave per segment, both kept because they won on the H200 (run 15,
// benchmarks/results/2026-11-29-h200-run15-mesh-ab.json: terrain1m, 1920x1080, 4 spp, primary
// rays, SAH tree; alone 2,415 -> 2,634 and 2,485 MRays/s, together with the warp fetch of
// kernels/render.cu and the postponed leaves of rt/mesh_bvh.h 4,083). No pixel changes, since
// each pixel still runs the same advance_path calls in the same order:
//   An item that finishes a sample goes straight on to the pixel's next sample in the same wave
//     instead of waiting for the next one: a primary-ray render needs one wave instead of spp,
//     so the path state crosses memory and the list once per pixel instead of once per sample
//     (64 B read + 64 B written + 8 B of list and an append, per sample); a sample that reflects
//     still waits for the next wave.
//   The first wave reads neither a list nor a path state: item i is pixel blocked_pixel(i)
//     (rt/pixel_order.h) and its state is fresh_path(), a constant, so the initialisation writes
//     no list and no pool (the first wave writes every pixel's state).
//
// `gq bench render` measured spheres100 (1920x1080, 4 spp, BVH) at 11.8 G rays/s at 0ac5b0a
// (run 16), before these two, the warp fetch and the postponed leaves became the code, and at
// 8.4 G after (6bfdec7); the mesh A/B had timed primary rays only. The sphere-scene A/B of
// tools/gpu_render_ab.py (run 21) found the cause: the pixel's next sample had its own call site,
// so advance_path was inlined twice and rt_wave's sm_90 code doubled (90 KB -> 175 KB). With one
// call site (the loop below) spheres100 renders at 12.6 G, cornell at 18.3 G, terrain1m's primary
// rays at 4.19 G (against 8.4, 14.7 and 4.12 G). Each change stays a compile-time switch for that
// A/B (raytrace/build.py kernel_variant builds them, for the CPU too, where the tests check them
// against the default). No switch changes a pixel:
//   RT_WAVE_SAMPLES=1 (default) — the pixel's next sample in the same wave, per lane: a lane
//     whose sample reflected waits at the end of the item while the warp's other lanes trace
//     up to spp - 1 more samples. 0 — one segment per item, as before run 15. 2 — a warp goes on
//     to its lanes' next samples only while every one of its lanes finished a sample that does
//     not reflect (a ballot): primary-ray renders keep the single wave, and a mirror no longer
//     holds a warp's other lanes (12.1 G on spheres100 in run 21, within 4 % of the default).
//   RT_FIRST_WAVE_FROM_INDEX=1 (default) — as above; 0: rt_paths_init writes the first list and
//     every fresh state, and the first wave reads them.
//   RT_WAVE_ONE_TRAVERSAL=0 (default) — advance_path with the closest-hit and shadow queries
//     specialised, two copies of the traversal (rt/whitted.h); 1: the tile renderer's one
//     runtime-flag copy (run 148: spheres100 2.74 -> 3.41 ms, cornell 0.81 -> 0.77).
#pragma once
#include <gq/wave_faa.cuh>
#include "pixel_order.h"
#include "whitted.h"

#ifndef RT_WAVE_SAMPLES
#define RT_WAVE_SAMPLES 1
#endif
#ifndef RT_FIRST_WAVE_FROM_INDEX
#define RT_FIRST_WAVE_FROM_INDEX 1
#endif
#ifndef RT_WAVE_ONE_TRAVERSAL
#define RT_WAVE_ONE_TRAVERSAL 0
#endif

namespace rt {

struct WaveLists {
  const uint32_t* in;        // this wave's pixels
  const uint64_t* in_count;  // how many
  uint32_t* out;             // the survivors, appended in any order
  uint64_t* out_count;
};

// Advance the path of `pixel`, whose state is st; store it and append the pixel to the next list
// while it has work left. `samples_done` counts finished samples (progress, and the same count
// the tile renderer ends on).
GQ_HD GQ_INLINE void wave_path(const RenderParams& p, PathState* pool, const WaveLists& w, uint32_t pixel,
                               PathState st, uint64_t* samples_done, RayCounts& c) {
#if RT_WAVE_SAMPLES == 2
  // The lanes that entered together stay together: each iteration's ballot is over all of them
  // and its answer is the same for every one, so all stop at once (on the host a warp is one
  // lane and this is the per-lane loop).
  const uint32_t group = gq::active_mask();
  Next next;
  for (;;) {
    next = advance_path<RT_WAVE_ONE_TRAVERSAL != 0>(p, st, pixel, c);
    if (gq::ballot(group, next == kNextSample) != group) break;
    gq::wave_faa<gq::mo::relaxed>(samples_done);
  }
#elif RT_WAVE_SAMPLES
  // The pixel's next sample, in this wave. One call site: advance_path is inlined once (two
  // doubled rt_wave's code and cost spheres100 a third of its speed, run 21).
  Next next;
  for (;;) {
    next = advance_path<RT_WAVE_ONE_TRAVERSAL != 0>(p, st, pixel, c);
    if (next != kNextSample) break;
    gq::wave_faa<gq::mo::relaxed>(samples_done);
  }
#else
  const Next next = advance_path<RT_WAVE_ONE_TRAVERSAL != 0>(p, st, pixel, c);
#endif
  pool[pixel] = st;
  if (next != kPixelDone) w.out[gq::wave_faa<gq::mo::relaxed>(w.out_count)] = pixel;  // the next launch orders these
  if (next != kReflect) gq::wave_faa<gq::mo::relaxed>(samples_done);
}

// Item i of a wave: the pixel the list names, with its stored state; or, from_index (the
// render's first wave), pixel blocked_pixel(i) with a fresh state. One call of
// wave_path either way, so the kernel holds one copy of advance_path.
GQ_HD GQ_INLINE void wave_item(const RenderParams& p, PathState* pool, const WaveLists& w, uint64_t i,
                               uint64_t* samples_done, RayCounts& c, bool from_index = false) {
  uint32_t pixel;
  PathState st;
  if (from_index) {
    pixel = blocked_pixel((uint32_t)i, p.width, p.height);
    st = fresh_path();
  } else {
    pixel = w.in[i];
    st = pool[pixel];
  }
  wave_path(p, pool, w, pixel, st, samples_done, c);
}

}  // namespace rt
