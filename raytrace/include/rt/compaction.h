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
#pragma once
#include <gq/wave_faa.cuh>
#include "pixel_order.h"
#include "whitted.h"

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
  Next next = advance_path(p, st, pixel, c);
  while (next == kNextSample) {  // the pixel's next sample, in this wave
    gq::wave_faa<gq::mo::relaxed>(samples_done);
    next = advance_path(p, st, pixel, c);
  }
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
