// rt/tile_profile.h — where the tile renderer's time goes, by phase of a worker warp's loop
// (rt/tile_queues.h), measured with the SM clock. Built only with RT_PROFILE=1 (the A/B build of
// tools/gpu_tile_profile.py); otherwise every call below is empty and the kernel is the shipped one.
//
// Per loop iteration of a warp, one lane adds its own clock deltas to its warp's row:
//   dequeue   from the top of the loop (after the stop test) to the end of its dequeue attempts
//   trace     from there to the meeting after advance_path (the warp's slowest trace)
//   requeue   from the meeting to the end of its re-enqueue and finished-sample count
//   idle      a whole iteration in which no lane of the warp got a ray
// The lane is the lowest that got a ray (the lowest active lane in an idle iteration), so the
// three phases of one iteration come from one timeline. What the rows do not cover (the wait at
// the top for lanes still enqueueing, the stop test) is the total minus their sum.
//
// The adds are one atomic per warp and iteration on the warp's own row, so the profiled build is
// a little slower than the shipped one; the tool reports both times.
#pragma once
#include <gq/arch.cuh>

#ifndef RT_PROFILE
#define RT_PROFILE 0
#endif

namespace rt {

enum TileProfileWord : uint32_t {
  kProfDequeue,      // clock cycles
  kProfTrace,
  kProfRequeue,
  kProfIdle,
  kProfWorkIters,    // iterations in which some lane got a ray
  kProfWorkLanes,    // lanes that got a ray, summed over those iterations
  kProfIdleIters,
  kProfTotal,        // cycles from the worker's start to its return (the profiling lane's)
  kProfWords
};
constexpr uint32_t kProfileWarps = 8192;  // rows; warps beyond share rows (modulo)

}  // namespace rt

#if RT_PROFILE && GQ_DEVICE_BUILD
// C linkage, so that the host finds it by this name (CuPy's RawModule.get_global).
extern "C" {
__device__ unsigned long long rt_tile_profile[rt::kProfileWarps * rt::kProfWords];
}
#endif

namespace rt {

#if RT_PROFILE && GQ_DEVICE_BUILD
struct TileProfile {
  unsigned long long* row;
  GQ_DEV GQ_INLINE explicit TileProfile(uint32_t tid) : row(rt_tile_profile + (tid / 32u % kProfileWarps) * kProfWords) {}
  GQ_DEV GQ_INLINE static uint64_t now() { return (uint64_t)clock64(); }
  GQ_DEV GQ_INLINE void add(uint32_t word, uint64_t v) const { atomicAdd(row + word, (unsigned long long)v); }
};
#else
struct TileProfile {
  GQ_HD GQ_INLINE explicit TileProfile(uint32_t) {}
  GQ_HD GQ_INLINE static uint64_t now() { return 0; }
  GQ_HD GQ_INLINE void add(uint32_t, uint64_t) const {}
};
#endif

}  // namespace rt
