// rt/sampling.h — stratified sub-pixel sample positions, seeded by (pixel, sample) alone.
//
// A sample's position never depends on which thread, block, wave or queue slot traces it, so every
// renderer (compaction, tile queues, CPU, GPU) traces exactly the same primary rays.
#pragma once
#include "vec.h"

namespace rt {

// splitmix64's finaliser: a bijective 64-bit mix with good avalanche.
GQ_HD GQ_INLINE uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// 24 random bits as a float in [0, 1): exactly representable, so both builds agree bit for bit.
GQ_HD GQ_INLINE float unit_float(uint64_t bits) { return (float)(uint32_t)(bits >> 40) * (1.0f / 16777216.0f); }

struct Strata {
  uint32_t nx, ny;  // spp samples on an nx x ny grid of strata (the last row may be partial)
};

GQ_HD GQ_INLINE Strata strata_for(uint32_t spp) {
  uint32_t nx = 1;
  while (nx * nx < spp) ++nx;
  return Strata{nx, (spp + nx - 1) / nx};
}

// Offset of sample s of pixel `pixel` inside the pixel, each coordinate in [0, 1).
GQ_HD GQ_INLINE void sample_offset(uint32_t pixel, uint32_t s, Strata st, float* fx, float* fy) {
  const uint64_t h = mix64(((uint64_t)pixel << 32 | s) + 0x9E3779B97F4A7C15ull);
  const uint64_t h2 = mix64(h);
  *fx = ((float)(s % st.nx) + unit_float(h)) / (float)st.nx;
  *fy = ((float)(s / st.nx) + unit_float(h2)) / (float)st.ny;
}

}  // namespace rt
