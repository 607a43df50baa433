// rt/compaction.h — the stream-compaction wavefront baseline (Wald, "Active thread compaction
// for GPU path tracing", HPG 2011; the seed paper's comparison).
//
// Per wave, every active path advances one segment; the survivors are compacted into the next
// wave's list by a warp-aggregated append (one atomic per warp, WaveFAA of the queue layer), and
// the next wave starts over the dense list. No host round trip between waves: the host launches
// an upper bound of spp * (max_depth + 1) waves, and a wave whose list is empty costs one launch.
#pragma once
#include <gq/wave_faa.cuh>
#include "whitted.h"

namespace rt {

struct WaveLists {
  const uint32_t* in;        // this wave's pixels
  const uint64_t* in_count;  // how many
  uint32_t* out;             // the survivors, appended in any order
  uint64_t* out_count;
};

// Advance the path of in[i]; append it to the next list while it has work left. `samples_done`
// counts finished samples (progress, and the same count the tile renderer ends on).
GQ_HD GQ_INLINE void wave_item(const RenderParams& p, PathState* pool, const WaveLists& w, uint64_t i,
                               uint64_t* samples_done, RayCounts& c) {
  const uint32_t pixel = w.in[i];
  PathState st = pool[pixel];
  const Next next = advance_path(p, st, pixel, c);
  pool[pixel] = st;
  if (next != kPixelDone) w.out[gq::wave_faa<gq::mo::relaxed>(w.out_count)] = pixel;  // the next launch orders these
  if (next != kReflect) gq::wave_faa<gq::mo::relaxed>(samples_done);
}

}  // namespace rt
