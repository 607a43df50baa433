// Does wave_faa in one arm of a per-lane branch, with wave_claim on the same counter in the other,
// hand out every ticket exactly once? Each lane counts the ticket it got in taken[ticket].
#include "gq/wave_faa.cuh"
using namespace gq;
extern "C" __global__ void wave_probe(uint64_t* head, const uint64_t* tail, uint32_t* taken, uint64_t limit,
                                      uint32_t iters, uint32_t seed, uint32_t mode) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t x = seed ^ (tid * 2654435761u);
  bool blind = false;
  for (uint32_t i = 0; i < iters; ++i) {
    x = x * 1664525u + 1013904223u;
    uint64_t h = 0;
    bool got = true;
    if (mode == 2) {
      h = wave_faa<mo::seq_cst>(head);  // no branch at all
    } else if (blind) {
      if (mode == 1)
        h = fetch_add<mo::seq_cst>(head, 1ull);
      else
        h = wave_faa<mo::seq_cst>(head);
    } else {
      got = wave_claim<mo::seq_cst>(head, tail, h, 1) == kClaimed;
    }
    if (got && h < limit) atomicAdd(taken + h, 1u);
    blind = ((x >> 13) & 3u) != 0u;  // differs between lanes, as the stress's reading of plenty
    if (((x >> 17) & 7u) == 0u) __nanosleep(100 + (x & 255u));
  }
}
