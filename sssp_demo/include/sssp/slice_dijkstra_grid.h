// sssp/slice_dijkstra_grid.h — parDijkstra's rounds (seed 000, Section 4: extract the minimum,
// relax all its out-edges in parallel, lower the improved keys) over a priority queue cut into
// vertex slices, one per resident block: `pardijkstra-sliced`.
//
// Why not parBucketHeap here. On the seed DAG a round hands the heap thousands of updates (the
// minimum's out-degree), and one block resolving them costs about a millisecond a round at 300 M
// edges (par_dijkstra_grid.h; README, "Where a parDijkstra round goes"). The round itself is one
// dependent step; what it must cost is what the machine needs to agree on one minimum. So:
//   * block b owns vertices [b S, (b + 1) S) and keeps their keys (distance bits) in its own
//     shared memory: a decrease-key is a shared-memory atomic minimum by the block that owns the
//     vertex, with no device-memory traffic at all;
//   * the edges of each row are kept sorted by target, and a split table (built per run by
//     build_split, timed with the run) says where each block's targets start in every row: in a
//     round, block b reads only the edges of u that land in its slice;
//   * ExtractMin is a tournament: each block publishes its slice's minimum (key, vertex) in its
//     own slot, and every block reads all slots and takes the same least one. The slots are the
//     round's only barrier: a slot carries its round number, so waiting for round r means
//     waiting until every slot says r; two sets of slots alternate by round parity, which is
//     enough because no block can publish round r + 2 before every block has published r + 1,
//     that is, before every block has finished reading round r.
// A round is then: wait for the slots (one device-memory round trip after the last publish),
// read u's split entries (one), read u's edges in the slice (one), relax in shared memory,
// scan the slice, publish. Ties go to the lower vertex number, and every block computes the same
// minimum from the same slots, so every block takes the same path through the rounds.
//
// Exactness: a settled vertex's key is replaced by kSettled (above every distance), and a
// relaxation never touches a settled vertex (its distance is final: fl(d_u + w) >= d_u >= d_v).
// The keys are the float64 sums scipy forms (advance.h), so distances equal scipy's bit for bit.
// Vertices beyond `limit` never get a key, so they stay unreached, as in scipy.
//
// The slice must fit the block's shared memory (the launcher checks: about 28,000 vertices a
// block on an H200, so graphs up to a few million vertices); on the CPU build a block is one
// std::thread and its slice lives in ordinary memory.
#pragma once
#include "advance.h"

namespace sssp {

constexpr uint64_t kSettled = ~0ull;   // a settled vertex's key: never a minimum, never lowered
constexpr uint64_t kNoKey = ~0ull;     // a slot with no candidate (its slice is empty or settled)
constexpr uint32_t kStopBit = 1u << 31;  // in block 0's tag: stop after this round (time budget)
constexpr uint32_t kMaxWarps = 32;

// Per-block scratch (shared memory on the GPU): the warps' partial minima and the round's verdict.
struct SliceScratch {
  uint64_t key[kMaxWarps + 1];
  uint32_t vertex[kMaxWarps + 1];
  uint32_t stop;
};

struct SliceDijkstraState {
  uint64_t* dist;          // [n] distance bits, +inf to start; a vertex's entry is written when it settles
  const uint32_t* split;   // [n (blocks + 1)] where block b's targets start in row u, from indptr[u]
  uint64_t* slot_key;      // [2 blocks] the published minima, by round parity
  uint64_t* slot_tag;      // [2 blocks] (round + 1) << 32 | stop bit | vertex; zero to start
  uint64_t* stats;         // rounds, relaxations, decrease-keys, decrease-keys (added to)
  uint32_t slice;          // S: vertices a block owns
  uint64_t budget_ns;
};

struct Candidate {
  uint64_t key;
  uint32_t vertex;
  GQ_HD GQ_INLINE bool below(const Candidate& o) const {
    return key < o.key || (key == o.key && vertex < o.vertex);
  }
};

// The least candidate over the block, for every thread; `sc` is not reused before the block's
// next barrier (callers alternate two scratches between barriers).
GQ_HD GQ_INLINE Candidate block_least(const Grid& grid, Candidate c, SliceScratch* sc) {
#if GQ_DEVICE_BUILD
  for (uint32_t off = 16; off > 0; off >>= 1) {
    const Candidate o{__shfl_down_sync(kFullWarp, c.key, off), __shfl_down_sync(kFullWarp, c.vertex, off)};
    if (o.below(c)) c = o;
  }
  const uint32_t warp = grid.thread / kWarp, warps = (grid.width + kWarp - 1) / kWarp;
  if (gq::lane_id() == 0) {
    sc->key[warp] = c.key;
    sc->vertex[warp] = c.vertex;
  }
  __syncthreads();
  if (warp == 0) {
    c = gq::lane_id() < warps ? Candidate{sc->key[gq::lane_id()], sc->vertex[gq::lane_id()]} : Candidate{kNoKey, ~0u};
    for (uint32_t off = 16; off > 0; off >>= 1) {
      const Candidate o{__shfl_down_sync(kFullWarp, c.key, off), __shfl_down_sync(kFullWarp, c.vertex, off)};
      if (o.below(c)) c = o;
    }
    if (gq::lane_id() == 0) {
      sc->key[kMaxWarps] = c.key;
      sc->vertex[kMaxWarps] = c.vertex;
    }
  }
  __syncthreads();
  return Candidate{sc->key[kMaxWarps], sc->vertex[kMaxWarps]};
#else
  (void)grid;
  (void)sc;
  return c;
#endif
}

// Where block b's targets (vertices >= b S) start in row u: the first edge whose target is at
// least b S, counted from indptr[u] (rows sorted by target). Block `blocks` gets the row's end.
GQ_HD GQ_INLINE uint32_t split_entry(const Csr& g, uint32_t u, uint32_t b, uint32_t slice) {
  int64_t lo = g.indptr[u], hi = g.indptr[u + 1];
  const int64_t begin = lo;
  const uint64_t first = (uint64_t)b * slice;
  while (lo < hi) {  // lower bound
    const int64_t mid = lo + (hi - lo) / 2;
    if ((uint64_t)g.indices[mid] < first) lo = mid + 1;
    else hi = mid;
  }
  return (uint32_t)(lo - begin);
}

// The split table, entries [first, first + count) of n (blocks + 1) (the GPU gives each thread one).
GQ_HD GQ_INLINE void build_split(const Csr& g, uint32_t blocks, uint32_t slice, uint64_t first, uint64_t count,
                                 uint32_t* split) {
  for (uint64_t i = first; i < first + count; ++i)
    split[i] = split_entry(g, (uint32_t)(i / (blocks + 1)), (uint32_t)(i % (blocks + 1)), slice);
}

// The whole run, for one block; `keys` is this block's slice (shared memory on the GPU).
GQ_HD inline void slice_dijkstra_grid(const Grid& grid, const Csr& g, uint32_t source, double limit, uint64_t* keys,
                                      SliceScratch* scratch, const SliceDijkstraState& s) {
  const uint32_t blocks = grid.blocks, S = s.slice;
  const uint64_t lo64 = (uint64_t)grid.block * S;
  const uint32_t lo = lo64 < g.n ? (uint32_t)lo64 : g.n;
  const uint32_t count = g.n - lo < S ? g.n - lo : S;
  const gq::ErrorFlag& err = grid.err;
  const uint64_t started = grid.leader() ? grid.now_ns() : 0;
  uint64_t relaxations = 0, improvements = 0, rounds = 0;
  for (uint32_t i = grid.thread; i < count; i += grid.width)
    keys[i] = lo + i == source ? to_bits(0.0) : kInfBits;
  grid.block_sync();
  for (uint32_t round = 0;; ++round) {
    if (grid.thread == 0) scratch[1].stop = 0u;  // last read before the last round's closing barrier
    // This slice's least unsettled key (+inf keys are not candidates: unreached).
    Candidate mine{kNoKey, ~0u};
    for (uint32_t i = grid.thread; i < count; i += grid.width) {
      const Candidate c{keys[i], lo + i};
      if (c.key < kInfBits && c.below(mine)) mine = c;
    }
    mine = block_least(grid, mine, scratch + 0);
    const uint32_t parity = (round & 1u) * blocks;
    const uint64_t stamp = (uint64_t)(round + 1u) << 32;
    if (grid.thread == 0) {
      const bool stop = grid.leader() && s.budget_ns && grid.now_ns() - started > s.budget_ns;
      gq::store<gq::mo::relaxed>(s.slot_key + parity + grid.block, mine.key);
      // Release: the key above, this block's settled distances and its slice's reads of the last
      // round all come before the tag that says "round r is published".
      gq::store<gq::mo::release>(s.slot_tag + parity + grid.block,
                                 stamp | (stop ? kStopBit : 0u) | (mine.vertex & ~kStopBit));
    }
    // The tournament: every slot of this round, the least of them.
    Candidate best{kNoKey, ~0u};
    for (uint32_t t = grid.thread; t < blocks; t += grid.width) {
      uint64_t tag = gq::load<gq::mo::acquire>(s.slot_tag + parity + t);
      gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET : GQ_SPIN_BUDGET);
      bool ok = true;
      while ((tag & ~0xffffffffull) != stamp) {
        if (!spin.step(err, gq::kSiteSliceRound, ((uint64_t)round << 32) | t)) {
          ok = false;
          break;
        }
#if GQ_DEVICE_BUILD
        spin.ns = 8;  // short sleeps only: this wait is the round's critical path, a slot is due within ~1 us
#endif  // (the CPU build's backoff must reach its yield: its threads oversubscribe the cores)
        tag = gq::load<gq::mo::acquire>(s.slot_tag + parity + t);
      }
      const uint32_t word = (uint32_t)tag;
      const Candidate c{gq::load<gq::mo::relaxed>(s.slot_key + parity + t), word & ~kStopBit};
      if (!ok || (t == 0 && (word & kStopBit))) scratch[1].stop = 1u;  // benign race: every writer writes 1
      if (ok && c.below(best)) best = c;
    }
    best = block_least(grid, best, scratch + 1);  // its barriers also publish scratch[1].stop
    if (scratch[1].stop || err.raised()) {
      // Every block sees block 0's stop bit in the same round, so all leave together; a failed
      // wait leaves the error flag up, which ends every other block's waits too.
      if (grid.leader() && !err.raised()) gq::store<gq::mo::relaxed>(grid.ctl + kAbort, 1u);
      break;
    }
    if (best.key >= kInfBits || from_bits(best.key) > limit || best.vertex >= g.n) break;  // nothing left
    const uint32_t u = best.vertex;
    const double du = from_bits(best.key);
    if (u - lo < count && grid.thread == 0) {  // the owner settles u
      keys[u - lo] = kSettled;
      gq::store<gq::mo::relaxed>(s.dist + u, best.key);
    }
    if (grid.leader()) ++rounds;
    grid.block_sync();
    // Relax the edges of u that land in this slice; a decrease-key is a shared-memory minimum.
    const int64_t row = g.indptr[u];
    const uint32_t* sp = s.split + (uint64_t)u * (blocks + 1) + grid.block;
    const int64_t first = row + sp[0], last = row + sp[1];
    for (int64_t e = first + grid.thread; e < last; e += grid.width) {
      ++relaxations;
      const uint32_t v = (uint32_t)g.indices[e];
      if (v - lo >= count) {  // rows not sorted by target, or a stale split table: never write outside the slice
        err.raise(gq::kCorrupt, gq::kSiteSliceRound, ((uint64_t)u << 32) | v);
        continue;
      }
      const double nd = du + g.weights[e];
      if (nd <= limit && keys[v - lo] != kSettled && lower_distance(keys, v - lo, nd)) ++improvements;
    }
    grid.block_sync();
  }
  if (relaxations) gq::fetch_add<gq::mo::relaxed>(s.stats + 1, relaxations);
  if (improvements) {
    gq::fetch_add<gq::mo::relaxed>(s.stats + 2, improvements);
    gq::fetch_add<gq::mo::relaxed>(s.stats + 3, improvements);
  }
  if (grid.leader()) gq::fetch_add<gq::mo::relaxed>(s.stats + 0, rounds);
}

}  // namespace sssp
