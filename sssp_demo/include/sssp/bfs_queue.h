// sssp/bfs_queue.h — queue-driven level-synchronous BFS (seed 001, Sec. V.B.a and VI.D) as one
// persistent grid: the frontier of each level lives in a concurrent FIFO queue of the queue layer
// (gq::Queue, chosen at build time by GQ_QUEUE_KIND: G-LFQ, SFQ, G-WFQ, G-WFQ-YMC), and two
// queues alternate: level r dequeues queue r % 2 until it answers EMPTY (or the level's dequeues
// add up to the frontier's size) and enqueues the vertices it discovers into queue (r + 1) % 2.
// The levels are separated by the grid barrier (grid.h); the neighbour expansion is bfs_levels.h's.
//
// Why EMPTY ends a warp's level: nobody enqueues into the queue being drained during its level,
// so a linearizable EMPTY answer means every element has been taken. An EMPTY answer takes no
// ticket (ScqRing::observed_empty), so a hundred thousand threads meeting an empty ring at every
// level's end leave its slots alone for the next level's enqueuers. The keeper still checks after
// each level that the dequeues counted equal the enqueues (else kCorrupt: an element was lost,
// never a silently wrong depth).
//
// A queue kind with a blocking interface (SFQ, gq/blocking.cuh) is used through it: a level knows
// its frontier's size, so thread r makes exactly the dequeues r, r + G, ... below it (G threads),
// each of which meets an element enqueued before the level began and so never waits; and the
// enqueues of the next frontier read no turn at all: a vertex is enqueued once, and the host makes
// each queue's capacity the vertex count, so no ticket leaves lap 0 (Sfq::put). They go in a
// visit_edges batch at a time, several a lane (BatchEmit, below). SFQ's
// non-waiting claim is a CAS loop on Head, which a level's dequeuers would take one at a time
// (over its 1 s budget on every graph, run 226); its blocking tickets come a warp at a time
// (H200, run 234: road-24M 86 ms and Kron-21 1.98 ms, G-LFQ's 199 and 3.55). A lost vertex
// here leaves a dequeue waiting on its slot's turn: the spin budget ends the kernel with an error
// (the site names the wait), and the no-loss check counts as before.
//
// A queue holds at most one frontier; `capacity` (<= the queue kind's limit) bounds it. A full
// queue ends the kernel with kCapacity at kSiteFrontier (detail: the level); a blocking queue is
// never fuller than its capacity, which the host makes the vertex count (sssp_demo/bfs.py).
#pragma once
#include <gq/blocking.cuh>
#include <gq/queue_select.cuh>
#include "bfs_levels.h"

namespace sssp {

struct BfsQueues {
  uint64_t* base[2];  // two queues of gq::Queue::words(capacity, threads) words, initialised
  uint64_t capacity;
};

// Vertices a lane may hold back before its warp enqueues them (QueueEmit).
constexpr uint32_t kEmitBatch = 8;

// Whether the frontier queues are used through their blocking interface (above), and an enqueue
// and a dequeue through whichever interface that is. put: false is FULL, or the error flag raised;
// take: false is EMPTY, or the error flag raised (a blocking take answers no EMPTY).
constexpr bool kBlockingFrontier = gq::has_blocking<gq::Queue>::value;
template <class Q>
GQ_HD GQ_INLINE bool frontier_put(const Q& q, uint32_t v, uint32_t tid, const gq::ErrorFlag& err) {
  if constexpr (gq::has_blocking<Q>::value)
    return q.enqueue(v, tid, err);
  else
    return q.try_enqueue(v, tid, err);
}
// The blocking dequeue and BatchEmit's enqueues are relaxed (Sfq::put's `Publish`): a level only
// enqueues into the queue the next level drains, and the grid barrier between the two levels
// orders every thread's writes before every thread's reads (grid.h). H200, run 280 (kernel ms,
// road-2M / road-24M / Kron-21 / Delaunay-21): with the release and acquire 16.9 / 68.6 / 1.61 /
// 7.99, relaxed 16.1 / 65.5 / 1.40 / 7.29; relaxed but reading every turn (before lap 0 skipped
// them) 17.3 / 70.8 / 1.50 / 8.18; before both 18.1 / 74.2 / 1.69 / 8.84.
template <class Q>
GQ_HD GQ_INLINE bool frontier_take(const Q& q, uint32_t* v, uint32_t tid, const gq::ErrorFlag& err) {
  if constexpr (gq::has_blocking<Q>::value)
    return q.template dequeue<gq::mo::relaxed>(v, tid, err);
  else
    return q.try_dequeue(v, tid, err);
}

// The queue form's emit. An enqueue is a chain of a dozen dependent atomics (run 59: a road
// graph's levels cost 51 us with G-LFQ against 9 us with compaction), and an emit per edge step
// made one chain per step that found a vertex. So a lane holds the vertices it wins (up to
// kEmitBatch), and its warp enqueues them together when a lane is full and at the end of its
// drain or chunk phase: numbered lane by lane, a warp's worth at a time, lane l taking number
// base + l, so a warp pays one chain per 32 vertices. The frontier count is still taken at each
// emit; the level's barrier comes after the last flush, so the next level finds them all.
struct QueueEmit {
  const gq::Queue* q;  // the two queues; a vertex of depth `level` goes into q[level & 1]
  uint32_t tid;
  uint32_t* ctl;
  const gq::ErrorFlag& err;
  uint32_t held[kEmitBatch] = {};
  uint32_t count = 0, level = 0;

  // Warp-uniform, as expand's emits are.
  GQ_HD void operator()(uint32_t v, bool fresh, uint32_t lvl) {
    if (gq::ballot(kFullWarp, count == kEmitBatch)) flush();
    level = lvl;  // every emit between two flushes is for one level
    for (uint32_t j = 0; j < kEmitBatch; ++j)
      if (fresh && j == count) held[j] = v;  // constant indices: `held` stays in registers
    count += fresh ? 1u : 0u;
    warp_count(ctl + kBfsFrontier0 + lvl % 3, fresh);
  }

  // Warp-uniform: the emits of one visit_edges batch.
  GQ_HD void batch(const uint32_t* v, const bool* fresh, uint32_t lvl) {
    for (uint32_t j = 0; j < kEdgeBatch; ++j) (*this)(v[j], fresh[j], lvl);
  }

  // Warp-uniform. Lane l enqueues vertex number base + l of the warp's held ones; its owner is
  // the first lane whose running count passes that number (a binary search over the lanes'
  // running counts, by shuffles), and it is that lane's k-th.
  GQ_HD void flush() {
    const uint32_t lane = gq::lane_id();
    const uint32_t incl = warp_inclusive_sum(count);
    const uint32_t total = gq::shuffle(kFullWarp, incl, kWarp - 1);
    const gq::Queue& out = q[level & 1];
    for (uint32_t base = 0; base < total; base += kWarp) {
      const uint32_t want = base + lane;
      uint32_t owner = 0;
      for (uint32_t step = kWarp / 2; step; step >>= 1)
        if (gq::shuffle(kFullWarp, incl, owner + step - 1) <= want) owner += step;
      const uint32_t k = want - (gq::shuffle(kFullWarp, incl, owner) - gq::shuffle(kFullWarp, count, owner));
      uint32_t v = 0;
      for (uint32_t j = 0; j < kEmitBatch; ++j) {
        const uint32_t x = gq::shuffle(kFullWarp, held[j], owner);
        if (j == k) v = x;
      }
      if (want < total && !frontier_put(out, v, tid, err) && !err.raised())
        err.raise(gq::kCapacity, gq::kSiteFrontier, level);
    }
    count = 0;
  }
};

// The blocking form's emit: each visit_edges batch goes straight into the next frontier's queue,
// a lane's fresh vertices with one enqueue_batch (one fetch-add a warp, the lane's slots read
// together and written together), as the compaction form appends a batch with one fetch-add and
// its stores. Holding vertices back for QueueEmit's flush made every level's end a chain of its
// own: on road-24M, per level (H200, run 277, %globaltimer stamps), 2.3 us from the last edge's
// CAS to the flush's tickets (the held vertices' shuffles and the code that emits them), then
// 1.2 us of ticket and put, where compaction's append took 0.06 us after the same CASes. With
// BatchEmit (run 278, against c65f409 in one call): road-24M 84.6 -> 72.7 ms, road-2M 20.3 ->
// 17.5, Kron-21 1.89 -> 1.67; Delaunay-21 8.37 -> 8.63 (its rows of about six edges take two
// batches, so two enqueues a lane where the flush made one).
// The frontier count C is added to once a batch (the warp's sum by ballots of the counts' bits).
template <class Q>
struct BatchEmit {
  const Q* q;  // as QueueEmit's
  uint32_t* ctl;
  const gq::ErrorFlag& err;

  GQ_HD void batch(const uint32_t* v, const bool* fresh, uint32_t lvl) const {
    uint32_t n = 0;
    for (uint32_t j = 0; j < kEdgeBatch; ++j) n += fresh[j] ? 1u : 0u;
    if (!gq::ballot(kFullWarp, n != 0u)) return;  // warp-uniform: nothing found
    uint32_t total = 0;
    for (uint32_t b = 0; (1u << b) <= kEdgeBatch; ++b)
      total += gq::popcount(gq::ballot(kFullWarp, ((n >> b) & 1u) != 0u)) << b;
    if (gq::lane_id() == 0) gq::fetch_add<gq::mo::relaxed>(ctl + kBfsFrontier0 + lvl % 3, total);
    if (!q[lvl & 1].template enqueue_batch<kEdgeBatch, gq::mo::relaxed>(v, fresh, err) && !err.raised())
      err.raise(gq::kCapacity, gq::kSiteFrontier, lvl);
  }
  GQ_HD void flush() const {}
};

// The level loop of the queue form, with either emit.
template <class Emit>
GQ_HD inline void bfs_queue_levels(const Grid& grid, const BfsGraph& g, const BfsState& s, const gq::Queue* q,
                                   Emit& emit) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  const uint32_t tid = grid.rank();
  auto drain = [&](uint32_t level, uint32_t count, BfsCounts& c) {
    const gq::Queue& cur = q[level & 1];
    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;
    uint32_t* took = ctl + kBfsTaken0 + level % 3;
    const bool look = looks_first(grid, count);
    if (kBlockingFrontier) {
      // Thread r dequeues r, r + G, ... below `count` (blocking: the header says why none waits).
      // T counts them, for the keeper's no-loss check.
      for (uint32_t k = grid.rank();; k += grid.size()) {
        const bool have = k < count;
        if (!gq::ballot(kFullWarp, have)) break;
        uint32_t u = 0;
        const bool got = have && frontier_take(cur, &u, tid, err);
        warp_count(took, got);
        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        // The flag only where another turn follows: after the last, the barrier reads it anyway,
        // and this read's round trip was the warp's last step before it.
        if (gq::ballot(kFullWarp, k + grid.size() < count && err.raised())) break;
      }
    } else {
      // A frontier of `count` vertices no larger than the grid is taken in one round: the threads
      // of rank below `count` make one dequeue each and stop. Exactly `count` dequeues then meet
      // `count` elements while nobody enqueues, so each gets one (a failed one would linearize at
      // an instant the queue is empty, which needs `count` successful ones besides it). The rest
      // go straight to the barrier, as the compaction form's threads without an item do, so a road
      // graph's small frontiers do not meet a hundred thousand pollers at every level, and nobody
      // asks again to be told EMPTY (a chain of its own at every level).
      // A larger frontier is drained by every warp until one of its lanes has seen EMPTY (nobody
      // enqueues into this queue during the level, so it stays empty), or until the level's
      // running count of dequeues T reaches the frontier's size.
      // T is added to as the warp dequeues (the add in flight while it expands), so the keeper's
      // no-loss check reads the same total: a lost vertex keeps T short, and the check fails.
      const bool one_round = count <= grid.size();
      const bool tries = !one_round || grid.rank() < count;
      for (;;) {
        uint32_t u = 0;
        const bool got = tries && frontier_take(cur, &u, tid, err);
        const uint32_t mask = gq::ballot(kFullWarp, got);
        if (!mask) break;
        uint32_t before = 0;
        if (gq::lane_id() == gq::first_lane(mask)) before = gq::fetch_add<gq::mo::relaxed>(took, gq::popcount(mask));
        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        before = gq::shuffle(kFullWarp, before, gq::first_lane(mask));
        const bool all_taken = before + gq::popcount(mask) >= count;
        if (one_round || all_taken || gq::ballot(kFullWarp, tries && !got) || gq::ballot(kFullWarp, err.raised()))
          break;
      }
    }
    emit.flush();
  };
  auto check = [&](uint32_t level) {
    const uint32_t put = gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3);
    const uint32_t took = gq::load<gq::mo::relaxed>(ctl + kBfsTaken0 + level % 3);
    if (put != took && !err.raised()) err.raise(gq::kCorrupt, gq::kSiteFrontier, level);
  };
  BfsCounts c;
  bfs_levels(grid, g, s, drain, emit, check, c);
}

// The whole run. Before it: depth all kUnvisited but the source's 0, parent all kUnvisited, the
// queues initialised (empty), the control words zero.
GQ_HD inline void bfs_queue_grid(const Grid& grid, const BfsGraph& g, uint32_t source, const BfsState& s,
                                 const BfsQueues& bq) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  const uint32_t tid = grid.rank();
  const gq::Queue q[2] = {gq::Queue::view(bq.base[0], bq.capacity, grid.size()),
                          gq::Queue::view(bq.base[1], bq.capacity, grid.size())};
  if (grid.leader()) {
    if (frontier_put(q[0], source, tid, err)) gq::store<gq::mo::relaxed>(ctl + kBfsFrontier0, 1u);
  }
  if constexpr (kBlockingFrontier) {
    BatchEmit<gq::Queue> emit{q, ctl, err};
    bfs_queue_levels(grid, g, s, q, emit);
  } else {
    QueueEmit emit{q, tid, ctl, err};
    bfs_queue_levels(grid, g, s, q, emit);
  }
}

}  // namespace sssp
