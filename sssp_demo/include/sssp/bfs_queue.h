// sssp/bfs_queue.h — queue-driven level-synchronous BFS (seed 001, Sec. V.B.a and VI.D) as one
// persistent grid: the frontier of each level lives in a concurrent FIFO queue of the queue layer
// (gq::Queue, chosen at build time by GQ_QUEUE_KIND: G-LFQ, SFQ, G-WFQ, G-WFQ-YMC), and two
// queues alternate: level r dequeues queue r % 2 until it answers EMPTY and enqueues the vertices
// it discovers into queue (r + 1) % 2. The levels are separated by the grid barrier (grid.h); the
// neighbour expansion is bfs_levels.h's.
//
// Why EMPTY ends a thread's level: nobody enqueues into the queue being drained during its level,
// so a linearizable EMPTY answer means every element has been taken. An EMPTY answer takes no
// ticket (ScqRing::observed_empty), so a hundred thousand threads meeting an empty ring at every
// level's end leave its slots alone for the next level's enqueuers. The leader still checks after
// each level that the dequeues counted equal the enqueues (else kCorrupt: an element was lost,
// never a silently wrong depth).
//
// A queue holds at most one frontier; `capacity` (<= the queue kind's limit) bounds it. A full
// queue ends the kernel with kCapacity at kSiteFrontier (detail: the level).
#pragma once
#include <gq/queue_select.cuh>
#include "bfs_levels.h"

namespace sssp {

struct BfsQueues {
  uint64_t* base[2];  // two queues of gq::Queue::words(capacity, threads) words, initialised
  uint64_t capacity;
};

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
    if (q[0].try_enqueue(source, tid, err)) gq::store<gq::mo::relaxed>(ctl + kBfsFrontier0, 1u);
  }
  // Warp-uniform: every lane calls it; the fresh ones enqueue (their tickets aggregate per warp).
  auto emit = [&](uint32_t v, bool fresh, uint32_t level) {
    if (fresh && !q[level & 1].try_enqueue(v, tid, err) && !err.raised())
      err.raise(gq::kCapacity, gq::kSiteFrontier, level);
    warp_count(ctl + kBfsFrontier0 + level % 3, fresh);
  };
  auto drain = [&](uint32_t level, BfsCounts& c) {
    const gq::Queue& cur = q[level & 1];
    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;
    // A frontier of `count` vertices is drained by the first ceil(count / kWarp) warps, about a
    // vertex per lane (any of them may take any vertex: they stop at EMPTY, not at a share). The
    // rest go straight to the barrier, as the compaction form's threads without an item do, so a
    // road graph's small frontiers do not meet a hundred thousand pollers at every level.
    const uint32_t count = gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3);
    bool done = grid.rank() - gq::lane_id() >= count;
    uint32_t taken = 0;
    for (;;) {
      uint32_t u = 0;
      bool got = false;
      if (!done) {
        got = cur.try_dequeue(&u, tid, err);
        done = !got;
      }
      if (!gq::ballot(kFullWarp, got)) break;
      if (got) ++taken;
      expand(g, s, u, got, level + 1, chunk_count, c, err, emit);
      if (gq::ballot(kFullWarp, err.raised())) break;
    }
    warp_add(ctl + kBfsTaken0 + level % 3, taken);
  };
  auto check = [&](uint32_t level) {
    const uint32_t put = gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3);
    const uint32_t took = gq::load<gq::mo::relaxed>(ctl + kBfsTaken0 + level % 3);
    if (put != took && !err.raised()) err.raise(gq::kCorrupt, gq::kSiteFrontier, level);
  };
  BfsCounts c;
  bfs_levels(grid, g, s, drain, emit, check, c);
}

}  // namespace sssp
