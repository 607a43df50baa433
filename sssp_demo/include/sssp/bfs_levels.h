// sssp/bfs_levels.h — what both level-synchronous BFS grid forms share (seed 001, Sec. V.B.a:
// one level takes every vertex of its frontier, looks at its out-neighbours, and puts each
// neighbour it is the first to reach into the frontier of the next level): the visit of one
// edge, the neighbour expansion of a warp's vertices, the deferral of hubs, and the control words.
//
// Marking: depth[v] is claimed by one CAS from kUnvisited to the next level; the winner alone
// writes parent[v] and emits v into the next frontier, so a vertex enters a frontier at most once
// in the whole run. Relaxed order is enough: levels are separated by the grid barrier (grid.h),
// whose fences order every write of a level before every read of the next.
//
// Expansion (Merrill et al.'s thread/warp/CTA split, "Scalable GPU Graph Traversal", PPoPP 2012,
// with the CTA tier replaced by the grid): a vertex of at most kWarp edges is scanned by its own
// lane; up to kHeavyDegree edges, by its whole warp; beyond, its edges are cut into chunks of
// kChunk edges, appended to a chunk list, and scanned after the level's drain by the whole grid,
// one chunk per warp (Kronecker hubs have 10^5 edges: one warp would serialise the level).
// Every loop here is warp-uniform (all lanes present), so `emit` may use warp collectives.
//
// Control words after grid.h's (r = level): the frontier sizes C[r % 3] (filled in level r - 1,
// read as level r begins, cleared by bfs_levels' keeper when level r + 1 starts, for frontier
// r + 3), the dequeue counts T[r % 3], the chunk-list lengths H[r % 2]; bfs_levels says when each
// is safe.
#pragma once
#include "advance.h"

namespace sssp {

constexpr uint32_t kUnvisited = 0xFFFFFFFFu;  // depth and parent of a vertex not reached (-1 as int32)
// Edges a warp scans for one vertex before the vertex goes to the grid instead; and the chunk the
// grid's warps take (on the CPU build a warp is one lane: 32 edges, so the tests meet hubs too).
constexpr uint32_t kHeavyDegree = 32u * kWarp;
constexpr uint32_t kChunk = 32u * kWarp;

enum BfsWord : uint32_t {
  kBfsFrontier0 = kCtlFirstFree,      // C[3]: frontier sizes
  kBfsTaken0 = kCtlFirstFree + 3,     // T[3]: vertices dequeued (queue form)
  kBfsChunks0 = kCtlFirstFree + 6,    // H[2]: chunk-list lengths
  kBfsWords = kCtlFirstFree + 8
};

// The words a block shares for bfs_levels' barriers: Grid::sync_read of two words, and the word
// with which the queue form's barrier tells its slot pollers to stop (TicketsAhead::kWord).
constexpr uint32_t kBfsBlockWords = 4;

struct BfsGraph {
  const int64_t* indptr;
  const int32_t* indices;
  uint32_t n;
};

// The heads of a small row's first batch (edges begin .. begin + kEdgeBatch - 1 below its end, 0
// past it), read before the level that expands the row: the queue form's pollers read them while
// they wait at the barrier (bfs_queue.h, TicketsAhead), so the level's first step is the CASes.
struct RowHeads {
  uint32_t v[kEdgeBatch] = {};
  // The heads as expand_row's first small-row batch reads them, from row [begin, end).
  GQ_HD GQ_INLINE void read(const BfsGraph& g, int64_t begin, int64_t end) {
    const bool small = end - begin <= (int64_t)kWarp;
    for (uint32_t j = 0; j < kEdgeBatch; ++j)
      v[j] = small && begin + (int64_t)j < end ? (uint32_t)g.indices[begin + j] : 0u;
  }
};

struct BfsState {
  uint32_t* depth;     // [n] kUnvisited, but the source's 0
  uint32_t* parent;    // [n] kUnvisited
  uint64_t* chunks;    // chunk list (chunk << 32 | vertex), `chunk_cap` entries
  uint32_t chunk_cap;
  uint64_t* stats;     // levels, edges scanned, vertices expanded (added to)
  uint64_t budget_ns;  // 0: none; else the keeper stops the grid (kAbort) once a level ends past it
};

// What one thread counts (added to BfsState::stats once, at the end).
struct BfsCounts {
  uint64_t edges = 0, expanded = 0;
};

// The edges k + j * stride (j < kEdgeBatch) of u that are below `end`: claim each head for
// `level` if nobody has. The batch's index loads, then its depth looks, then its CASes each go
// out together, so a batch costs one round trip a stage rather than one a stage and edge: a road
// graph's level is a chain of them, and its rows have two to four edges. Every lane calls it
// together, then `emit.batch(v, fresh, level)`: fresh[j] iff this lane won v[j] (which then
// belongs to the frontier of depth `level`).
// `look`: a plain load of the depth before the CAS. On a dense level most edges meet a visited
// vertex, and a load is cheaper than a failed CAS on the L2; on a small level (a road graph's,
// latency-bound) it is one more round trip in the chain, and the CAS alone decides.
// `ahead`: the batch's heads are `heads` already (read before the level: RowHeads), not loads.
template <class Emit>
GQ_HD GQ_INLINE void visit_edges(const BfsGraph& g, const BfsState& s, uint32_t u, int64_t k, int64_t end,
                                 int64_t stride, bool look, uint32_t level, BfsCounts& c, Emit& emit,
                                 bool ahead = false, const RowHeads& heads = RowHeads{}) {
  uint32_t v[kEdgeBatch];
  bool fresh[kEdgeBatch];
  for (uint32_t j = 0; j < kEdgeBatch; ++j) {
    const int64_t e = k + (int64_t)j * stride;
    fresh[j] = e < end;
    v[j] = fresh[j] ? (ahead ? heads.v[j] : (uint32_t)g.indices[e]) : 0u;
    c.edges += fresh[j] ? 1u : 0u;
  }
  if (look)
    for (uint32_t j = 0; j < kEdgeBatch; ++j)
      fresh[j] = fresh[j] && gq::load<gq::mo::relaxed>(s.depth + v[j]) == kUnvisited;
  for (uint32_t j = 0; j < kEdgeBatch; ++j)
    fresh[j] = fresh[j] && gq::cas<gq::mo::relaxed>(s.depth + v[j], kUnvisited, level) == kUnvisited;
  for (uint32_t j = 0; j < kEdgeBatch; ++j)
    if (fresh[j]) gq::store<gq::mo::relaxed>(s.parent + v[j], u);
  emit.batch(v, fresh, level);
}

// Whether a level of `count` frontier vertices looks before its CASes (visit_edges): when it has
// a vertex for every thread of the grid, so that it is bound by throughput, not by its chain.
GQ_HD GQ_INLINE bool looks_first(const Grid& grid, uint32_t count) { return count >= grid.size(); }

// The neighbours of each lane's vertex u (`have`), claimed for `level` (u's depth + 1), whose row
// is [begin, end) of `g.indices` (expand, below, reads it). `ahead`: `heads` holds the row's first
// batch (RowHeads::read), which a small row then does not load.
template <class Emit>
GQ_HD GQ_INLINE void expand_row(const BfsGraph& g, const BfsState& s, uint32_t u, bool have, int64_t begin,
                                int64_t end, uint32_t level, bool look, uint32_t* chunk_count, BfsCounts& c,
                                const gq::ErrorFlag& err, Emit& emit, bool ahead = false,
                                const RowHeads& heads = RowHeads{}) {
  const int64_t deg = end - begin;
  if (have) ++c.expanded;
  // Hubs: their chunks go to the grid after the drain.
  const bool heavy = deg > (int64_t)kHeavyDegree;
  if (gq::ballot(kFullWarp, heavy)) {
    const uint32_t nch = heavy ? (uint32_t)((deg + kChunk - 1) / kChunk) : 0u;
    const uint32_t at = warp_append(chunk_count, nch, s.chunk_cap, err);
    if (at != s.chunk_cap)
      for (uint32_t j = 0; j < nch; ++j) s.chunks[at + j] = ((uint64_t)j << 32) | u;
  }
  // Small rows: each lane scans its own, a batch of consecutive edges a step, all lanes together.
  const bool small = deg <= (int64_t)kWarp;
  for (int64_t j = 0;; j += kEdgeBatch) {
    if (!gq::ballot(kFullWarp, small && j < deg)) break;
    visit_edges(g, s, u, begin + j, small ? end : begin, 1, look, level, c, emit, ahead && j == 0, heads);
  }
  // Medium rows: the warp scans them one after another, a lane per edge, kEdgeBatch edges a lane
  // a step.
  uint32_t mask = gq::ballot(kFullWarp, !small && !heavy);
  while (mask) {
    const uint32_t src = gq::first_lane(mask);
    mask &= mask - 1u;
    const uint32_t w = gq::shuffle(kFullWarp, u, src);
    const int64_t b = (int64_t)gq::shuffle(kFullWarp, (uint64_t)begin, src);
    const int64_t e = (int64_t)gq::shuffle(kFullWarp, (uint64_t)end, src);
    for (int64_t k0 = b; k0 < e; k0 += (int64_t)kWarp * kEdgeBatch)
      visit_edges(g, s, w, k0 + gq::lane_id(), e, kWarp, look, level, c, emit);
  }
}

template <class Emit>
GQ_HD GQ_INLINE void expand(const BfsGraph& g, const BfsState& s, uint32_t u, bool have, uint32_t level, bool look,
                            uint32_t* chunk_count, BfsCounts& c, const gq::ErrorFlag& err, Emit& emit) {
  const int64_t begin = have ? g.indptr[u] : 0, end = have ? g.indptr[u + 1] : 0;
  expand_row(g, s, u, have, begin, end, level, look, chunk_count, c, err, emit);
}

// The chunk phase: every warp of the grid takes chunks of the hubs deferred this level (a hub's
// level is dense: it looks first).
template <class Emit>
GQ_HD GQ_INLINE void expand_chunks(const Grid& grid, const BfsGraph& g, const BfsState& s, uint32_t nchunks,
                                   uint32_t level, BfsCounts& c, Emit& emit) {
  const uint32_t warp = grid.rank() / kWarp, warps = grid.size() / kWarp;
  for (uint32_t i = warp; i < nchunks; i += warps) {
    const uint64_t item = s.chunks[i];
    const uint32_t u = (uint32_t)item;
    const int64_t b = g.indptr[u] + (int64_t)(item >> 32) * kChunk;
    const int64_t e = g.indptr[u + 1] < b + (int64_t)kChunk ? g.indptr[u + 1] : b + (int64_t)kChunk;
    for (int64_t k0 = b; k0 < e; k0 += (int64_t)kWarp * kEdgeBatch)
      visit_edges(g, s, u, k0 + gq::lane_id(), e, kWarp, true, level, c, emit);
  }
}

// The lanes with `pred` counted into `*word` by one lane (every lane calls it together).
GQ_HD GQ_INLINE void warp_count(uint32_t* word, bool pred) {
  const uint32_t m = gq::ballot(kFullWarp, pred);
  if (m && gq::lane_id() == gq::first_lane(m)) gq::fetch_add<gq::mo::relaxed>(word, gq::popcount(m));
}

GQ_HD GQ_INLINE void add_counts(const BfsState& s, const BfsCounts& c) {
  if (c.edges) gq::fetch_add<gq::mo::relaxed>(s.stats + 1, c.edges);
  if (c.expanded) gq::fetch_add<gq::mo::relaxed>(s.stats + 2, c.expanded);
}

// What each form keeps two of, one for the frontiers of even depth and one for the odd (the
// compaction form's arrays, the queue form's queues), picked by a level's parity: a select of two
// values in registers. A two-element array indexed by a run-time parity lives in local memory, and
// its load stood between a level's start and its first item (sm_90 SASS); with it, the SFQ
// queue form's kernel also spilled 52 bytes and the compaction form's 32, now none and 20. H200,
// run 295 (kernel ms, one block an SM): SFQ's queue BFS road-24M 53.7 -> 51.4, road-2M 13.1 ->
// 12.65, Kron-21 1.55 -> 1.50, Delaunay-21 6.44 -> 6.25; compaction within 3 % (45.5 -> 45.8).
template <class T>
struct LevelPair {
  T even, odd;
  GQ_HD GQ_INLINE T operator[](uint32_t level) const { return (level & 1u) ? odd : even; }
};

// How a level learns its frontier's size, where a form counts it in C (CountedSize, below): the
// word `word(level)` holds it after the barrier before the level, and `count(level, value)` is the
// size that value of the word gives.
// `size` is also what the waiters of a level's barrier do (Grid::sync_read's Poll): here nothing.
struct CountedSize : Grid::NoPoll {
  const uint32_t* ctl;
  GQ_HD explicit CountedSize(const uint32_t* ctl) : ctl(ctl) {}
  GQ_HD GQ_INLINE const uint32_t* word(uint32_t level) const { return ctl + kBfsFrontier0 + level % 3; }
  GQ_HD GQ_INLINE uint32_t count(uint32_t, uint32_t value) const { return value; }
};

// The level loop both forms run. `size` says where the size of each level's frontier is read
// (CountedSize above, or the blocking queue form's own). `drain(level, count, counts)` expands the
// frontier of depth `level`, `count` vertices (its vertices get `level + 1` neighbours), emitting
// into the next one (and counting it in C[(level + 1) % 3] where `size` reads C); `emit` is what
// the chunk phase emits through (the same), and `emit.flush()` puts out what it may hold back
// before the level's barrier (warp-wide). `check(level)` runs after the level is done (the
// non-waiting queue form's no-loss check).
// Every decision is read by all threads from the same word after a barrier, so all leave together.
//
// The level's bookkeeping (clearing the words, the check, the level count, the budget) is the
// keeper's, the grid's last thread: a level's vertices go to the lowest ranks first, so on a small
// level (a road graph's) the keeper has none, and no vertex waits behind its round trips. As the
// leader's (rank 0, whose warp has vertices at every level) the queue form's check held warp 0
// back for a round trip a level. The next frontier's size is read beside the chunk count after the
// level's barrier, one round trip for both (it is final there unless the level deferred hubs,
// whose chunks emit into it too: then it is read again after the chunk phase), and handed to the
// drain, which read it once more before. H200, run 282 (kernel ms, three rounds in one call):
// road-24M queue form (SFQ) 63.3 -> 62.2 (62.7 with the keeper alone), road-2M 15.5 -> 15.0;
// compaction within 1 % (52.3 -> 52.6, 11.8 -> 11.9). Two round trips fewer a level were counted
// and 0.1 us a level came: these reads mostly overlapped the barrier's own latency. What they did
// cost was their number, a read a warp of one line: they are now a read a block, handed on through
// shared memory by the barrier itself (Grid::sync_read, whose comment has the figures).
template <class Size, class Drain, class Emit, class Check>
GQ_HD inline void bfs_levels(const Grid& grid, const BfsGraph& g, const BfsState& s, Size& size, Drain drain,
                             Emit& emit, Check check, BfsCounts& c) {
  uint32_t* ctl = grid.ctl;
  const bool keeper = grid.rank() == grid.size() - 1u;
  const uint64_t started = keeper && s.budget_ns ? grid.now_ns() : 0;
  uint32_t level = 0, count = 0;
  bool go = grid.sync_read({size.word(0)}, {&count});  // the caller's seeding of level 0 is visible
  count = size.count(0, count);
  while (go) {
    if (count == 0u) break;
    // Words nobody touches in this level: C[(level + 2) % 3] was last read as level - 1 began
    // (after the barrier that ended level - 2) and by the keeper's check of level - 1, and is next
    // filled in level + 1; T[(level + 1) % 3] was
    // last read by the check of level - 2; H[(level + 1) % 2] was last read in level - 1's chunk
    // phase (or was 0, so the store changes nothing).
    if (keeper) {
      gq::store<gq::mo::relaxed>(ctl + kBfsFrontier0 + (level + 2) % 3, 0u);
      gq::store<gq::mo::relaxed>(ctl + kBfsTaken0 + (level + 1) % 3, 0u);
      gq::store<gq::mo::relaxed>(ctl + kBfsChunks0 + (level + 1) % 2, 0u);
    }
    drain(level, count, c);
    const uint32_t* const next = size.word(level + 1);
    uint32_t nchunks = 0;
    if (!grid.sync_read({ctl + kBfsChunks0 + level % 2, next}, {&nchunks, &count}, size)) break;
    if (nchunks) {
      expand_chunks(grid, g, s, nchunks, level + 1, c, emit);
      emit.flush();
      if (!grid.sync_read({next}, {&count})) break;
    }
    count = size.count(level + 1, count);
    if (keeper) {
      check(level);
      gq::fetch_add<gq::mo::relaxed>(s.stats + 0, 1ull);
      if (s.budget_ns && grid.now_ns() - started > s.budget_ns) grid.request_stop();
    }
    ++level;
  }
  add_counts(s, c);
}

}  // namespace sssp
