// rt/tile_queues.h — the tile-based persistent wavefront renderer (seed 001, Section V.B.b).
//
// The image is cut into tiles_x x tiles_y tiles and each tile owns a queue of pixel indices (any
// queue kind of the queue layer: gq::Queue, chosen at build time) over the ray pool of
// PathStates. All pixels are enqueued in their tile's queue first; then a persistent grid, no
// larger than what is resident, loops: dequeue a pixel from its home tile (or steal from the
// others when that is empty), advance its path up to its next reflection (or its last sample),
// and enqueue it again in the same tile's queue while it has work left. A pixel is in at most
// one queue slot at a time, so a tile's queue never needs more than the tile's pixel count.
//
// Termination comes from a device counter of finished samples, never from empty queues: an
// empty queue may only mean that every remaining ray is in another worker's hands.
#pragma once
#include <gq/queue_select.cuh>
#include <gq/wave_faa.cuh>
#include "tile_profile.h"
#include "whitted.h"

// RT_TILE_SAMPLES=1 (default): a worker whose sample ends without a reflection goes straight on
// to the pixel's next sample instead of handing the pixel back to the queue, as the compaction
// baseline's RT_WAVE_SAMPLES=1 goes on within its wave. What the queues carry is then what the
// seed has them carry: a tile's primary work and its reflection bounces; a pixel's samples still
// run one after another in the same order, so no pixel changes. 0: one segment per dequeue (the
// code before run 71), kept for tools/gpu_render_probe.py's A/B.
#ifndef RT_TILE_SAMPLES
#define RT_TILE_SAMPLES 1
#endif

namespace rt {

struct TileGrid {
  uint32_t width, height, tiles_x, tiles_y;

  GQ_HD GQ_INLINE uint32_t count() const { return tiles_x * tiles_y; }
  GQ_HD GQ_INLINE uint32_t tile_of(uint32_t pixel) const {
    const uint32_t x = pixel % width, y = pixel / width;
    const uint32_t tx = (uint32_t)((uint64_t)x * tiles_x / width);
    const uint32_t ty = (uint32_t)((uint64_t)y * tiles_y / height);
    return ty * tiles_x + tx;
  }
};

// One queue per tile, laid out back to back in one word array.
struct TileQueues {
  uint64_t* base;
  uint64_t stride;    // gq::Queue::words(capacity, threads)
  uint64_t capacity;  // the largest tile's pixel count
  uint64_t threads;   // every worker may touch every queue (stealing)

  GQ_HD GQ_INLINE gq::Queue queue(uint32_t tile) const {
    return gq::Queue::view(base + (uint64_t)tile * stride, capacity, threads);
  }
  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t stride, uint64_t capacity, uint64_t threads) {
    return gq::Queue::initial_word(i % stride, capacity, threads);
  }
};

// Enqueue, retrying a transient refusal (SFQ's non-waiting enqueue can refuse while a slow
// dequeuer still holds the slot); the queue can never be truly full.
GQ_HD GQ_INLINE bool tile_enqueue(const gq::Queue& q, uint32_t pixel, uint32_t tid, const gq::ErrorFlag& err) {
  gq::Spin spin;
  while (!q.try_enqueue(pixel, tid, err)) {
    if (err.raised()) return false;
    if (!spin.step(err, gq::kSiteTileEnqueue, pixel)) return false;
  }
  return true;
}

// A queued item is a pixel index, with kFreshItem set while the pixel has not been traced yet:
// its path state is then fresh_path(), a constant, so nothing writes the pool before the render
// and the first dequeue reads none (as the compaction baseline's first wave makes its items from
// the index, rt/compaction.h). Pixels stay below 2^28 (raytrace/scene.py's MAX_IMAGE_SIDE), and
// the largest item stays below the values the queues keep for themselves (gq/ymc.cuh: 2^32 - 2).
constexpr uint32_t kFreshItem = 1u << 31;

// The primary work: pixel `pixel` enters its tile's queue.
GQ_HD GQ_INLINE void seed_pixel(const TileGrid& g, const TileQueues& tq, uint32_t pixel, uint32_t tid,
                                const gq::ErrorFlag& err) {
  tile_enqueue(tq.queue(g.tile_of(pixel)), pixel | kFreshItem, tid, err);
}

// The order in which a worker tries the tiles (k = 0 .. tiles-1): its home first, then every
// other tile once, starting at an offset that differs from warp to warp, so that the workers of
// one home tile do not all descend on the same neighbour when theirs runs dry. Warp-uniform, so a
// warp's lanes still try one queue together and their tickets aggregate.
GQ_HD GQ_INLINE uint32_t victim(uint32_t home, uint32_t k, uint32_t scatter, uint32_t tiles) {
  return k == 0 ? home : (home + 1u + (scatter + k - 1u) % (tiles - 1u)) % tiles;
}

// Dequeue an item: the home tile first, then the others in victim() order. On an empty queue
// try_dequeue takes no ticket (gq/queue_select.cuh), so an idle worker polling every tile does
// not slow the producers it waits for. (Run 73 read the other tiles' relaxed Head and Tail first,
// a tile a lane, and tried only those that showed work: G-LFQ unchanged, G-WFQ and G-WFQ-YMC
// 3.5x and 6x slower on cornell, the cheap polls' storm on the queues the producers use.)
GQ_HD GQ_INLINE bool steal(const TileQueues& tq, uint32_t tiles, uint32_t home, uint32_t scatter, uint32_t tid,
                           uint32_t* item, const gq::ErrorFlag& err) {
  bool got = false;
  for (uint32_t k = 0; k < tiles && !got; ++k)
    got = tq.queue(victim(home, k, scatter, tiles)).try_dequeue(item, tid, err);
  return got;
}

// One persistent worker. `home` is its tile (all workers of a block share one, so a warp's
// batched dequeue meets one queue); `members` are the lanes of its warp that are workers (the
// caller's own bit on the host); the render ends when `samples_done` reaches `total`
// (pixels x spp).
//
// The loop is warp-uniform: every iteration starts with all members together and the warp
// leaves together. After advance_path and the re-enqueue the lanes have diverged, and with
// independent thread scheduling nothing makes them meet again; the dequeue of the next
// iteration would then take one ticket per straggling lane instead of one per warp.
//
// The re-enqueue is left to the lanes apart, as they finish their traces, on purpose: making them
// meet after advance_path so that it aggregates per warp (24e8797, run 27) changed G-LFQ by -1 %
// (spheres100) and -6 % (cornell) against run 22. The queue operations are bound by the latency
// of their chain of dependent atomics, not by how many there are, and a lane that enqueues while
// its neighbours still trace hides that latency behind their work.
GQ_HD GQ_INLINE void tile_worker(const RenderParams& p, PathState* pool, const TileGrid& g, const TileQueues& tq,
                                 uint32_t home, uint32_t tid, uint32_t members, uint64_t total,
                                 uint64_t* samples_done, RayCounts& c, const gq::ErrorFlag& err) {
  const uint32_t tiles = g.count();
  // The idle budget bounds a wait in which no worker anywhere finishes a sample: every other
  // wait ends when the count moves. On the GPU an idle round tries every tile's queue, so the
  // budget is split over the tiles (a lost ray ends the kernel within seconds, not minutes); on
  // the CPU a round also yields the core, and a busy machine may not give it back for a while.
#if GQ_DEVICE_BUILD
  const uint32_t idle_budget = GQ_SPIN_BUDGET / tiles > 4096u ? GQ_SPIN_BUDGET / tiles : 4096u;
#else
  const uint32_t idle_budget = GQ_SPIN_BUDGET;
#endif
  gq::Spin idle(idle_budget);
  const uint32_t scatter = (uint32_t)(((uint64_t)(tid / 32u) * 2654435761u) % tiles);
  uint64_t seen = gq::load<gq::mo::relaxed>(samples_done);
  bool stop = false;  // this lane is finished: the render is done, or the error flag is up
  const TileProfile prof(tid);  // RT_PROFILE=1 only (rt/tile_profile.h)
  [[maybe_unused]] const uint64_t t_start = prof.now();
  for (;;) {
    gq::sync_lanes(members);
    stop = stop || err.raised() || gq::load<gq::mo::acquire>(samples_done) >= total;
    const uint32_t stopped = gq::ballot(members, stop);
    if (stopped == members) {
      if (RT_PROFILE && gq::lane_id() == gq::first_lane(members)) prof.add(kProfTotal, prof.now() - t_start);
      return;
    }
    if (stop) continue;  // wait at the top for the lanes still working
    // The warp's lowest working lane is the one whose iterations the profile samples (lane_id()
    // is a volatile asm the compiler keeps: read only in the profiled build).
    const bool sampled = RT_PROFILE && gq::lane_id() == gq::first_lane(members & ~stopped);
    [[maybe_unused]] const uint64_t t_top = prof.now();
    uint32_t item = 0;
    const bool got = steal(tq, tiles, home, scatter, tid, &item, err);
    if (err.raised()) continue;
    if (!got) {
      const uint64_t now = gq::load<gq::mo::relaxed>(samples_done);
      if (now != seen) {  // someone finished a sample: the wait starts over
        seen = now;
        idle = gq::Spin(idle_budget);
      }
      stop = !idle.step(err, gq::kSiteTileIdle, now);
      if (sampled) {
        prof.add(kProfIdle, prof.now() - t_top);
        prof.add(kProfIdleIters, 1);
      }
      continue;
    }
    [[maybe_unused]] const uint64_t t_dequeued = prof.now();
    idle = gq::Spin(idle_budget);  // progress: a fresh budget for the next wait
    // The queue's enqueue (release) and dequeue (acquire) order the pool entry between workers.
    const uint32_t pixel = item & ~kFreshItem;
    PathState st = (item & kFreshItem) ? fresh_path() : pool[pixel];
    Next next;
    for (;;) {  // one call site: advance_path is inlined once (rt/compaction.h, run 21)
      next = advance_path(p, st, pixel, c);
      if (!RT_TILE_SAMPLES || next != kNextSample) break;
      gq::wave_faa<gq::mo::relaxed>(samples_done);
    }
    pool[pixel] = st;
    [[maybe_unused]] const uint64_t t_traced = prof.now();
    if (next != kPixelDone && !tile_enqueue(tq.queue(g.tile_of(pixel)), pixel, tid, err)) continue;
    if (next != kReflect) gq::wave_faa<gq::mo::relaxed>(samples_done);
    if (sampled) {
      prof.add(kProfDequeue, t_dequeued - t_top);
      prof.add(kProfTrace, t_traced - t_dequeued);
      prof.add(kProfRequeue, prof.now() - t_traced);
      prof.add(kProfWorkIters, 1);
    }
  }
}

}  // namespace rt
