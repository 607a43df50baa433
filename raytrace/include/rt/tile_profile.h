// rt/tile_profile.h — where the tile renderer's time goes, by phase of a worker warp's loop
// (rt/tile_queues.h, and the blocking form's, rt/tile_queues_blocking.h), measured with the SM clock. Built only with RT_PROFILE=1 (the A/B build of
// tools/gpu_tile_profile.py); otherwise every call below is empty and the kernel is the shipped one.
//
// Per loop iteration, the warp's leader adds its own clock deltas to its warp's row:
//   dequeue   the queue phase: from the top of the loop (after the stop test) to the end of the
//             last round's requeues and this round's dequeues, made together, and the blocks'
//             broadcast (the blocking form: its requeues, ticket draws and slot looks)
//   trace     the blocks' round: every lane's advance_path calls, its pixel's path up to its next
//             reflection or its last sample, with the shadow rays, until the last lane is done
//   requeue   nothing since the requeues moved into the queue phase (kept so that rows of older
//             runs read the same)
//   idle      a whole iteration in which it got no block (it polled every tile; the blocking form
//             looked at its tickets and at one other tile)
// What the rows do not cover is the total minus their sum: mostly the stop test.
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
  kProfWorkIters,    // iterations in which the sampled lane got a ray
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
  // A round's rows, by the sampled lane: one that got no block (from the loop's top, t_top), and
  // one that did (its queue phase up to t_dequeued, then its tracing up to now).
  GQ_DEV GQ_INLINE void idle_round(bool sampled, uint64_t t_top) const {
    if (!sampled) return;
    add(kProfIdle, now() - t_top);
    add(kProfIdleIters, 1);
  }
  GQ_DEV GQ_INLINE void work_round(bool sampled, uint64_t t_top, uint64_t t_dequeued) const {
    if (!sampled) return;
    add(kProfDequeue, t_dequeued - t_top);
    add(kProfTrace, now() - t_dequeued);
    add(kProfWorkIters, 1);
  }
};
#else
struct TileProfile {
  GQ_HD GQ_INLINE explicit TileProfile(uint32_t) {}
  GQ_HD GQ_INLINE static uint64_t now() { return 0; }
  GQ_HD GQ_INLINE void add(uint32_t, uint64_t) const {}
  GQ_HD GQ_INLINE void idle_round(bool, uint64_t) const {}
  GQ_HD GQ_INLINE void work_round(bool, uint64_t, uint64_t) const {}
};
#endif

}  // namespace rt
