// rt/tile_queues_blocking.h — the tile renderer's form for a queue kind with a blocking interface
// (SFQ, gq/blocking.cuh): tickets drawn ahead, as the queue BFS draws them (sssp/bfs_queue.h).
//
// The non-waiting form (rt/tile_queues.h: tile_worker) makes each dequeue and requeue a complete
// queue operation. SFQ's non-waiting claim is a CAS loop on Head or Tail, which 4,224 warps take
// one at a time: 0.17 G rays/s on spheres100 (H200, run 375). Its blocking interface is a
// fetch-add for a ticket and then the ticket's slot: the enqueue writes its element there, the
// dequeue waits until one is written. Here a worker holds up to kRoundBlocks dequeue tickets on its
// home tile's queue; each round it requeues the blocks whose pixels reflected (a fetch-add and a
// store each), looks at the slots of the tickets it holds (one read each, Sfq::peek), draws new
// tickets for the slots it emptied, no more than the queue shows elements for, and traces the
// blocks it found (trace_round). A ticket whose element has not come stays held: its element is
// the next one the queue's FIFO order gives this worker. A worker that holds none on its home
// queue draws one there and waits on it, so near the render's end the last requeued blocks go
// straight to waiting workers.
//
// One lap: a tile's queue is made large enough that no ticket, enqueue or dequeue, ever reaches
// its capacity (tile_queue_capacity), so an enqueue never waits for a slot's previous lap and the
// queue is used through SFQ's one-lap view (no division, no turn to read: gq/sfq.cuh). A block is
// enqueued once per round in which it is traced, and a round takes each live pixel to its next
// reflection or through all its samples, so a block has at most spp * (max_depth + 1) rounds (also
// with RT_TILE_SAMPLES=0, a segment a round). A ticket drawn past the tile's last element stays
// unfilled until the render ends (the sample count ends it, as in tile_worker); each worker holds
// at most kRoundBlocks such tickets (a stolen one is never unfilled: below). A ticket past the
// capacity anyway would be refused (peek never sees its element): the idle budget then ends the
// kernel with the flag raised (kSiteTileIdle), and an enqueue refused raises kCapacity.
//
// Stealing: a ticket, once drawn, must be taken, so a worker cannot try another tile's queue and
// give up as tile_worker does. A worker that found nothing in a round looks at one other tile's
// queue (the next in its order, one a round) and, where that shows an element, claims one ticket
// there with a CAS from Head to Head + 1 below Tail (SFQ's non-waiting claim, tried once): such a
// ticket's element has been enqueued or is being written, so it is never left waiting. It goes in
// a slot of its own (kSlots = kRoundBlocks + 1, the last only for steals), and the block goes back
// into its own tile's queue. So every tile is drained whoever's home it is (a tile has no worker of
// its own when there are fewer workers than tiles), idle workers help the tiles that still have
// work, and a worker's home tickets, which may wait for elements that never come, never keep it
// from stealing: while any queue holds an element nobody holds a ticket for, every idle worker
// still has its steal slot to claim it with (and a steal is taken as soon as its enqueuer's store
// lands, then traced, which frees the slot again).
#pragma once
#include <gq/blocking.cuh>
#include "tile_queues.h"

namespace rt {

// Whether queue kind Q's tile queues are used through its blocking interface (this file).
template <class Q>
constexpr bool kTileTickets = gq::has_blocking<Q>::value;

// The capacity each tile's queue gets: `blocks` (the most blocks a tile owns, render.py's
// tile_capacity) for the non-waiting form; for the blocking form every ticket its renders can draw
// (above), for `workers` workers.
template <class Q = gq::Queue>
GQ_HD inline uint64_t tile_queue_capacity(uint64_t blocks, uint32_t spp, uint32_t max_depth, uint64_t workers) {
  if constexpr (!kTileTickets<Q>) return blocks;
  return blocks * spp * ((uint64_t)max_depth + 1u) + workers * kRoundBlocks;
}

// Tile `tile`'s queue through kind Q's one-lap view (a template on Q, so that the other kinds'
// builds, whose queues have no such view, never instantiate it).
template <class Q>
GQ_HD GQ_INLINE auto one_lap_queue(const TileQueues& tq, uint32_t tile) {
  return Q::view(tq.base + (uint64_t)tile * tq.stride, tq.capacity, tq.threads).one_lap();
}

// Block `block` into its tile's queue, fresh, its lanes into `masks` (seed_block for either form).
template <class Q = gq::Queue>
GQ_HD GQ_INLINE void seed_tile_block(const TileGrid& g, const TileQueues& tq, uint32_t* masks, uint32_t block,
                                     uint32_t user, const gq::ErrorFlag& err) {
  if constexpr (kTileTickets<Q>) {
    masks[block] = g.blocks().lanes(block);
    if (!one_lap_queue<Q>(tq, g.tile_of_block(block)).enqueue(block | kFreshItem, user, err) && !err.raised())
      err.raise(gq::kCapacity, gq::kSiteTileEnqueue, block);
  } else {
    seed_block(g, tq, masks, block, user, err);
  }
}

// A ticket slot that holds no ticket.
constexpr uint64_t kNoTicket = ~0ull;

// RT_DRAW_EARLY=1, a measuring aid for tools/gpu_render_probe.py (0, the shipped build): a working
// round's ticket draws go out before its requeues, as one fetch-add by the leader sized by the look
// at the home queue's Tail - Head that the last draw took (plus the round's own requeues there), and
// that fetch-add's reply is the next look's Head. The shipped round waits for its accesses one after
// another: the requeue's fetch-add, the look at Tail and Head, the draw's fetch-add, the slots'
// reads, some four round trips before its tracing; this one has the first three in flight at once.
// The look is a round older, a hint as before; a round that found nothing sets it to zero, so a
// worker back from waiting draws only for its own requeues (or the one ticket it must hold).
#ifndef RT_DRAW_EARLY
#define RT_DRAW_EARLY 0
#endif
constexpr bool kDrawEarly = RT_DRAW_EARLY != 0;

// The blocking form's ticket slots: kRoundBlocks for the home queue, and one for steals.
constexpr uint32_t kSlots = kRoundBlocks + 1;
constexpr uint32_t kStealSlot = kRoundBlocks;
static_assert(kSlots <= 32, "a slot a lane");

// One persistent worker of the blocking form; the arguments are tile_worker's. Warp-uniform as
// tile_worker is: slot j's tile, ticket, block and requeue lanes (tile[j], ticket[j], item[j],
// back[j]) are the same in every lane, and the lane of rank j % nlanes makes slot j's accesses.
template <class Q>
GQ_HD GQ_INLINE void tile_worker_tickets(const RenderParams& p, PathState* pool, uint32_t* masks, const TileGrid& g,
                                         const TileQueues& tq, uint32_t home, uint32_t tid, uint32_t user,
                                         uint32_t members, uint32_t workers, uint64_t total, uint64_t* samples_done,
                                         RayCounts& c, const gq::ErrorFlag& err) {
  const uint32_t tiles = g.count();
  const ScreenBlocks blocks = g.blocks();
  const uint32_t leader = gq::first_lane(members);
  const uint32_t rank = gq::popcount(members & gq::lanes_below(gq::lane_id()));
  const uint32_t nlanes = gq::popcount(members);
  const uint64_t reserve = (uint64_t)workers * 32u * p.spp * kReserveRounds;
  // As tile_worker's budget, but a wait looks at one other tile a round, not at every tile.
  IdleWait idle(GQ_SPIN_BUDGET, samples_done);
  uint32_t victim = (uint32_t)(((uint64_t)(tid / 32u) * 2654435761u) % tiles);  // the next tile to look at
  uint32_t owner[kSlots];  // the lane that makes slot j's accesses
  for (uint32_t j = 0; j < kSlots; ++j) owner[j] = gq::first_lane(gq::ballot(members, rank == j % nlanes));
  uint64_t ticket[kSlots];
  uint32_t tile[kSlots] = {}, item[kSlots] = {}, back[kSlots] = {};
  for (uint32_t j = 0; j < kSlots; ++j) ticket[j] = kNoTicket;
  bool traced = true;  // the last round traced blocks (or this is the first)
  int64_t shown = 0;   // RT_DRAW_EARLY: the home queue's Tail - Head at the last draw
  const TileProfile prof(tid);  // RT_PROFILE=1 only: tile_worker's phases (rt/tile_profile.h)
  [[maybe_unused]] const uint64_t t_start = prof.now();
  for (;;) {
    const uint64_t done = gq::load<gq::mo::relaxed>(samples_done);
    if (gq::ballot(members, err.raised() || done >= total) != 0) {
      if (RT_PROFILE && gq::lane_id() == leader) prof.add(kProfTotal, prof.now() - t_start);
      return;
    }
    const bool sampled = RT_PROFILE && gq::lane_id() == leader;
    [[maybe_unused]] const uint64_t t_top = prof.now();
    // RT_DRAW_EARLY: the draw (the rule below) goes out first, its reply taken after the requeues.
    bool early_step = false;   // the draw step ran (its look is taken below, even with no tickets)
    uint32_t early = 0;        // bit j: slot j draws
    uint64_t early_head = 0, early_tail = 0;  // the leader's: Head before its draw, and Tail
    if constexpr (kDrawEarly) {
      uint32_t home_held = 0, requeued = 0;
      for (uint32_t j = 0; j < kRoundBlocks; ++j) home_held |= (ticket[j] != kNoTicket ? 1u : 0u) << j;
      for (uint32_t j = 0; j < kSlots; ++j) requeued += back[j] != 0 && tile[j] == home;
      if (traced || home_held == 0) {
        const uint64_t remaining = total - done;
        uint32_t k = reserve == 0 ? kRoundBlocks : 1u;
        for (uint32_t m = 2; m <= kRoundBlocks && reserve != 0; ++m)
          if (remaining >= (uint64_t)m * reserve) k = m;
        int64_t avail = shown + (int64_t)requeued;
        if (home_held == 0 && avail < 1) avail = 1;
        for (uint32_t j = 0; j < k && avail > 0; ++j)
          if (!((home_held >> j) & 1u)) {
            early |= 1u << j;
            --avail;
          }
        // Both replies are first used after the requeues (nothing here may use them: ptxas waits
        // at a reply's first use). A draw of none adds 0, so that one access serves both ways.
        if (gq::lane_id() == leader) {
          const auto q = one_lap_queue<Q>(tq, home);
          early_tail = gq::load<gq::mo::relaxed>(q.tail());
          early_head = gq::fetch_add_global_relaxed(q.head(), gq::popcount(early));
        }
        early_step = true;
      }
    }
    // The requeues: each block back into its tile's queue with its live lanes (written first: the
    // enqueue's release hands them on with the block).
    for (uint32_t o = rank; o < kSlots; o += nlanes) {
      if (back[o] == 0) continue;
      const uint32_t b = item[o] & ~kFreshItem;
      masks[b] = back[o];
      if (!one_lap_queue<Q>(tq, tile[o]).enqueue(b, user + rank, err) && !err.raised())
        err.raise(gq::kCapacity, gq::kSiteTileEnqueue, b);
    }
    for (uint32_t j = 0; j < kSlots; ++j) back[j] = 0;
    // New tickets on the home queue for empty slots below k (tile_worker's rule), no more than it
    // shows elements for (Tail - Head, which the tickets held ahead may take below zero), or one
    // to wait on when the worker holds none there. A worker that holds tickets and found nothing
    // last round only looks at them (and steals, below): reading Head and Tail at every idle step
    // would crowd the line the requeues' fetch-adds use. One fetch-add for the slots that draw.
    uint32_t held = 0;  // bit j: slot j holds a ticket
    for (uint32_t j = 0; j < kSlots; ++j) held |= (ticket[j] != kNoTicket ? 1u : 0u) << j;
    const uint32_t home_held = held & ~(1u << kStealSlot);
    if (kDrawEarly) {
      if (early_step) {
        const uint64_t first = gq::shuffle(members, early_head, leader);
        shown = (int64_t)(gq::shuffle(members, early_tail, leader) - first - gq::popcount(early));
        for (uint32_t j = 0; j < kRoundBlocks; ++j)
          if ((early >> j) & 1u) {
            ticket[j] = first + gq::popcount(early & ((1u << j) - 1u));
            tile[j] = home;
          }
      }
    } else if (traced || home_held == 0) {
      const uint64_t remaining = total - done;
      uint32_t k = reserve == 0 ? kRoundBlocks : 1u;
      for (uint32_t m = 2; m <= kRoundBlocks && reserve != 0; ++m)
        if (remaining >= (uint64_t)m * reserve) k = m;
      const auto q = one_lap_queue<Q>(tq, home);
      int64_t avail = 0;
      if (gq::lane_id() == leader) avail = q.shows();
      avail = (int64_t)gq::shuffle(members, (uint64_t)avail, leader);
      if (home_held == 0 && avail < 1) avail = 1;
      uint32_t draw = 0;  // bit j: slot j draws
      for (uint32_t j = 0; j < k && avail > 0; ++j)
        if (!((home_held >> j) & 1u)) {
          draw |= 1u << j;
          --avail;
        }
      for (uint32_t o = rank; o < kRoundBlocks; o += nlanes)
        if ((draw >> o) & 1u) ticket[o] = gq::wave_faa<gq::mo::relaxed>(q.head());
      for (uint32_t j = 0; j < kRoundBlocks; ++j)
        if ((draw >> j) & 1u) {
          ticket[j] = gq::shuffle(members, ticket[j], owner[j]);
          tile[j] = home;
        }
    }
    // The look: a slot whose element is there is taken (peek, then hand_back: its dequeue done).
    // The tickets' fetch-adds are relaxed: only the slot's read (an acquire) orders what its
    // enqueuer wrote (the block's lanes, its pixels' path states) before the tracing.
    uint32_t got = 0;
    for (uint32_t o = rank; o < kSlots; o += nlanes) {
      uint32_t v = 0;
      const auto q = one_lap_queue<Q>(tq, tile[o]);
      if (ticket[o] != kNoTicket && q.template peek<gq::mo::release>(ticket[o], &v)) {
        q.hand_back(ticket[o]);
        item[o] = v;
        got |= 1u << o;
      }
    }
    got = gq::reduce_or(members, got);
    for (uint32_t j = 0; j < kSlots; ++j)
      if ((got >> j) & 1u) {
        item[j] = gq::shuffle(members, item[j], owner[j]);
        ticket[j] = kNoTicket;
      }
    gq::sync_lanes(members);
    traced = got != 0;
    if (!traced) {
      if (kDrawEarly) shown = 0;
      // Steal: one other tile a round, a ticket claimed there below its Tail (the header says why).
      if (tiles > 1 && ticket[kStealSlot] == kNoTicket) {
        if (victim == home && ++victim == tiles) victim = 0;
        const auto q = one_lap_queue<Q>(tq, victim);
        uint64_t claimed = kNoTicket;
        if (gq::lane_id() == leader && !q.claim_once(&claimed)) claimed = kNoTicket;
        ticket[kStealSlot] = gq::shuffle(members, claimed, leader);
        tile[kStealSlot] = victim;
        if (++victim == tiles) victim = 0;
      }
      idle.step(samples_done, err);
      prof.idle_round(sampled, t_top);
      continue;
    }
    [[maybe_unused]] const uint64_t t_dequeued = prof.now();
    idle.progress();
    trace_round(p, pool, masks, blocks, got, item, rank, nlanes, members, tail_round(total, done, reserve, members, leader),
                samples_done, c, back);
    prof.work_round(sampled, t_top, t_dequeued);
  }
}

// The worker the queue kind runs: tile_worker_tickets where it has a blocking interface, else
// tile_worker (its arguments).
template <class Q = gq::Queue>
GQ_HD GQ_INLINE void tile_work(const RenderParams& p, PathState* pool, uint32_t* masks, const TileGrid& g,
                               const TileQueues& tq, uint32_t home, uint32_t tid, uint32_t user, uint32_t members,
                               uint32_t workers, uint64_t total, uint64_t* samples_done, RayCounts& c,
                               const gq::ErrorFlag& err) {
  if constexpr (kTileTickets<Q>)
    tile_worker_tickets<Q>(p, pool, masks, g, tq, home, tid, user, members, workers, total, samples_done, c, err);
  else
    tile_worker(p, pool, masks, g, tq, home, tid, user, members, workers, total, samples_done, c, err);
}

}  // namespace rt
