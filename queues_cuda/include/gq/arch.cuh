// gq/arch.cuh — the portability layer: the ONLY file that knows CUDA from host.
//
// Every racing access to shared memory in the queue layer goes through the functions here, each
// with a stated memory order. The same source compiles twice:
//   * by NVRTC (through CuPy) or nvcc for the GPU: inline PTX with explicit `.relaxed/.acquire/
//     .release/.acq_rel` qualifiers at `.gpu` scope, so no libcu++ header is needed and the
//     CI compile check needs nothing but NVRTC;
//   * by the system C++ compiler for the CPU runtime: GCC/Clang `__atomic` builtins, which act on
//     plain memory the same way the PTX does (no std::atomic wrapper types in shared structs).
// On the host a warp is one lane wide: ballot returns the caller's own bit, shuffle is identity.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GQ_DEVICE_BUILD 1
#define GQ_HD __host__ __device__
#define GQ_DEV __device__
#define GQ_INLINE __forceinline__
#define GQ_NOINLINE __noinline__
#else
#define GQ_DEVICE_BUILD 0
#define GQ_HD
#define GQ_DEV
#define GQ_INLINE inline __attribute__((always_inline))
#define GQ_NOINLINE __attribute__((noinline))
#endif

#if defined(__CUDACC_RTC__)
// NVRTC has no system headers; the fixed-width types come from its builtins.
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
#else
#include <stdint.h>
#endif

#if !GQ_DEVICE_BUILD
#include <sched.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#endif

namespace gq {

// Memory orders of the C++ model. On the GPU seq_cst is spelt as CUDA's atomics ABI spells it
// (the PTX writer's guide, "Atomics Application Binary Interface", proven in Lustig et al., "A
// Formal Analysis of the NVIDIA PTX Memory Consistency Model"): fence.sc, then ld.acquire for a
// load, st.relaxed for a store, atom.acquire for a read-modify-write. The fence makes the access
// that follows it a release pattern already. Stores and read-modify-writes used to be st.release
// and atom.acq_rel after the fence, for which ptxas emits a second fence (MEMBAR.ALL.GPU) right
// behind fence.sc's MEMBAR.SC.GPU. On the H200 that second fence cost about 200 ns a step with one
// warp and 450 ns with 64 warps an SM making such chains (tools/gpu_chain_probe.py, run 216: a
// fenced fetch-add 611 and 1,161 ns a step, a fenced load 410 and 706, a relaxed fetch-add 218 and
// 245), and a queue operation made about nine such steps. Dropping it (run 217): G-LFQ 15-33 %
// faster at every size and kernel of the benchmark (balanced at 2^18 threads 18.1 -> 20.8 G ops/s),
// G-WFQ 6-28 %, the queue BFS on road-2M 12-15 %.
enum class mo { relaxed, acquire, release, acq_rel, seq_cst };

// ---------------------------------------------------------------------------------------------
// Hot words: the counters of a structure that every thread fetch-adds or polls (a ring's Head,
// Tail and Threshold). Each sits kHotStride words after the one before it. The H200's L2 serves
// two lines 128 or 512 bytes apart with one server: fetch-adds on both together ran at 1.1-1.3 G
// warp operations a second, what one line alone gets. Lines 256 bytes, or 768 bytes and more,
// apart are served apart: 2.3 G for two lines, 4.1 G for four lines 2 KB apart (run 164,
// tools/gpu_counter_lines_probe.py). 4 KB clears every distance that shared. The CPU runtime keeps
// the same layout (one layout for both builds).
#ifndef GQ_HOT_STRIDE_WORDS
#define GQ_HOT_STRIDE_WORDS 512
#endif
constexpr uint64_t kHotStride = GQ_HOT_STRIDE_WORDS;  // uint64 words (4 KB)

// `words` rounded up to whole strides, so that a structure laid out after this one starts its
// hot words at the same spacing.
GQ_HD constexpr uint64_t hot_round_up(uint64_t words) { return (words + kHotStride - 1) / kHotStride * kHotStride; }

// ---------------------------------------------------------------------------------------------
// Error flag. A queue or harness that exhausts a spin budget records what it was doing and
// returns; the host turns the flag into an exception naming the kernel and the state.
// Layout of the 4 words an `ErrorFlag` points at: code, site, detail (low, high).
enum ErrorCode : uint32_t {
  kOk = 0,
  kSpinBudget = 1,    // a bounded spin ran out: partner not running, or a bug
  kCorrupt = 2,       // an impossible state was observed (e.g. a token out of range)
  kCapacity = 3,      // an arena or log ran out of room
};

// Sites name the loop that gave up, for the host's message (queues_cuda/errors.py mirrors these).
enum ErrorSite : uint32_t {
  kSiteNone = 0,
  kSiteScqEnqueue = 1,
  kSiteScqCatchup = 2,
  kSiteGlfqFullConfirm = 3,
  kSiteSfqEnqueueTurn = 4,
  kSiteSfqDequeueTurn = 5,
  kSiteFifoProducer = 6,
  kSiteFifoConsumer = 7,
  kSiteScqDequeue = 8,
  kSiteSfqClaim = 9,
  kSiteTileEnqueue = 10,   // the tile renderer re-enqueueing a ray (raytrace/include/rt)
  kSiteTileIdle = 11,      // a tile-renderer worker finding no ray while rays are outstanding
  kSiteMultiQueue = 12,    // the several-queues-per-warp check (multi_queue.cuh)
  kSiteBucketHeap = 13,    // parBucketHeap (bucket_heap.cuh): a level out of room, or a lost entry
  kSiteBrokerReserve = 14, // Broker Queue (broker.cuh): a Count reservation that kept being undone
  kSiteBrokerTurn = 15,    // Broker Queue: a committed ticket waiting for its slot's turn
  kSiteGridBarrier = 30,   // shortest paths (sssp_demo/include/sssp/grid.h): the software grid barrier
  kSiteFrontier = 31,      // shortest paths: a frontier or update list out of room (sssp/advance.h)
  kSiteSliceRound = 32,    // pardijkstra-sliced (sssp/slice_dijkstra.h): a slot wait or a target outside its slice
  kSiteBenchDrain = 40,    // queue micro-benchmark (queue_bench.cuh): consumers outlasting producers
  // The wait-free queues (sites 20-29; 14-19 are left to other queues of the same wave).
  kSiteWfqEnqueue = 20,    // G-WFQ ring enqueue (wcq_ring.cuh): slot CAS or catch-up retries
  kSiteWfqDequeue = 21,    // G-WFQ ring dequeue: slot CAS retries
  kSiteWfqSlowFaa = 22,    // G-WFQ SlowFAA: one cooperative increment of Head/Tail
  kSiteWfqFullConfirm = 23,  // G-WFQ FULL confirmation (quiescence guard)
  kSiteYmcEnqueue = 24,    // G-WFQ-YMC (ymc.cuh): an enqueue's Tail advance or cell claim
  kSiteYmcDequeue = 25,    // G-WFQ-YMC: a dequeue's Head advance or request claim
  kSiteYmcPool = 26,       // G-WFQ-YMC: segment pool exhausted (a segment still in use blocks reuse)
};

// ---------------------------------------------------------------------------------------------
// Atomics. 32-bit and 64-bit: load, store, fetch-add, fetch-or, exchange, compare-and-swap.
// `cas` returns the value it found (the new value was written iff that equals `expected`).
#if GQ_DEVICE_BUILD

#define GQ_PTX_ORDER_LD(o) ((o) == mo::relaxed ? 0 : 1)

// GQ_PROBE_SC_FENCE is a measuring aid for tools/gpu_render_probe.py, never part of a shipped
// build: 1 spells seq_cst's fence as fence.acq_rel, 2 drops it, to show what the fences cost.
#ifndef GQ_PROBE_SC_FENCE
#define GQ_PROBE_SC_FENCE 0
#endif
template <mo O> GQ_DEV GQ_INLINE void fence_before() {
  if constexpr (O == mo::seq_cst) {
#if GQ_PROBE_SC_FENCE == 1
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#elif GQ_PROBE_SC_FENCE == 0
    asm volatile("fence.sc.gpu;" ::: "memory");
#endif
  }
}

// The order of the access that follows fence_before<O>() in the spelling of an O access: a
// seq_cst access is the fence, then an acquire one. wave_faa.cuh splits the two between the lanes
// of a warp (the fence in every lane, the atomic in a leader's branch).
GQ_HD constexpr mo after_fence(mo o) { return o == mo::seq_cst ? mo::acquire : o; }

template <mo O = mo::acquire> GQ_DEV GQ_INLINE uint64_t load(const uint64_t* p) {
  uint64_t v;
  fence_before<O>();
  if constexpr (O == mo::relaxed)
    asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  else
    asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
template <mo O = mo::acquire> GQ_DEV GQ_INLINE uint32_t load(const uint32_t* p) {
  uint32_t v;
  fence_before<O>();
  if constexpr (O == mo::relaxed)
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
template <mo O = mo::release> GQ_DEV GQ_INLINE void store(uint64_t* p, uint64_t v) {
  fence_before<O>();
  if constexpr (O == mo::relaxed || O == mo::seq_cst)  // seq_cst: the fence, then a relaxed store (above)
    asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
  else
    asm volatile("st.release.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
template <mo O = mo::release> GQ_DEV GQ_INLINE void store(uint32_t* p, uint32_t v) {
  fence_before<O>();
  if constexpr (O == mo::relaxed || O == mo::seq_cst)
    asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Read-modify-writes: one macro per width stamps out the five orders of one PTX atom op. seq_cst
// is the fence, then an acquire RMW (the mapping above).
// GQ_ATOMICS_GLOBAL, defined by a kernel file before its includes, says that every read-modify-
// write it compiles addresses global memory, and they are spelt .global: a generic atom may also
// meet shared memory, and ptxas follows each with an address-space test and an emulation of the
// shared case (G-LFQ's benchmark kernel 5,544 -> 4,480 SASS instructions by NVRTC 13.0; H200, run
// 270: its balanced kernel +12 % at 2^17 threads, +4-14 % at 2^18, +1-2 % below; G-WFQ +1-3 %).
// A .global atom on a shared address is undefined, so only files whose atomics never touch shared
// memory define it: the queue benchmark and checks and the BFS (the heaps' and Near-Far's kernels
// keep counters in shared memory; the renderer measured slower with it, kernels/render.cu).
#if defined(GQ_ATOMICS_GLOBAL)
#define GQ_ATOM_SPACE ".global"
#else
#define GQ_ATOM_SPACE ""
#endif
#define GQ_ATOM64(NAME, OP)                                                                     \
  template <mo O = mo::acq_rel> GQ_DEV GQ_INLINE uint64_t NAME(uint64_t* p, uint64_t v) {       \
    uint64_t r;                                                                                 \
    fence_before<O>();                                                                          \
    if constexpr (O == mo::relaxed)                                                             \
      asm volatile("atom.relaxed.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory"); \
    else if constexpr (O == mo::acquire || O == mo::seq_cst)                                    \
      asm volatile("atom.acquire.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory"); \
    else if constexpr (O == mo::release)                                                        \
      asm volatile("atom.release.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory"); \
    else                                                                                        \
      asm volatile("atom.acq_rel.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory"); \
    return r;                                                                                   \
  }
#define GQ_ATOM32(NAME, OP)                                                                     \
  template <mo O = mo::acq_rel> GQ_DEV GQ_INLINE uint32_t NAME(uint32_t* p, uint32_t v) {       \
    uint32_t r;                                                                                 \
    fence_before<O>();                                                                          \
    if constexpr (O == mo::relaxed)                                                             \
      asm volatile("atom.relaxed.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory"); \
    else if constexpr (O == mo::acquire || O == mo::seq_cst)                                    \
      asm volatile("atom.acquire.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory"); \
    else if constexpr (O == mo::release)                                                        \
      asm volatile("atom.release.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory"); \
    else                                                                                        \
      asm volatile("atom.acq_rel.gpu" GQ_ATOM_SPACE "." OP " %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory"); \
    return r;                                                                                   \
  }
GQ_ATOM64(fetch_add, "add.u64")
GQ_ATOM64(fetch_or, "or.b64")
GQ_ATOM64(exchange, "exch.b64")
GQ_ATOM32(fetch_add, "add.u32")
GQ_ATOM32(fetch_or, "or.b32")
GQ_ATOM32(exchange, "exch.b32")
#undef GQ_ATOM64
#undef GQ_ATOM32

template <mo O = mo::acq_rel> GQ_DEV GQ_INLINE uint64_t cas(uint64_t* p, uint64_t expected, uint64_t desired) {
  uint64_t r;
  fence_before<O>();
  if constexpr (O == mo::relaxed)
    asm volatile("atom.relaxed.gpu" GQ_ATOM_SPACE ".cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(expected), "l"(desired) : "memory");
  else if constexpr (O == mo::acquire || O == mo::seq_cst)
    asm volatile("atom.acquire.gpu" GQ_ATOM_SPACE ".cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(expected), "l"(desired) : "memory");
  else if constexpr (O == mo::release)
    asm volatile("atom.release.gpu" GQ_ATOM_SPACE ".cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(expected), "l"(desired) : "memory");
  else
    asm volatile("atom.acq_rel.gpu" GQ_ATOM_SPACE ".cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(expected), "l"(desired) : "memory");
  return r;
}
template <mo O = mo::acq_rel> GQ_DEV GQ_INLINE uint32_t cas(uint32_t* p, uint32_t expected, uint32_t desired) {
  uint32_t r;
  fence_before<O>();
  if constexpr (O == mo::relaxed)
    asm volatile("atom.relaxed.gpu" GQ_ATOM_SPACE ".cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(p), "r"(expected), "r"(desired) : "memory");
  else if constexpr (O == mo::acquire || O == mo::seq_cst)
    asm volatile("atom.acquire.gpu" GQ_ATOM_SPACE ".cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(p), "r"(expected), "r"(desired) : "memory");
  else if constexpr (O == mo::release)
    asm volatile("atom.release.gpu" GQ_ATOM_SPACE ".cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(p), "r"(expected), "r"(desired) : "memory");
  else
    asm volatile("atom.acq_rel.gpu" GQ_ATOM_SPACE ".cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(p), "r"(expected), "r"(desired) : "memory");
  return r;
}

// A 64-bit CAS spelt generic whatever GQ_ATOMICS_GLOBAL says, for SFQ's non-waiting claim: a CAS
// loop on one word whose balanced benchmark ran at 0.57-0.77x once its CAS was spelt .global (runs
// 344 and 349; sfq.cuh). The acquire orders only.
template <mo O = mo::seq_cst> GQ_DEV GQ_INLINE uint64_t cas_generic(uint64_t* p, uint64_t expected, uint64_t desired) {
  static_assert(O == mo::acquire || O == mo::seq_cst, "cas_generic: acquire or seq_cst");
  uint64_t r;
  fence_before<O>();
  asm volatile("atom.acquire.gpu.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(expected), "l"(desired) : "memory");
  return r;
}

// A relaxed 64-bit fetch-add spelt .global whatever GQ_ATOMICS_GLOBAL says, for a caller on global
// memory that first uses the reply after other accesses: the generic spelling's emulation of the
// shared case joins its two paths in a register copy, which waits for the reply at once (the tile
// renderer's early draw, rt/tile_queues_blocking.h: RT_DRAW_EARLY).
GQ_DEV GQ_INLINE uint64_t fetch_add_global_relaxed(uint64_t* p, uint64_t v) {
  uint64_t r;
  asm volatile("atom.relaxed.gpu.global.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");
  return r;
}

template <mo O = mo::seq_cst> GQ_DEV GQ_INLINE void fence() {
  if constexpr (O == mo::seq_cst)
    asm volatile("fence.sc.gpu;" ::: "memory");
  else if constexpr (O != mo::relaxed)
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

// ---------------------------------------------------------------------------------------------
// Warp primitives. `active_mask` is the set of lanes executing this call together; every warp
// collective below takes that mask so that lanes which left a loop early are never waited for.
GQ_DEV GQ_INLINE uint32_t lane_id() { uint32_t l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
GQ_DEV GQ_INLINE uint32_t active_mask() { return __activemask(); }
GQ_DEV GQ_INLINE uint32_t ballot(uint32_t mask, bool pred) { return __ballot_sync(mask, pred); }
GQ_DEV GQ_INLINE uint32_t popcount(uint32_t x) { return (uint32_t)__popc(x); }
GQ_DEV GQ_INLINE uint32_t first_lane(uint32_t mask) { return (uint32_t)(__ffs((int)mask) - 1); }
GQ_DEV GQ_INLINE uint64_t shuffle(uint32_t mask, uint64_t v, uint32_t src) { return __shfl_sync(mask, v, (int)src); }
GQ_DEV GQ_INLINE uint32_t shuffle(uint32_t mask, uint32_t v, uint32_t src) { return __shfl_sync(mask, v, (int)src); }
GQ_DEV GQ_INLINE uint32_t lanes_below(uint32_t lane) { return (1u << lane) - 1u; }
// The bitwise OR of `v` over the lanes of `mask`; every lane of `mask` must call it.
GQ_DEV GQ_INLINE uint32_t reduce_or(uint32_t mask, uint32_t v) { return __reduce_or_sync(mask, v); }
// The least `v` over the lanes of `mask` (every lane of `mask` must call it): the high words'
// minimum, then the least low word among the lanes that hold it.
GQ_DEV GQ_INLINE uint64_t reduce_min(uint32_t mask, uint64_t v) {
  const uint32_t hi = __reduce_min_sync(mask, (uint32_t)(v >> 32));
  const uint32_t lo = __reduce_min_sync(mask, (uint32_t)(v >> 32) == hi ? (uint32_t)v : 0xFFFFFFFFu);
  return ((uint64_t)hi << 32) | lo;
}
// The lanes of `mask` whose `word` is the caller's. Warp aggregation may only combine lanes that
// target the same word: one warp can drive several queues at once (a tile renderer re-enqueues
// each ray in its own tile's queue), and one leader's fetch-add must not hand out another
// queue's tickets.
GQ_DEV GQ_INLINE uint32_t peers(uint32_t mask, const void* word) {
  return __match_any_sync(mask, (unsigned long long)word);
}
// A barrier of the lanes in `mask` that also orders their memory accesses: what a lane did before
// it happens-before what any lane of the mask does after it. Shuffles carry values, not order.
GQ_DEV GQ_INLINE void sync_lanes(uint32_t mask) { __syncwarp(mask); }

// A fixed global clock for histories: device nanoseconds are too coarse to be unique, so the
// harness draws timestamps from one atomic counter instead (see history.cuh).

// Nanoseconds on a clock every thread of the device reads alike (%globaltimer), for deadlines
// of fixed-duration runs; too coarse to order operations (histories use a counter instead).
GQ_DEV GQ_INLINE uint64_t clock_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Backoff: sleep a little, doubling up to a cap; keeps spinning lanes off the memory system.
GQ_DEV GQ_INLINE void backoff(uint32_t& ns) {
  __nanosleep(ns);
  ns = ns < 256u ? ns * 2u : 256u;
}

#else  // ------------------------------------------------------------------ host build

constexpr int host_order(mo o) {
  return o == mo::relaxed   ? __ATOMIC_RELAXED
         : o == mo::acquire ? __ATOMIC_ACQUIRE
         : o == mo::release ? __ATOMIC_RELEASE
         : o == mo::acq_rel ? __ATOMIC_ACQ_REL
                            : __ATOMIC_SEQ_CST;
}
// Loads cannot be release-ordered and stores cannot be acquire-ordered in the C++ model.
constexpr int host_load_order(mo o) { return o == mo::relaxed ? __ATOMIC_RELAXED : o == mo::seq_cst ? __ATOMIC_SEQ_CST : __ATOMIC_ACQUIRE; }
constexpr int host_store_order(mo o) { return o == mo::relaxed ? __ATOMIC_RELAXED : o == mo::seq_cst ? __ATOMIC_SEQ_CST : __ATOMIC_RELEASE; }

// Preemption points. The CPU runtime exists to find bad interleavings, but a thread on an idle
// core often runs a whole operation between two context switches. With GQ_HOST_CHAOS = k, every
// shared access first gives the core away with probability 1/k, so other threads run between
// any two steps of an operation. Off (0) unless the build asks for it.
#if defined(GQ_HOST_CHAOS) && GQ_HOST_CHAOS > 0
GQ_INLINE void chaos_point() {
  static thread_local uint64_t s = 0;
  if (s == 0) s = (uint64_t)(uintptr_t)&s * 0x9E3779B97F4A7C15ull | 1ull;
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  if (s % (uint64_t)GQ_HOST_CHAOS == 0) sched_yield();
}
#else
GQ_INLINE void chaos_point() {}
#endif

// The operand type follows the pointer alone (as the GPU overloads do), so literals convert.
template <class T> struct same_as { using type = T; };
template <class T> using operand_t = typename same_as<T>::type;

// On the host every access carries its own order (C++ atomics), so the split spelling of the GPU
// (fence_before, after_fence) is no fence and the order unchanged.
template <mo O> GQ_INLINE void fence_before() {}
constexpr mo after_fence(mo o) { return o; }

template <mo O = mo::acquire, class T> GQ_INLINE T load(const T* p) { chaos_point(); return __atomic_load_n(p, host_load_order(O)); }
template <mo O = mo::release, class T> GQ_INLINE void store(T* p, operand_t<T> v) { chaos_point(); __atomic_store_n(p, v, host_store_order(O)); }
template <mo O = mo::acq_rel, class T> GQ_INLINE T fetch_add(T* p, operand_t<T> v) { chaos_point(); return __atomic_fetch_add(p, v, host_order(O)); }
template <mo O = mo::acq_rel, class T> GQ_INLINE T fetch_or(T* p, operand_t<T> v) { chaos_point(); return __atomic_fetch_or(p, v, host_order(O)); }
template <mo O = mo::acq_rel, class T> GQ_INLINE T exchange(T* p, operand_t<T> v) { chaos_point(); return __atomic_exchange_n(p, v, host_order(O)); }
template <mo O = mo::acq_rel, class T> GQ_INLINE T cas(T* p, operand_t<T> expected, operand_t<T> desired) {
  // On failure `expected` receives the value found; on success it keeps the old value.
  chaos_point();
  __atomic_compare_exchange_n(p, &expected, desired, false, host_order(O),
                              O == mo::release ? __ATOMIC_RELAXED : O == mo::acq_rel ? __ATOMIC_ACQUIRE : host_order(O));
  return expected;
}
template <mo O = mo::seq_cst, class T> GQ_INLINE T cas_generic(T* p, operand_t<T> expected, operand_t<T> desired) {
  return cas<O>(p, expected, desired);  // one address space on the host
}
GQ_INLINE uint64_t fetch_add_global_relaxed(uint64_t* p, uint64_t v) { return fetch_add<mo::relaxed>(p, v); }
template <mo O = mo::seq_cst> GQ_INLINE void fence() { __atomic_thread_fence(host_order(O)); }

// A warp is one lane wide on the host.
GQ_INLINE uint32_t lane_id() { return 0; }
GQ_INLINE uint32_t active_mask() { return 1u; }
GQ_INLINE uint32_t ballot(uint32_t, bool pred) { return pred ? 1u : 0u; }
GQ_INLINE uint32_t popcount(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
GQ_INLINE uint32_t first_lane(uint32_t mask) { return (uint32_t)(__builtin_ffs((int)mask) - 1); }
GQ_INLINE uint64_t shuffle(uint32_t, uint64_t v, uint32_t) { return v; }
GQ_INLINE uint32_t shuffle(uint32_t, uint32_t v, uint32_t) { return v; }
GQ_INLINE uint32_t lanes_below(uint32_t lane) { return (1u << lane) - 1u; }
GQ_INLINE uint32_t reduce_or(uint32_t, uint32_t v) { return v; }
GQ_INLINE uint64_t reduce_min(uint32_t, uint64_t v) { return v; }
GQ_INLINE uint32_t peers(uint32_t, const void*) { return 1u; }
GQ_INLINE void sync_lanes(uint32_t) {}

// Backoff on the CPU: a pause while the wait is short, then give the core away, since the
// runtime oversubscribes cores and the partner we wait for may need this one.
GQ_INLINE uint64_t host_now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

// The host's shared clock for deadlines: CLOCK_MONOTONIC, the same for every thread.
GQ_INLINE uint64_t clock_ns() { return host_now_ns(); }

GQ_INLINE void backoff(uint32_t& ns) {
  if (ns < 256u) {
#if defined(__x86_64__) || defined(__i386__)
    for (uint32_t i = 0; i < ns / 8u + 1u; ++i) _mm_pause();
#endif
    ns *= 2u;
  } else {
    sched_yield();
  }
}

#endif  // GQ_DEVICE_BUILD

// ---------------------------------------------------------------------------------------------
// Spin budget: every wait loop in the project counts its iterations against one of these. When
// the budget runs out the loop records (code, site, detail) in the error flag and gives up, so a
// bug or a non-resident partner ends the kernel with a message instead of hanging it.
// The default is about a second of waiting on either build: a GPU step backs off up to 256 ns,
// a host step yields the core to up to 63 other oversubscribed threads, so it gets 16x fewer
// (and a host wait also lasts at least GQ_HOST_MIN_WAIT_NS, below).
#ifndef GQ_SPIN_BUDGET
#if GQ_DEVICE_BUILD
#define GQ_SPIN_BUDGET (1u << 22)
#else
#define GQ_SPIN_BUDGET (1u << 18)
#endif
#endif

// The wait before a burn: a dequeuer that finds its slot empty (an enqueuer holds that ticket and
// is between its fetch-add and its CAS, or will draw it soon: ScqRing::dequeue_ticketed says
// when) re-reads the slot up to this many times, backing off to 256 ns, before it burns the slot,
// which would cost that enqueuer a fresh ticket (and G-WFQ's a step towards its slow path). Only
// a delay before the same step, so no argument changes. On the H200, 64 rather than 16 took
// G-WFQ's 25 % split from 2.9 to 4.6 G ops/s at 2^18 threads (run 179; G-LFQ's did not move).
// On the host the enqueuer may be off its core for a whole time slice: a couple of reads only.
#ifndef GQ_BURN_WAIT
#if GQ_DEVICE_BUILD
#define GQ_BURN_WAIT 64u
#else
#define GQ_BURN_WAIT 2u
#endif
#endif

struct ErrorFlag {
  uint32_t* words;  // [code, site, detail_lo, detail_hi]
  // A word of which every raise also sets `signal_bits` (none if null): the stop bits of the
  // persistent kernels' grid barrier (sssp/grid.h), so a barrier that completes after a raise
  // turns every block away without a read of the flag on its critical path.
  uint64_t* signal = nullptr;
  uint64_t signal_bits = 0;

  GQ_HD GQ_INLINE bool raised() const { return load<mo::relaxed>(words) != 0u; }
  // The first error wins; later ones would only obscure the cause.
  GQ_HD GQ_INLINE void raise(uint32_t code, uint32_t site, uint64_t detail) const {
    if (signal) fetch_or<mo::relaxed>(signal, signal_bits);
    if (cas<mo::relaxed>(words, 0u, code) == 0u) {
      store<mo::relaxed>(words + 1, site);
      store<mo::relaxed>(words + 2, (uint32_t)detail);
      store<mo::release>(words + 3, (uint32_t)(detail >> 32));
    }
  }
};

// A claim loop (CAS on a shared counter) never waits for one partner: each failure means another
// thread succeeded. It can still starve one thread for a long time under heavy contention, so it
// gets a far larger budget than a wait; the budget only guards against a bug that fails forever.
#ifndef GQ_CLAIM_BUDGET
#define GQ_CLAIM_BUDGET (1u << 28)
#endif

// On the CPU a thread can also be kept off its core by other processes, for longer than any
// step count predicts; there a budget also needs this much wall time since the wait began.
#ifndef GQ_HOST_MIN_WAIT_NS
#define GQ_HOST_MIN_WAIT_NS 2000000000ull
#endif

struct Spin {
  uint32_t left = GQ_SPIN_BUDGET;
  uint32_t ns = 8;
#if !GQ_DEVICE_BUILD
  uint64_t began = 0;
#endif
  GQ_HD Spin() = default;
  GQ_HD explicit Spin(uint32_t budget) : left(budget) {}
  // One more wait step; false once the budget is gone (the flag is then raised).
  GQ_HD GQ_INLINE bool step(const ErrorFlag& err, uint32_t site, uint64_t detail) {
#if !GQ_DEVICE_BUILD
    if (began == 0) began = host_now_ns();
    if (left == 0u && !err.raised() && host_now_ns() - began < GQ_HOST_MIN_WAIT_NS) left = 1024u;
#endif
    if (left == 0u || err.raised()) {
      err.raise(kSpinBudget, site, detail);
      return false;
    }
    --left;
    backoff(ns);
    return true;
  }
};

// Signed comparison of modular counters of `bits` width: is a older than b? Used for cycle tags,
// which keep every bit the slot word has left and so wrap only after 2^(bits-1) laps of lag.
template <int BITS> GQ_HD GQ_INLINE bool mod_less(uint64_t a, uint64_t b) {
  static_assert(BITS >= 2 && BITS <= 64, "cycle width");
  const uint64_t d = (b - a) << (64 - BITS);  // b - a in the top BITS bits, as a signed number
  return (int64_t)d > 0;
}

}  // namespace gq
