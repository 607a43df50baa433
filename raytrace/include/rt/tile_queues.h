// rt/tile_queues.h — the tile-based persistent wavefront renderer (seed 001, Section V.B.b).
//
// The image is cut into tiles_x x tiles_y tiles and each tile owns a queue (any queue kind of the
// queue layer: gq::Queue, chosen at build time). What the queues carry are ray packets: an item
// is the index of an 8x4 screen block (rt/pixel_order.h), and its rays are the block's pixels
// whose paths go on, `masks[block]` (the sCQ indirection: a 32-bit index into a pool, here of
// PathStates and lane masks). All blocks are enqueued in the tile of their top-left pixel first;
// then a persistent grid, no larger than what is resident, loops warp by warp in rounds: a few of
// the warp's lanes each dequeue a block from its home tile (or steal one from the others when
// that is empty), the warp advances the live pixels' paths up to their next reflection (or last
// sample), and each block whose pixels reflected goes back to the same tile's queue with those
// pixels live (in the warp's next round, beside that round's dequeues: tile_worker). A block is in
// at most one queue slot at a time, so a tile's queue never needs more than the tile's blocks.
//
// Why packets, not one pixel an item (the code before run 109, where every lane made its own
// queue operations): a queue operation is a chain of about a dozen dependent atomics on the
// queue's hot lines, 17-19 us of a warp's time under the renderer's load (run 72), against about
// 13 us of tracing a ray; at 0.29 enqueues and 0.29 dequeues a ray (spheres100) half the warps
// were in the queues at any time. A packet pays one chain for up to 32 rays, and the queues see a
// thirty-second of the clients (runs 109-116: spheres100 7.24 -> 5.00 ms, cornell 1.67 -> 1.24 ms
// with G-LFQ). What it costs: a lane whose path ended idles until its warp's round ends, as the
// compaction baseline's lanes do within a wave (rt/compaction.h).
//
// Termination comes from a device counter of finished samples, never from empty queues: an
// empty queue may only mean that every remaining ray is in another worker's hands.
//
// This is the form for the non-waiting queue kinds (G-LFQ, G-WFQ, G-WFQ-YMC); a kind with a
// blocking interface (SFQ) runs rt/tile_queues_blocking.h's, with tickets held ahead, over the
// same rounds (trace_round) and seeding.
#pragma once
#include <gq/queue_fill.cuh>
#include <gq/queue_op.cuh>
#include <gq/queue_select.cuh>
#include <gq/wave_faa.cuh>
#include "pixel_order.h"
#include "tile_profile.h"
#include "whitted.h"

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
  GQ_HD GQ_INLINE ScreenBlocks blocks() const { return ScreenBlocks{width, height}; }
  // A block's tile is its top-left pixel's: blocks are not cut at tile edges, so a tile smaller
  // than a block may own none (its workers then only steal). raytrace/render.py's tile_capacity
  // counts the blocks each tile owns this way.
  GQ_HD GQ_INLINE uint32_t tile_of_block(uint32_t block) const { return tile_of(blocks().first_pixel(block)); }

  // So the blocks a tile owns are a rectangle of the block grid: tile (tx, ty) owns the block
  // columns [first_col(tx), first_col(tx + 1)) and rows [first_row(ty), first_row(ty + 1)), where
  // first_col(t) is the first column c with 8c * tiles_x / width >= t, c >= t * width / (8 tiles_x).
  GQ_HD static uint32_t first_of(uint32_t t, uint32_t side, uint32_t tiles, uint32_t step) {
    return (uint32_t)(((uint64_t)t * side + (uint64_t)step * tiles - 1u) / ((uint64_t)step * tiles));
  }
  GQ_HD uint32_t first_col(uint32_t tx) const { return first_of(tx, width, tiles_x, kBlockW); }
  GQ_HD uint32_t first_row(uint32_t ty) const { return first_of(ty, height, tiles_y, kBlockH); }
  GQ_HD uint32_t tile_blocks(uint32_t tile) const {
    const uint32_t tx = tile % tiles_x, ty = tile / tiles_x;
    return (first_col(tx + 1) - first_col(tx)) * (first_row(ty + 1) - first_row(ty));
  }
  // The j-th (from 0) of tile `tile`'s blocks in block order (rows, then columns), j < tile_blocks.
  GQ_HD uint32_t tile_block(uint32_t tile, uint32_t j) const {
    const uint32_t tx = tile % tiles_x, ty = tile / tiles_x;
    const uint32_t c0 = first_col(tx), cols = first_col(tx + 1) - c0;
    return (first_row(ty) + j / cols) * blocks().across() + c0 + j % cols;
  }
};

// One queue per tile, laid out back to back in one word array.
struct TileQueues {
  uint64_t* base;
  uint64_t stride;    // gq::Queue::words(capacity, threads)
  uint64_t capacity;  // the most blocks any tile owns
  uint64_t threads;   // queue users (kRoundBlocks a warp on the GPU, one a thread on the host); any may use any queue

  GQ_HD GQ_INLINE gq::Queue queue(uint32_t tile) const {
    return gq::Queue::view(base + (uint64_t)tile * stride, capacity, threads);
  }
};

// Enqueue, retrying a transient refusal (SFQ's non-waiting enqueue can refuse while a slow
// dequeuer still holds the slot); the queue can never be truly full.
GQ_HD GQ_INLINE bool tile_enqueue(const gq::Queue& q, uint32_t item, uint32_t user, const gq::ErrorFlag& err) {
  gq::Spin spin;
  while (!q.try_enqueue(item, user, err)) {
    if (err.raised()) return false;
    if (!spin.step(err, gq::kSiteTileEnqueue, item)) return false;
  }
  return true;
}

// A queued item is a block index, with kFreshItem set while the block has not been traced yet:
// its path states are then fresh_path(), a constant, so nothing writes the pool before the render
// and the first dequeue reads no state (as the compaction baseline's first wave makes its items
// from the index, rt/compaction.h). Its lanes (every lane that holds a pixel) are in `masks`,
// written when the block is seeded: a read, where working them out from the block index put
// divisions and four unrolled copies of their code beside the tracers (runs 143-145). Blocks stay
// below 2^23 (pixels below 2^28: raytrace/scene.py's MAX_IMAGE_SIDE), and the largest item below
// the values the queues keep for themselves (gq/ymc.cuh: 2^32 - 2).
constexpr uint32_t kFreshItem = 1u << 31;

// The primary work: block `block`'s lanes into `masks` and the block into its tile's queue (whose
// enqueue publishes the mask to the worker that takes it).
GQ_HD GQ_INLINE void seed_block(const TileGrid& g, const TileQueues& tq, uint32_t* masks, uint32_t block,
                                uint32_t user, const gq::ErrorFlag& err) {
  masks[block] = g.blocks().lanes(block);
  tile_enqueue(tq.queue(g.tile_of_block(block)), block | kFreshItem, user, err);
}

// Whether the tile queues are built holding their primary work (gq/queue_fill.cuh): each tile's
// blocks, fresh, in block order, as seed_block would enqueue them one by one. Queues that cannot
// be built filled start empty and every block goes through seed_block. RT_SEED_BY_FILL=0, a
// measuring aid for tools/gpu_render_probe.py, seeds by enqueues whatever the queue.
#ifndef RT_SEED_BY_FILL
#define RT_SEED_BY_FILL 1
#endif
constexpr bool kSeedByFill = RT_SEED_BY_FILL && gq::queue_can_fill<gq::Queue>;

// Word w of tile `tile`'s queue built filled, holding the tile's `blocks` (g.tile_blocks(tile),
// which the caller works out once a tile: the initialisation writes millions of words) in block
// order. (Orders that spread the tile's work out lost: a stride through the tile by 0.618 of it
// slowed cornell's persistent kernel 5 % and spheres100's 3 % (run 193); the same stride over runs
// of 8, 32 or 120 consecutive blocks slowed cornell's 2-6 % (run 195).)
GQ_HD inline uint64_t seeded_word(const TileGrid& g, const TileQueues& tq, uint32_t tile, uint32_t blocks,
                                  uint64_t w) {
  auto item = [&](uint64_t j) { return g.tile_block(tile, (uint32_t)j) | kFreshItem; };
  return gq::queue_filled_word<gq::Queue>(w, tq.capacity, tq.threads, blocks, item);
}

// The tile queues' words, by the callers first, first + step, ... (a GPU grid, or one host thread
// with 0 and 1): under kSeedByFill each tile's queue holding its blocks, and every block's lanes
// in `masks`; otherwise empty queues (and `masks` untouched: the seeding writes them). Tile by
// tile, so that no word pays a division by the stride.
GQ_HD inline void build_tile_queues(const TileGrid& g, const TileQueues& tq, uint32_t* masks, uint64_t first,
                                    uint64_t step) {
  for (uint32_t t = 0; t < g.count(); ++t) {
    const uint32_t blocks = g.tile_blocks(t);
    for (uint64_t w = first; w < tq.stride; w += step) {
      tq.base[t * tq.stride + w] = kSeedByFill ? seeded_word(g, tq, t, blocks, w)
                                               : gq::Queue::initial_word(w, tq.capacity, tq.threads);
    }
  }
  if (kSeedByFill)
    for (uint64_t b = first; b < g.blocks().count(); b += step) masks[b] = g.blocks().lanes((uint32_t)b);
}

// RT_QUEUE_ONE_PATH=0, a measuring aid for tools/gpu_render_probe.py: tile_transfer calls the
// queue's try_enqueue or try_dequeue (both inlined) instead of its one transfer path.
#ifndef RT_QUEUE_ONE_PATH
#define RT_QUEUE_ONE_PATH 1
#endif

// One queue operation of a worker's queue phase, enqueue or dequeue as `enqueue` says, through
// one call of gq::queue_op (gq/queue_op.cuh), so that the phase inlines the queue's code once and
// a warp's enqueuing and dequeuing lanes run it side by side (for G-LFQ its one transfer path).
//
// Enqueue: `*item` into tile `*from`'s queue, retrying a transient refusal as tile_enqueue does.
// Dequeue: an item into `*item`, from the home tile first, then every other tile once, from
// home + 1 + `offset` on (mod tiles, home skipped; offset < tiles - 1, 0 when there is one tile),
// an offset that differs from warp to warp so that the workers of one home tile do not all descend
// on the same neighbour when theirs runs dry; `*from` is then the tile whose queue gave it, which
// is the block's own tile (blocks only ever enter their own tile's queue). The order is stepped
// without a division: this runs every round. On an empty queue try_dequeue takes no ticket (gq/
// queue_select.cuh), so an idle worker polling every tile does not slow the producers it waits
// for. (Run 73 read the other tiles' relaxed Head and Tail first, a tile a lane, and tried only
// those that showed work: G-LFQ unchanged, G-WFQ and G-WFQ-YMC 3.5x and 6x slower on cornell, the
// cheap polls' storm on the queues the producers use.)
GQ_HD GQ_INLINE bool tile_transfer(const TileQueues& tq, uint32_t tiles, uint32_t home, uint32_t offset, bool enqueue,
                                   uint32_t user, uint32_t* item, uint32_t* from, const gq::ErrorFlag& err) {
  uint32_t tile = enqueue ? *from : home, r = offset;
  gq::Spin spin;
  for (uint32_t tried = 1;; ++tried) {
    uint32_t v = *item;
#if RT_QUEUE_ONE_PATH
    const bool ok = queue_op(tq.queue(tile), enqueue, &v, user, err);  // unqualified: the queue's own overload
#else
    const bool ok = enqueue ? tq.queue(tile).try_enqueue(v, user, err) : tq.queue(tile).try_dequeue(&v, user, err);
#endif
    if (ok) {
      *item = v;
      *from = tile;
      return true;
    }
    if (err.raised()) return false;
    if (enqueue) {
      if (!spin.step(err, gq::kSiteTileEnqueue, v)) return false;
      continue;
    }
    if (tried == tiles) return false;  // every tile's queue was empty
    tile = home + 1u + r;  // < 2 tiles
    if (tile >= tiles) tile -= tiles;
    if (++r == tiles - 1u) r = 0;
  }
}

// The position of the n-th (from 0) set bit of `mask`, which has more than n bits set.
GQ_HD GQ_INLINE uint32_t nth_set_bit(uint32_t mask, uint32_t n) {
  uint32_t pos = 0;
  for (uint32_t half = 16; half > 0; half >>= 1) {
    const uint32_t low = gq::popcount(mask & ((1u << half) - 1u));
    if (n >= low) {
      n -= low;
      mask >>= half;
      pos += half;
    }
  }
  return pos;
}

// RT_TILE_SAMPLES=1 (default): a lane whose sample ends without a reflection goes straight on to
// the pixel's next sample, as the compaction baseline's RT_WAVE_SAMPLES=1 goes on within its wave;
// what the queues carry is then what the seed has them carry, a tile's primary work and its
// reflection bounces. 0: one path segment a round (the pixel's block goes back after every
// sample; run 116: cornell 1.24 -> 2.11 ms, spheres100 5.00 -> 5.62 ms), a measuring aid for
// tools/gpu_render_probe.py. A pixel's samples run in the same order either way, so no pixel
// changes.
#ifndef RT_TILE_SAMPLES
#define RT_TILE_SAMPLES 1
#endif

// RT_TAIL_SAMPLES=R, a measuring aid for tools/gpu_render_probe.py (0, the shipped build: off): once
// fewer than R reserves of samples are left (the reserve: kReserveRounds rounds of one fresh block
// for every worker, as below), a round takes each live pixel through one sample at most, as
// RT_TILE_SAMPLES=0 does for the whole render, so the render's last rounds are up to spp times
// shorter and the workers run out of work closer together. A pixel's samples run in the same order,
// so no pixel changes, and a block still has at most spp * (max_depth + 1) rounds (the blocking
// form's one-lap capacity holds). Why it was tried: a host replay of 4,224 workers' rounds over the
// counted path segments (raytrace/tile_schedule.py) left cornell's workers idle 13 % of the time,
// nearly all of it in the render's last fifth, and 7 % with R = 1, its makespan 3 % shorter. On the
// GPU it lost (H100, run 403, SFQ 1x1, median of 7, cornell / spheres100): 0.73 / 2.45 ms shipped,
// 0.78 / 2.51 with R = 1, 0.76 / 2.51 with R = 2; G-LFQ 2x2 0.84 / 2.85 -> 0.94 / 3.00 ms. So it stays
// off, a probe row.
#ifndef RT_TAIL_SAMPLES
#define RT_TAIL_SAMPLES 0
#endif

// How many blocks a worker may take a round (RT_ROUND_BLOCKS; the probe's A/B builds set others).
// A round costs a dequeue chain and an enqueue chain whatever it carries, 15 and 13 us of the
// warp's time under the renderer's load, against about 45 us of tracing one block (run 110,
// spheres100, one block a round); the lanes of rank j < k make one chain each at the same time, so
// a round of k blocks pays the chains' latency once. The cost of k blocks: a round k times as
// long, so the render's last rounds leave more warps idle (run 111, always 4: cornell's idle share
// 17 -> 45 % of the warps' time). So a round takes k = min(kRoundBlocks, remaining / reserve)
// blocks, where `reserve` is kReserveRounds rounds of one fresh block for every worker: many while
// much of the render is left, one near its end (0: always kRoundBlocks). Run 115 (G-LFQ, 4x4
// tiles, cornell / spheres100): at most 1, 2, 4, 8 blocks 1.56 / 6.19, 1.44 / 5.82, 1.38 / 5.41,
// 1.41 / 5.18 ms; at 2x2, reserve 1, 2 and 0 rounds 1.32 / 5.09, 1.28 / 5.23, 1.59 / 5.52 ms.
// Since the queue phase (run 151: a round's requeues and dequeues one chain's latency) 8 gains on
// both scenes with G-LFQ: run 160, 2x2, the persistent kernel over 11 renders, twice: cornell
// 0.837 / 0.837 ms against 0.878 / 0.859 at 4, spheres100 2.965 / 2.964 against 3.055 / 3.026;
// G-WFQ gained too (`gq bench render`, run 161 against 157: 9.9 against 8.9 G rays/s on
// spheres100). G-WFQ-YMC and SFQ lost (YMC spheres100 13.8 ms at 8 against 8.6 at 4, run 162;
// SFQ 79 against 97 M rays/s), for reasons not looked into (both slow with more queue users: 8
// blocks a round make 16 a warp), so they keep 4. SFQ's blocking form (rt/tile_queues_blocking.h),
// whose queue work costs a round a few round trips rather than a chain, does best with small
// rounds: up to 2 blocks (H100, run 398, tools/gpu_render_probe.py at 2x2, spheres100 / cornell)
// 2.47 / 0.72 ms, at 4 2.59 / 0.75, at 8 2.66 / 0.78 (compaction 2.79 / 0.86).
#ifndef RT_ROUND_BLOCKS
#if GQ_QUEUE_KIND == 1 || GQ_QUEUE_KIND == 3  // G-LFQ, G-WFQ (gq/queue_select.cuh)
#define RT_ROUND_BLOCKS 8
#elif GQ_QUEUE_KIND == 2  // SFQ
#define RT_ROUND_BLOCKS 2
#else
#define RT_ROUND_BLOCKS 4
#endif
#endif
// RT_TILE_ONE_TRAVERSAL=1 (default): advance_path's one runtime-flag traversal (rt/whitted.h);
// 0, a measuring aid for tools/gpu_render_probe.py: the two specialised copies compaction runs.
#ifndef RT_TILE_ONE_TRAVERSAL
#define RT_TILE_ONE_TRAVERSAL 1
#endif
#ifndef RT_RESERVE_ROUNDS
#define RT_RESERVE_ROUNDS 1
#endif
// RT_QUEUE_OVERLAP=1 (default): a round's requeues and dequeues at once (tile_worker); 0, a
// measuring aid for tools/gpu_render_probe.py: the requeues first, then the dequeues, as before
// run 151, from the same call site.
#ifndef RT_QUEUE_OVERLAP
#define RT_QUEUE_OVERLAP 1
#endif
#ifndef RT_REQUEUE_RETRY
#define RT_REQUEUE_RETRY 1
#endif
constexpr uint32_t kRoundBlocks = RT_ROUND_BLOCKS;
constexpr uint32_t kReserveRounds = RT_RESERVE_ROUNDS;
constexpr uint32_t kTailSamples = RT_TAIL_SAMPLES;
static_assert(kRoundBlocks >= 1 && kRoundBlocks <= 32, "a round's blocks: one dequeuing lane each");

// Whether this round takes its pixels through one sample at most (RT_TAIL_SAMPLES), from the
// leader's count of samples finished (`done`), so that every lane agrees.
GQ_HD GQ_INLINE bool tail_round(uint64_t total, uint64_t done, uint64_t reserve, uint32_t members, uint32_t leader) {
  if constexpr (kTailSamples == 0) return false;
  return gq::shuffle(members, total - done, leader) < (uint64_t)kTailSamples * reserve;
}

// A worker's queue users: each of a round's operations, its kRoundBlocks requeues and its
// kRoundBlocks dequeues, has its own lane on the GPU (rt_tile_layout counts the users).
// (Under RT_QUEUE_OVERLAP=0 a requeue and the dequeue of the same slot never run at once and
// share a user.)
constexpr uint32_t kRoundOps = 2 * kRoundBlocks;
constexpr uint32_t kRoundUsers = RT_QUEUE_OVERLAP ? kRoundOps : kRoundBlocks;

// A worker's tracing of one round (N slots: kRoundBlocks, or one more in the blocking form's): the
// live pixels of the blocks in the slots `got` (item[j],
// kFreshItem set while the block has not been traced) dealt out densely to the lanes, as a
// compaction wave packs its survivors (a block that comes back with few live lanes does not leave
// the rest of the warp idle), each lane tracing a pixel's path up to its next reflection or its
// last sample (on the host the one thread traces them all, one after another). back[j] (zero on
// entry, warp-uniform on return): the lanes of slot j's block whose paths go on, with which it goes
// back into its tile's queue. `one_sample`: no lane goes on to its pixel's next sample
// (RT_TAIL_SAMPLES). Ends with the lanes' pool entries ordered before what comes next (the
// requeues, whose enqueues hand the blocks on).
template <uint32_t N>
GQ_HD GQ_INLINE void trace_round(const RenderParams& p, PathState* pool, const uint32_t* masks, const ScreenBlocks& blocks,
                                 uint32_t got, const uint32_t (&item)[N], uint32_t rank, uint32_t nlanes,
                                 uint32_t members, bool one_sample, uint64_t* samples_done, RayCounts& c,
                                 uint32_t (&back)[N]) {
  uint32_t live[N], first[N], pixels = 0;
  // One copy of first_pixel's division, not N (these arrays live in local memory anyway).
#pragma unroll 1
  for (uint32_t j = 0; j < N; ++j) {
    const bool has = (got >> j) & 1u;
    live[j] = has ? masks[item[j] & ~kFreshItem] : 0u;
    first[j] = has ? blocks.first_pixel(item[j] & ~kFreshItem) : 0u;
    pixels += gq::popcount(live[j]);
  }
  // Live pixel w is block j's n-th live lane, counting the blocks in slot order. One loop and
  // one call site, so advance_path is inlined once (rt/compaction.h, run 21).
  for (uint32_t w = rank; w < pixels; w += nlanes) {
    uint32_t j = 0, n = w;
    while (n >= gq::popcount(live[j])) n -= gq::popcount(live[j++]);
    const uint32_t lane = nth_set_bit(live[j], n);
    const uint32_t pixel = blocks.pixel_at(first[j], lane);
    PathState st = (item[j] & kFreshItem) ? fresh_path() : pool[pixel];
    Next next;
    for (;;) {  // one count site, one copy of the warp-aggregated add
      next = advance_path<RT_TILE_ONE_TRAVERSAL != 0>(p, st, pixel, c);
      if (next != kReflect) gq::wave_faa<gq::mo::relaxed>(samples_done);  // a sample ended
      if (!RT_TILE_SAMPLES || next != kNextSample || one_sample) break;
    }
    pool[pixel] = st;
    if (next != kPixelDone) back[j] |= 1u << lane;  // the pixel stays live: its block goes back
  }
  for (uint32_t j = 0; j < N; ++j) back[j] = gq::reduce_or(members, back[j]);
  // Every lane's pool entries before the requeues (release) hand the blocks on.
  gq::sync_lanes(members);
}

// A worker's wait for blocks. The budget bounds a wait in which no worker anywhere finishes a
// sample, so it starts over whenever the count of finished samples moves, and after each round
// that found work.
struct IdleWait {
  uint32_t budget;
  gq::Spin spin;
  uint64_t seen;
  GQ_HD IdleWait(uint32_t budget, uint64_t* samples_done)
      : budget(budget), spin(budget), seen(gq::load<gq::mo::relaxed>(samples_done)) {}
  // A round that found nothing; an exhausted budget raises the flag, and all stop.
  GQ_HD GQ_INLINE void step(uint64_t* samples_done, const gq::ErrorFlag& err) {
    const uint64_t now = gq::load<gq::mo::relaxed>(samples_done);
    if (now != seen) {  // someone finished a sample: the wait starts over
      seen = now;
      spin = gq::Spin(budget);
    }
    spin.step(err, gq::kSiteTileIdle, now);
  }
  GQ_HD GQ_INLINE void progress() { spin = gq::Spin(budget); }
};

// One persistent worker: the lanes `members` of one warp (on the host, one thread: the caller's
// own bit), one of `workers`. Its lane of rank r < kRoundUsers is queue user `user` + r (on the
// host the thread makes all of a round's operations as `user`). `home` is its tile (all workers of
// a GPU block share one); `masks` holds each queued block's lanes; the render ends when
// `samples_done` reaches `total` (pixels x spp).
//
// The loop is warp-uniform: every decision the lanes must share (stop, how many blocks, which) is
// a ballot or a broadcast, so the lanes meet at the top of every round and leave together. A round:
// the queue phase, in which the blocks of the last round whose lanes reflected go back to their
// tiles' queues while up to k blocks are dequeued, every operation at once on a lane of its own
// (on the host one after another, the requeues first); then the blocks taken are traced
// (trace_round).
//
// Why the requeues wait for the next round's dequeues: a queue operation is a chain of dependent
// atomics, and the round's dequeues and requeues used to be two such chains one after the other
// (run 150's profile, G-LFQ spheres100: 18.7 % and 10.6 % of the warps' time). Made together,
// through one call site (tile_transfer), they cost one chain's latency, and the queue's code is
// inlined once instead of twice. A block waits a little longer between its rounds; it is in no
// queue meanwhile, which is what a block being traced is too.
GQ_HD GQ_INLINE void tile_worker(const RenderParams& p, PathState* pool, uint32_t* masks, const TileGrid& g,
                                 const TileQueues& tq, uint32_t home, uint32_t tid, uint32_t user, uint32_t members,
                                 uint32_t workers, uint64_t total, uint64_t* samples_done, RayCounts& c,
                                 const gq::ErrorFlag& err) {
  const uint32_t tiles = g.count();
  const ScreenBlocks blocks = g.blocks();
  const uint32_t leader = gq::first_lane(members);
  const bool leads = gq::lane_id() == leader;
  const uint32_t rank = gq::popcount(members & gq::lanes_below(gq::lane_id()));
  const uint32_t nlanes = gq::popcount(members);
  const uint64_t reserve = (uint64_t)workers * 32u * p.spp * kReserveRounds;
  // The idle budget bounds a wait in which no worker anywhere finishes a sample: every other
  // wait ends when the count moves. On the GPU an idle round tries every tile's queue, so the
  // budget is split over the tiles (a lost ray ends the kernel within seconds, not minutes); on
  // the CPU a round also yields the core, and a busy machine may not give it back for a while.
#if GQ_DEVICE_BUILD
  const uint32_t idle_budget = GQ_SPIN_BUDGET / tiles > 4096u ? GQ_SPIN_BUDGET / tiles : 4096u;
#else
  const uint32_t idle_budget = GQ_SPIN_BUDGET;
#endif
  const uint32_t scatter = (uint32_t)(((uint64_t)(tid / 32u) * 2654435761u) % tiles);
  const uint32_t offset = tiles > 1 ? scatter % (tiles - 1u) : 0u;  // tile_transfer's first other tile
  // The queue phase's operation o < kRoundOps falls to the lane of rank o % nlanes: o < kRoundBlocks
  // requeues slot o, the others dequeue into slot o - kRoundBlocks; owner[j] is that dequeuer's lane.
  uint32_t owner[kRoundBlocks];
  for (uint32_t j = 0; j < kRoundBlocks; ++j)
    owner[j] = gq::first_lane(gq::ballot(members, rank == (kRoundBlocks + j) % nlanes));
  // Slot j's block (item[j], kFreshItem cleared once traced) and its tile (from[j]), and the lanes
  // with which it goes back in the next queue phase (back[j], 0: it does not): warp-uniform.
  uint32_t item[kRoundBlocks] = {}, from[kRoundBlocks] = {}, back[kRoundBlocks] = {};
  IdleWait idle(idle_budget, samples_done);
  const TileProfile prof(tid);  // RT_PROFILE=1 only (rt/tile_profile.h)
  [[maybe_unused]] const uint64_t t_start = prof.now();
  for (;;) {
    // The render is done or has failed once any lane has seen so: both only ever become true. A
    // block still to go back (back[j]) holds samples not yet done, so only a failure leaves one.
    // Relaxed: a lane that sees the render done leaves and reads nothing after (an acquire load
    // here timed the same, run 114).
    const uint64_t done = gq::load<gq::mo::relaxed>(samples_done);
    if (gq::ballot(members, err.raised() || done >= total) != 0) {
      if (RT_PROFILE && leads) prof.add(kProfTotal, prof.now() - t_start);
      return;
    }
    const bool sampled = RT_PROFILE && leads;  // the profile samples the leader's rounds
    [[maybe_unused]] const uint64_t t_top = prof.now();
    // The round's blocks, min(kRoundBlocks, max(1, remaining / reserve)) by comparisons, from the
    // leader's count, so that every lane agrees.
    const uint64_t remaining = total - done;
    uint32_t mine = reserve == 0 ? kRoundBlocks : 1u;
    for (uint32_t m = 2; m <= kRoundBlocks && reserve != 0; ++m)
      if (remaining >= (uint64_t)m * reserve) mine = m;
    const uint32_t k = gq::shuffle(members, mine, leader);
    const bool one_sample = tail_round(total, done, reserve, members, leader);
    // The queue phase. A requeue writes its block's live lanes before its enqueue (release) hands
    // the block on; a lane that makes both kinds (nlanes < kRoundOps) requeues slot j before it
    // dequeues into it, since operations run in order.
    uint32_t got = 0;  // bit j: slot j holds a block
    uint32_t requeued = 0;
    for (uint32_t j = 0; j < kRoundBlocks; ++j) requeued |= back[j];
#pragma unroll 1  // one call site
    for (uint32_t pass = 0;; ++pass) {
      for (uint32_t o = rank; o < kRoundOps; o += nlanes) {
        const bool requeue = o < kRoundBlocks;
        const uint32_t j = requeue ? o : o - kRoundBlocks;
        if (requeue ? back[j] == 0 : j >= k || (!RT_QUEUE_OVERLAP && pass == 0 && requeued != 0)) continue;
        if (requeue) {
          item[j] &= ~kFreshItem;
          masks[item[j]] = back[j];
        }
        const uint32_t op_user = user + (RT_QUEUE_OVERLAP || nlanes == 1 ? rank : j);
        if (tile_transfer(tq, tiles, home, offset, requeue, op_user, &item[j], &from[j], err) && !requeue)
          got |= 1u << j;
      }
      got = gq::reduce_or(members, got);
      for (uint32_t j = 0; j < kRoundBlocks; ++j) back[j] = 0;
      // Dequeues that ran beside this worker's own requeues may have found every queue empty
      // only because those blocks were not back yet (near the render's end they can be the last
      // work left): then the dequeues go once more, now that they are back, rather than the warp
      // taking an idle round. Added for cornell's idle share, 20 -> 28 % at ba83827 (run 151); it
      // did not bring that back (run 152: the seeders did, run 156), but it pays on spheres100:
      // run 160, G-LFQ 2x2, persistent kernel over 11 renders, twice: 3.055 / 3.026 ms against
      // 3.114 / 3.123 without (cornell 0.878 / 0.859 against 0.874 / 0.867). RT_REQUEUE_RETRY=0,
      // a measuring aid for tools/gpu_render_probe.py, leaves it out.
      if (got != 0 || requeued == 0 || pass != 0 || !RT_REQUEUE_RETRY) break;
    }
    for (uint32_t j = 0; j < kRoundBlocks; ++j) {
      item[j] = gq::shuffle(members, item[j], owner[j]);
      from[j] = gq::shuffle(members, from[j], owner[j]);
    }
    // Each dequeue (acquire) orders its block's pool entries and mask, which the lanes that
    // enqueued it wrote, before what every lane reads next.
    gq::sync_lanes(members);
    if (got == 0) {
      idle.step(samples_done, err);
      prof.idle_round(sampled, t_top);
      continue;
    }
    [[maybe_unused]] const uint64_t t_dequeued = prof.now();
    idle.progress();
    trace_round(p, pool, masks, blocks, got, item, rank, nlanes, members, one_sample, samples_done, c, back);
    prof.work_round(sampled, t_top, t_dequeued);
  }
}

}  // namespace rt
