// rt/tile_feeder.h — the tile renderer's GPU blocks with feeder warps (RT_TILE_FEEDER=1).
//
// Why: in the per-lane worker of rt/tile_queues.h every warp makes its own queue operations, and
// on the H200 one G-LFQ dequeue or enqueue costs a warp 17-19 us under the renderer's load (run
// 72: 38,000 and 35,000 SM cycles a working iteration on spheres100, a chain of about eleven
// dependent atomics and loads on the queues' hottest lines; the fences are not the cost). The
// traversal is bound by load latency, so rays per second follow the number of warps tracing, and
// a warp spent about 40 % of its cycles in queue operations (spheres100) instead of tracing.
//
// Here the first RT_FEEDERS warps of a block make the block's queue operations and the others
// only trace. Each feeder owns a FeedBox in shared memory:
//   inbox   items it dequeued (home tile first, then the others, as any worker steals), which its
//           tracer warps claim a warp at a time with one shared-memory CAS;
//   outbox  the reflection bounces its tracers hand back, which it enqueues into their tiles'
//           queues.
// A tracer whose inbox is empty takes from the queues itself, and one whose outbox is full
// enqueues itself (DirectSource), so the feeders speed the tracers up without ever being the only
// way to work. Nothing about the work changes: the same queues carry the same items (a tile's
// primary rays and its reflection bounces), a pixel still has one segment in flight, and the image
// is the per-lane worker's bit for bit. The CPU build keeps the per-lane worker (no blocks).
//
// Ordering. A slot holds kNoItem when free. The feeder publishes inbox items by writing their
// slots, fence.cta, then in_tail; a tracer warp's leader reads in_tail, claims [h, h + n) by CAS on
// in_head, fences, and its lanes read their slots and free them. The feeder refills only slots it
// finds free, so a claimed slot is never overwritten before it is read. A tracer reserves an outbox
// place by fetch-add on out_used (refused at capacity), takes slot out_tail++, and writes the
// pixel there after its pool entry and a gpu-scope fence (the pool entry must reach whichever
// block dequeues the pixel next, through the feeder's enqueue). The feeder takes the ready prefix
// from out_head, frees those slots, fences, and only then gives the places back on out_used: a slot
// index is reserved only while fewer than kOutboxSlots are outstanding, so its previous item has
// been taken and freed.
#pragma once
#include "tile_queues.h"

#ifndef RT_TILE_FEEDER
#define RT_TILE_FEEDER 1
#endif
#ifndef RT_FEEDERS
#define RT_FEEDERS 2  // feeder warps a block of 8; the tracer warps share them round-robin
#endif
#ifndef RT_TRACER_SELF
#define RT_TRACER_SELF 1  // 0: a tracer waits for its feeder instead of taking from the queues
#endif

#if GQ_DEVICE_BUILD
namespace rt {

constexpr uint32_t kInboxSlots = 128;   // a power of two; four tracer warps' worth
constexpr uint32_t kOutboxSlots = 256;  // a power of two
constexpr uint32_t kNoItem = 0xFFFFFFFFu;

struct FeedBox {
  uint32_t in_items[kInboxSlots];
  uint32_t out_items[kOutboxSlots];
  uint32_t in_head;   // inbox items claimed by tracers
  uint32_t in_tail;   // inbox items published by the feeder
  uint32_t out_used;  // outbox places reserved and not yet given back
  uint32_t out_tail;  // outbox slots taken
};

// Tracer side: the inbox for items, the outbox for bounces, the queues when either cannot serve.
// With no box (a block without feeders) it is DirectSource: one source type, so that the kernel
// holds one copy of tile_worker and of advance_path (two doubled its spills, as run 21 found for
// rt_wave).
struct BoxSource {
  static constexpr bool kFenceBeforeGive = true;
  FeedBox* box;  // null: straight to the queues
  DirectSource direct;

  __device__ __forceinline__ bool take(uint32_t working, uint32_t tid, uint32_t* item, const gq::ErrorFlag& err) const {
    if (box == nullptr) return direct.take(working, tid, item, err);
    volatile FeedBox* vb = box;
    const uint32_t lane = gq::lane_id(), leader = gq::first_lane(working);
    uint32_t h = 0, n = 0;
    if (lane == leader) {
      for (int tries = 0; tries < 4; ++tries) {  // a lost CAS means another warp just claimed
        h = vb->in_head;
        const uint32_t avail = vb->in_tail - h, want = gq::popcount(working);
        n = avail < want ? avail : want;
        if (n == 0u || atomicCAS(&box->in_head, h, h + n) == h) break;
        n = 0;
      }
      __threadfence_block();  // the claimed slots' items after the in_tail that published them
    }
    h = gq::shuffle(working, h, leader);
    n = gq::shuffle(working, n, leader);
    gq::sync_lanes(working);
    const uint32_t rank = gq::popcount(working & gq::lanes_below(lane));
    if (rank < n) {
      volatile uint32_t* slot = &vb->in_items[(h + rank) % kInboxSlots];
      *item = *slot;
      *slot = kNoItem;
      return true;
    }
    return RT_TRACER_SELF && direct.take(working, tid, item, err);
  }

  __device__ __forceinline__ bool give(uint32_t tile, uint32_t pixel, uint32_t tid, const gq::ErrorFlag& err) const {
    if (box != nullptr && atomicAdd(&box->out_used, 1u) < kOutboxSlots) {
      __threadfence_block();  // the slot was freed before its place was given back
      volatile FeedBox* vb = box;
      vb->out_items[atomicAdd(&box->out_tail, 1u) % kOutboxSlots] = pixel;
      return true;
    }
    if (box != nullptr) atomicSub(&box->out_used, 1u);
    return direct.give(tile, pixel, tid, err);
  }
};

// Feeder side: one whole warp, in step (every branch below is on warp-uniform values).
// Not inlined: the feeder's own copy of the queue code stays out of the tracers' registers.
GQ_NOINLINE __device__ void feed(FeedBox* box, const TileGrid& g, const DirectSource& direct, uint32_t tid,
                                 uint64_t total, uint64_t* samples_done, const gq::ErrorFlag& err) {
  constexpr uint32_t kAll = 0xFFFFFFFFu;
  volatile FeedBox* vb = box;
  const uint32_t lane = gq::lane_id();
  const uint32_t budget = GQ_SPIN_BUDGET / g.count() > 4096u ? GQ_SPIN_BUDGET / g.count() : 4096u;
  gq::Spin idle(budget);
  uint32_t in_tail = 0, out_head = 0;
  uint64_t seen = ~0ull;
  for (;;) {
    const uint64_t now = gq::shuffle(kAll, gq::load<gq::mo::relaxed>(samples_done), 0);
    if (gq::ballot(kAll, err.raised() || now >= total) != 0u) return;
    bool progress = false;

    // The outbox's ready prefix goes to the queues.
    const uint32_t out_slot = (out_head + lane) % kOutboxSlots;
    const uint32_t pixel = vb->out_items[out_slot];
    const uint32_t ready = gq::ballot(kAll, pixel != kNoItem);
    const uint32_t n = ready == kAll ? 32u : (uint32_t)__ffs((int)~ready) - 1u;
    if (n != 0u) {
      __threadfence_block();  // the tracers' writes before their slots
      if (lane < n) {
        vb->out_items[out_slot] = kNoItem;
        direct.give(g.tile_of(pixel), pixel, tid, err);
      }
      gq::sync_lanes(kAll);
      __threadfence_block();  // the slots freed before their places are given back
      if (lane == 0u) atomicSub(&box->out_used, n);
      out_head += n;
      progress = true;
    }

    // A warp's worth of items for the inbox, when 32 slots from in_tail are free.
    if (gq::ballot(kAll, vb->in_items[(in_tail + lane) % kInboxSlots] == kNoItem) == kAll) {
      uint32_t item = 0;
      const bool got = direct.take(kAll, tid, &item, err);
      const uint32_t mask = gq::ballot(kAll, got);
      if (got) vb->in_items[(in_tail + gq::popcount(mask & gq::lanes_below(lane))) % kInboxSlots] = item;
      if (mask != 0u) {
        gq::sync_lanes(kAll);
        __threadfence_block();  // the items before the in_tail that publishes them
        in_tail += gq::popcount(mask);
        if (lane == 0u) vb->in_tail = in_tail;
        progress = true;
      }
    }

    if (progress || now != seen) {  // work moved, here or anywhere: the wait starts over
      seen = now;
      idle = gq::Spin(budget);
      if (progress) continue;
    }
    const bool gave_up = !idle.step(err, gq::kSiteTileIdle, now);
    if (gq::ballot(kAll, gave_up) != 0u) return;
  }
}

// One block of the persistent grid. `fed` (block-uniform): its boxes are initialised and each of
// its warps feeds or traces; otherwise (a partial last block) its `members` work alone.
template <uint32_t kFeeders>
__device__ __forceinline__ void tile_block(const RenderParams& p, PathState* pool, const TileGrid& g,
                                           const TileQueues& tq, FeedBox* boxes, bool fed, uint32_t tid,
                                           uint32_t members, uint64_t total, uint64_t* samples_done, RayCounts& c,
                                           const gq::ErrorFlag& err) {
  const uint32_t warp = threadIdx.x / 32u, tiles = g.count();
  const DirectSource direct{tq, tiles, blockIdx.x % tiles, scatter_of(tid / 32u, tiles)};
  if (!fed) {
    tile_worker(p, pool, g, BoxSource{nullptr, direct}, tid, members, total, samples_done, c, err);
    return;
  }
  uint32_t* words = reinterpret_cast<uint32_t*>(boxes);
  for (uint32_t i = threadIdx.x; i < kFeeders * (uint32_t)(sizeof(FeedBox) / 4); i += blockDim.x) {
    const uint32_t at = i % (uint32_t)(sizeof(FeedBox) / 4);
    words[i] = at < kInboxSlots + kOutboxSlots ? kNoItem : 0u;
  }
  __syncthreads();
  if (warp < kFeeders)
    feed(&boxes[warp], g, direct, tid, total, samples_done, err);
  else
    tile_worker(p, pool, g, BoxSource{&boxes[warp % kFeeders], direct}, tid, 0xFFFFFFFFu, total, samples_done, c,
                err);
}

}  // namespace rt
#endif
