// sssp/slice_dijkstra_grid.h — parDijkstra's rounds (seed 000, Section 4: extract the minimum,
// relax all its out-edges in parallel, lower the improved keys) over a priority queue cut into
// vertex slices, one per resident block: `pardijkstra-sliced`.
//
// Why not parBucketHeap here. On the seed DAG a round hands the heap thousands of updates (the
// minimum's out-degree), and one block resolving them costs about a millisecond a round at 300 M
// edges (par_dijkstra_grid.h). The round itself is one dependent step; what it must cost is what
// the machine needs to agree on one minimum and to read one row. So:
//   * block b owns vertices [b S, (b + 1) S) and keeps their keys (distance bits) in its own
//     shared memory: a decrease-key is a shared-memory atomic minimum by the block that owns the
//     vertex, with no device-memory traffic at all;
//   * the edges are laid out by slice (SlicedEdges): block b's edges are those whose target it
//     owns, grouped by source, so in a round block b reads exactly the edges of u that land in
//     its slice, from where its offset table (in its shared memory when it fits) says;
//   * ExtractMin is a tournament: each block publishes its slice's least key (key, vertex) in
//     its own slot, and every block reads all slots and takes the same least one. The slots are
//     the round's only barrier: a slot carries its round number, so waiting for round r means
//     waiting until every slot says r; two sets of slots alternate by round parity, which is
//     enough because no block can publish round r + 2 before every block has published r + 1,
//     that is, before every block has finished reading round r (each publish is a release, each
//     read of a slot an acquire).
// A round is then: one warp scans the slice's partial minima and publishes (one release store),
// waits for the other slots (about one device-memory round trip after the last publish) and
// settles the winner if it owns it; then the whole block reads u's edges in its slice (one round
// trip) and relaxes them in shared memory. Ties go to the lower vertex number, and every block
// computes the same minimum from the same slots, so every block takes the same path.
//
// Exactness: a settled vertex keeps its distance with the top bit set (kSettledBit: no longer a
// candidate, never lowered: fl(d_u + w) >= d_u >= d_v anyway); the keys are the float64 sums
// scipy forms (advance.h), so distances equal scipy's bit for bit. Vertices beyond `limit`
// never get a key, so they stay unreached, as in scipy. Each block writes its slice's final
// distances once, at the end.
//
// The slice must fit the block's shared memory (the launcher checks: about 28,000 vertices a
// block on an H200, so graphs up to a few million vertices). On the CPU build a block is one
// std::thread, its "warp" that thread, and its slice and table live in ordinary memory.
#pragma once
#include "advance.h"

namespace sssp {

constexpr uint64_t kSettledBit = 1ull << 63;  // on a key: settled (non-negative doubles never have it)
constexpr uint64_t kKeyStampBit = 1ull << 63; // on a slot's key: its round's stamp (slots never hold settled keys)
constexpr uint32_t kStopBit = 1u << 31;       // in block 0's tag: stop after this round (time budget)
constexpr uint32_t kMaxWarps = 32;

// The edges by slice: for block b, the edges whose target is in [b S, (b + 1) S), grouped by
// source. Block b's edges out of u are [offsets[b (n + 1) + u], offsets[b (n + 1) + u + 1]) of
// these arrays; each block is handed its row of that table. Offsets are 32-bit (the launchers
// refuse m >= 2^32).
struct SlicedEdges {
  const int32_t* indices;
  const double* weights;
};

// The round's decision, made by warp 0 and read by the whole block after a barrier.
struct SliceScratch {
  uint64_t key[kMaxWarps];
  uint32_t vertex[kMaxWarps];
  uint64_t best_key;
  uint32_t best_vertex;
  uint32_t stop;
};

struct SliceDijkstraState {
  uint64_t* dist;          // [n] distance bits: each block writes its slice's at the end
  SlicedEdges edges;
  uint64_t* slot_key;      // [2 blocks] the published minima, by round parity
  uint64_t* slot_tag;      // [2 blocks] (round + 1) << 32 | stop bit | vertex; zero to start
  uint64_t* stats;         // rounds, relaxations, decrease-keys, decrease-keys (added to)
  uint32_t slice;          // S: vertices a block owns
  uint64_t budget_ns;
  uint64_t* profile;       // null, or [4]: block 0's time in scan, tournament, relax; slot re-reads (added to)
};

// Where block 0's rounds go, for tools/gpu_slice_probe.py: SM cycles on the GPU, ns on the CPU.
GQ_HD GQ_INLINE uint64_t slice_clock() {
#if GQ_DEVICE_BUILD
  return (uint64_t)clock64();
#else
  return gq::host_now_ns();
#endif
}

// A measuring aid, never part of a shipped build: 0 drops the acquire fence after a round's slot
// reads, to show what it costs.
#ifndef SSSP_SLICE_READ_FENCE
#define SSSP_SLICE_READ_FENCE 1
#endif

struct Candidate {
  uint64_t key;
  uint32_t vertex;
  GQ_HD GQ_INLINE bool below(const Candidate& o) const {
    return key < o.key || (key == o.key && vertex < o.vertex);
  }
};
constexpr Candidate kNoCandidate{kInfBits, ~0u};  // +inf keys are not candidates (unreached)

// The least candidate over a full warp, for every lane (the CPU's warp is one thread).
GQ_HD GQ_INLINE Candidate warp_least(Candidate c) {
#if GQ_DEVICE_BUILD
  for (uint32_t off = 16; off > 0; off >>= 1) {
    const Candidate o{__shfl_xor_sync(kFullWarp, c.key, off), __shfl_xor_sync(kFullWarp, c.vertex, off)};
    if (o.below(c)) c = o;
  }
#endif
  return c;
}

// Warp 0 of each block: this slice's least key (from the warps' partial minima), published;
// every block's, gathered; the least of them into sc->best_*, the round's stop into sc->stop.
// Returns how many times this lane re-read slots that were not yet published.
GQ_HD inline uint32_t tournament(const Grid& grid, uint32_t round, uint32_t lane, uint64_t started, SliceScratch* sc,
                                 const SliceDijkstraState& s) {
  const uint32_t blocks = grid.blocks, warps = (grid.width + kWarp - 1) / kWarp;
  Candidate mine = kNoCandidate;
  for (uint32_t w = lane; w < warps; w += kWarp) {
    const Candidate c{sc->key[w], sc->vertex[w]};
    if (c.below(mine)) mine = c;
  }
  mine = warp_least(mine);
  const uint32_t parity = (round & 1u) * blocks;
  const uint64_t stamp = (uint64_t)(round + 1u) << 32;
  const uint64_t key_stamp = ((round >> 1) + 1u) & 1u ? kKeyStampBit : 0u;  // see below
  if (lane == 0) {
    const bool stop = grid.leader() && s.budget_ns && grid.now_ns() - started > s.budget_ns;
    gq::store<gq::mo::relaxed>(s.slot_key + parity + grid.block, mine.key | key_stamp);
    // Release: the key above and every read of the last round's slots come before this tag.
    gq::store<gq::mo::release>(s.slot_tag + parity + grid.block,
                               stamp | (stop ? kStopBit : 0u) | (mine.vertex & ~kStopBit));
  }
  // Every slot's two words are read together, relaxed, and re-read until both carry this round's
  // stamp; one acquire fence then orders the reads. A slot of this parity holds round r - 2's
  // words or round r's, never older (coherence: this lane read r - 2's) and never r + 2's (its
  // owner publishes r + 2 only after this block's r + 1 tag, released after these reads), so
  // one bit of stamp on the key word (its sign bit: keys are non-negative) tells the two apart.
  // A lane waits for kBatch slots at once: their loads are in flight together.
  constexpr uint32_t kBatch = 8;
  Candidate best = kNoCandidate;
  bool stop = false;
  uint32_t rereads = 0;
  for (uint32_t base = lane; base < blocks && !stop; base += kWarp * kBatch) {
    uint64_t tag[kBatch], key[kBatch];
    uint32_t pending = 0;
#pragma unroll
    for (uint32_t j = 0; j < kBatch; ++j)
      if (base + j * kWarp < blocks) pending |= 1u << j;
    gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET : GQ_SPIN_BUDGET);
    for (bool first = true; pending; first = false) {
      if (!first) {
        ++rereads;
        if (!spin.step(grid.err, gq::kSiteSliceRound, ((uint64_t)round << 32) | base)) {
          stop = true;  // the flag is up: every block leaves
          break;
        }
#if GQ_DEVICE_BUILD
        spin.ns = 8;  // short sleeps only: this wait is the round's critical path, a slot is due within ~1 us
#endif  // (the CPU build's backoff must reach its yield: its threads oversubscribe the cores)
      }
#pragma unroll
      for (uint32_t j = 0; j < kBatch; ++j)
        if (pending & (1u << j)) {
          tag[j] = gq::load<gq::mo::relaxed>(s.slot_tag + parity + base + j * kWarp);
          key[j] = gq::load<gq::mo::relaxed>(s.slot_key + parity + base + j * kWarp);
        }
#pragma unroll
      for (uint32_t j = 0; j < kBatch; ++j)
        if ((pending & (1u << j)) && (tag[j] & ~0xffffffffull) == stamp && (key[j] & kKeyStampBit) == key_stamp)
          pending &= ~(1u << j);
    }
    if (stop) break;
#if SSSP_SLICE_READ_FENCE
    gq::fence<gq::mo::acq_rel>();
#endif
#pragma unroll
    for (uint32_t j = 0; j < kBatch; ++j) {
      const uint32_t t = base + j * kWarp;
      if (t >= blocks) continue;
      const uint32_t word = (uint32_t)tag[j];
      const Candidate c{key[j] & ~kKeyStampBit, word & ~kStopBit};
      stop = stop || (t == 0 && (word & kStopBit));
      if (c.below(best)) best = c;
    }
  }
  best = warp_least(best);
#if GQ_DEVICE_BUILD
  stop = __any_sync(kFullWarp, stop);
#endif
  if (lane == 0) {
    sc->best_key = best.key;
    sc->best_vertex = best.vertex;
    sc->stop = stop || grid.err.raised() ? 1u : 0u;
  }
  return rereads;
}

// The whole run, for one block. `keys` is this block's slice, `offsets` its row of the sliced
// edges' offset table (both in shared memory on the GPU; the table may stay in device memory).
GQ_HD inline void slice_dijkstra_grid(const Grid& grid, uint32_t n, uint32_t source, double limit, uint64_t* keys,
                                      const uint32_t* offsets, SliceScratch* sc, const SliceDijkstraState& s) {
  const uint32_t S = s.slice;
  const uint64_t lo64 = (uint64_t)grid.block * S;
  const uint32_t lo = lo64 < n ? (uint32_t)lo64 : n;
  const uint32_t count = n - lo < S ? n - lo : S;
  const uint32_t lane = grid.thread % kWarp, warp = grid.thread / kWarp;
  const uint64_t started = grid.leader() ? grid.now_ns() : 0;
  uint64_t relaxations = 0, improvements = 0, rounds = 0;
  for (uint32_t i = grid.thread; i < count; i += grid.width) keys[i] = lo + i == source ? to_bits(0.0) : kInfBits;
  grid.block_sync();
  const bool profiled = s.profile && grid.leader();
  uint64_t spent[4] = {0, 0, 0, 0}, mark = profiled ? slice_clock() : 0;
  auto lap = [&](uint32_t part) {
    if (profiled) {
      const uint64_t now = slice_clock();
      spent[part] += now - mark;
      mark = now;
    }
  };
  for (uint32_t round = 0;; ++round) {
    // Each warp's least unsettled key of the slice (settled keys carry kSettledBit: never below +inf).
    Candidate mine = kNoCandidate;
    for (uint32_t i = grid.thread; i < count; i += grid.width) {
      const Candidate c{keys[i], lo + i};
      if (c.below(mine)) mine = c;
    }
    mine = warp_least(mine);
    if (lane == 0) {
      sc->key[warp] = mine.key;
      sc->vertex[warp] = mine.vertex;
    }
    grid.block_sync();
    lap(0);
    if (warp == 0) spent[3] += tournament(grid, round, lane, started, sc, s);
    grid.block_sync();
    lap(1);
    const Candidate best{sc->best_key, sc->best_vertex};
    if (sc->stop) {
      // Every block sees block 0's stop bit in the same round, so all leave together; a failed
      // wait leaves the error flag up, which ends every other block's waits too.
      if (grid.leader() && !grid.err.raised()) gq::store<gq::mo::relaxed>(grid.ctl + kAbort, 1u);
      break;
    }
    if (best.key >= kInfBits || from_bits(best.key) > limit || best.vertex >= n) break;  // nothing left
    const uint32_t u = best.vertex;
    const double du = from_bits(best.key);
    if (grid.leader()) ++rounds;
    const uint32_t first = offsets[u], last = offsets[u + 1];
    // Relax the edges of u that land in this slice; a decrease-key is a shared-memory minimum.
    for (uint32_t e = first + grid.thread; e < last; e += grid.width) {
      ++relaxations;
      const uint32_t v = (uint32_t)s.edges.indices[e] - lo;
      if (v >= count) {  // a layout that does not match the slices: never write outside this one
        grid.err.raise(gq::kCorrupt, gq::kSiteSliceRound, ((uint64_t)u << 32) | (v + lo));
        continue;
      }
      const double nd = du + s.edges.weights[e];
      if (nd <= limit && !(keys[v] & kSettledBit) && lower_distance(keys, v, nd)) ++improvements;
    }
    // The owner settles u (no relaxation of this round touches it: its key is the least).
    if (u - lo < count && grid.thread == 0) keys[u - lo] |= kSettledBit;
    grid.block_sync();
    lap(2);
  }
  if (profiled)
    for (uint32_t i = 0; i < 4; ++i) gq::fetch_add<gq::mo::relaxed>(s.profile + i, spent[i]);
  for (uint32_t i = grid.thread; i < count; i += grid.width) {
    const uint64_t k = keys[i];
    gq::store<gq::mo::relaxed>(s.dist + lo + i, (k & kSettledBit) ? k & ~kSettledBit : kInfBits);
  }
  if (relaxations) gq::fetch_add<gq::mo::relaxed>(s.stats + 1, relaxations);
  if (improvements) {
    gq::fetch_add<gq::mo::relaxed>(s.stats + 2, improvements);
    gq::fetch_add<gq::mo::relaxed>(s.stats + 3, improvements);
  }
  if (grid.leader()) gq::fetch_add<gq::mo::relaxed>(s.stats + 0, rounds);
}

}  // namespace sssp
