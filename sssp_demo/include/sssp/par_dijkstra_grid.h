// sssp/par_dijkstra_grid.h — parDijkstra (seed 000, Section 4) as ONE persistent grid: the
// parallel form of par_dijkstra.h, classic (w_min < 0: one vertex a round) or batched (Crauser et
// al.'s criterion: every queued vertex within min + w_min).
//
// A round, with two grid barriers:
//   (A) block 0 takes the round's vertices from parBucketHeap (peek_min / extract_min, run by the
//       whole block: sssp/block_bucket_heap.h) and lists their edge chunks as work items;  barrier
//   (B) the whole grid relaxes every out-edge of those vertices (`advance`, an atomic minimum on
//       the distance bits); each vertex whose distance fell is appended once (a stamp per
//       round) to the update list;                                                       barrier
//   (C) block 0 sorts the update list by vertex in shared memory, a batch of at most d at a
//       time, writes the entries (vertex, its distance now) and hands each batch to BulkUpdate
//       (the whole block). Then (A) of the next round, still in block 0, with no grid barrier
//       between.
// A round with few work items (at most `local_items`) is relaxed by block 0 alone, with no grid
// barrier at all: on the seed DAG's smaller graphs and on mazes most rounds are such rounds.
// What is parallel: the relaxations (the whole grid); the batch sort and every heap operation
// (one block: parallel Merge, Select, splits and reductions inside Empty, Fill, BulkUpdate and
// ExtractMin). What is NOT yet the seed's: one block runs all the heap's levels one after the
// other, where the seed gives each level its own block (signalled through device memory) and
// resolves levels that are not adjacent at the same time; and the rounds themselves are
// sequential, as Dijkstra's are (the batched form settles many vertices per round).
//
// Entries carry the distance at the end of the round, so a vertex improved twice in a round is
// handed over once, at its lower value. A settled vertex is never improved again (its distance
// is final; fl(d + w) >= d), so it never re-enters the heap.
#pragma once
#include "advance.h"
#include "block_bucket_heap.h"

namespace sssp {

enum ParDijkstraWord : uint32_t {
  kPdItems = kCtlFirstFree,        // the round's work items
  kPdUpdates = kCtlFirstFree + 1,  // the update list's length
  kPdDone = kCtlFirstFree + 2,
  kPdRound = kCtlFirstFree + 3,    // the round number after block 0's local rounds
  kPdWords = kCtlFirstFree + 4
};

// Keys sorted per batch in block 0's shared memory (MAX_BATCH of sssp.py), in the words the
// heap's merges stage their keys in (BlockScratch::keys): a batch is sorted and written out
// before BulkUpdate runs.
constexpr uint32_t kMaxBatch = 4096;
static_assert(2 * kMaxBatch <= kStageKeys, "a batch is sorted in BlockScratch::keys (and ranked into its second half)");
// Batches of at most this many keys are sorted by rank: each thread counts the keys below its
// own, reading the batch from shared memory (one barrier, count reads a thread); longer ones by
// the bitonic network (log2 p (log2 p + 1) / 2 barriers for p = count rounded up to a power of two).
constexpr uint32_t kRankSortMax = 512;

struct ParDijkstraState {
  uint64_t* dist;          // [n] distance bits
  uint64_t* items;         // the round's edge chunks, cap `item_cap`
  uint32_t item_cap;
  uint32_t* updates;       // [n] vertices improved this round
  uint32_t* mark;          // [n] stamp of the round that last listed the vertex
  uint8_t* settled;        // [n]
  gq::HeapEntry* batch;    // [d]
  BlockScratch* scratch;   // block 0's shared scratch for the heap's block primitives and the sort
  uint64_t* stats;         // rounds, relaxations, improvements, heap updates (added to)
  uint32_t lanes, ch;
  uint64_t budget_ns;
  uint32_t local_items;    // rounds of at most this many work items are relaxed by block 0 alone
};

// Block-wide sort of keys[0, count) ascending: distinct keys (a round lists a vertex once),
// count <= kMaxBatch, keys[0, 2 kMaxBatch) the block's. Returns where the sorted keys are: ranked
// into keys + kMaxBatch, or sorted in place by the bitonic network, which pads to a power of two
// with the largest key, which no vertex has (n < 2^31).
GQ_HD inline const uint32_t* block_sort_keys(const Block& b, uint32_t* keys, uint32_t count) {
  const uint32_t part = b.enter(BlockCounts::kSort);
  if (count <= kRankSortMax) {
    uint32_t* ranked = keys + kMaxBatch;
    for (uint32_t i = b.thread; i < count; i += b.width) {
      const uint32_t key = keys[i];
      uint32_t rank = 0;
      for (uint32_t j = 0; j < count; ++j) rank += keys[j] < key ? 1u : 0u;
      ranked[rank] = key;
    }
    b.sync();
    b.leave(part);
    return ranked;
  }
  uint32_t p = 1;
  while (p < count) p <<= 1;
  for (uint32_t i = count + b.thread; i < p; i += b.width) keys[i] = 0xffffffffu;
  b.sync();
  for (uint32_t k = 2; k <= p; k <<= 1)
    for (uint32_t j = k >> 1; j > 0; j >>= 1) {
      for (uint32_t i = b.thread; i < p; i += b.width) {
        const uint32_t partner = i ^ j;
        if (partner > i) {
          const uint32_t x = keys[i], y = keys[partner];
          if ((x > y) == ((i & k) == 0)) {
            keys[i] = y;
            keys[partner] = x;
          }
        }
      }
      b.sync();
    }
  b.leave(part);
  return keys;
}

// (C), block 0: the update list into the heap, sorted batches of at most d. False on a heap error
// (the same for every thread of the block).
GQ_HD inline bool hand_over_updates(const Grid& grid, const Block& b, const BlockBucketHeap& heap,
                                    const ParDijkstraState& s, uint64_t& heap_updates) {
  const uint32_t nu = gq::load<gq::mo::relaxed>(grid.ctl + kPdUpdates);
  const uint32_t d = heap.h.d;
  uint32_t* keys = s.scratch->keys;
  for (uint32_t first = 0; first < nu; first += d) {
    const uint32_t nb = nu - first < d ? nu - first : d;
    for (uint32_t j = b.thread; j < nb; j += b.width) keys[j] = s.updates[first + j];
    b.sync();
    const uint32_t* sorted = block_sort_keys(b, keys, nb);
    for (uint32_t j = b.thread; j < nb; j += b.width) {
      const uint32_t v = sorted[j];
      s.batch[j] = gq::HeapEntry{read_distance(s.dist, v), v, gq::kHeapUpdate};
    }
    b.sync();
    if (b.thread == 0) heap_updates += nb;
    if (!heap.bulk_update(b, s.batch, nb)) return false;
  }
  return true;
}

// (A), block 0: the round's vertices out of the heap, their chunks listed. Returns false (alike
// for the whole block) when the run is over (heap empty, or the minimum beyond `limit`) or the
// heap failed.
GQ_HD inline bool take_round(const Block& b, const Csr& g, double limit, double w_min, const BlockBucketHeap& heap,
                             const ParDijkstraState& s, uint32_t* ctl) {
  gq::HeapEntry e{};
  // The classic form takes the minimum without a look first (one reduction less a round); what it
  // takes beyond `limit` ends the run, so losing it from the heap changes nothing.
  const bool classic = w_min < 0.0;
  if (!classic && (!heap.peek_min(b, &e) || e.prio > limit)) return false;
  const double threshold = e.prio + w_min;
  uint32_t nitems = 0;
  do {
    if (!heap.extract_min(b, &e) || (classic && e.prio > limit)) return false;
    bool bad = false;
    if (b.thread == 0) {
      bad = s.settled[e.key] != 0;  // the heap deletes a key when it extracts it: never seen twice
      if (bad) b.err.raise(gq::kCorrupt, gq::kSiteBucketHeap, e.key);
      s.settled[e.key] = 1;
    }
    const uint32_t n = chunks_of(g, e.key, s.ch);
    if ((uint64_t)nitems + n > s.item_cap) {
      b.err.raise(gq::kCapacity, gq::kSiteFrontier, (uint64_t)nitems + n);
      bad = true;
    }
    if (b.uniform(bad)) return false;
    for (uint32_t c = b.thread; c < n; c += b.width) s.items[nitems + c] = ((uint64_t)c << 32) | e.key;
    nitems += n;
  } while (!classic && heap.peek_min(b, &e) && e.prio <= threshold && e.prio <= limit);
  if (b.thread == 0) gq::store<gq::mo::relaxed>(ctl + kPdItems, nitems);
  return true;
}

GQ_HD inline void par_dijkstra_grid(const Grid& grid, const Csr& g, uint32_t source, double limit, double w_min,
                                    const gq::BucketHeap& heap, const ParDijkstraState& s) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  const uint64_t started = grid.leader() ? grid.now_ns() : 0;
  uint64_t relaxations = 0, improvements = 0, rounds = 0, heap_updates = 0;
  const Block b{grid.thread, grid.width, s.scratch, nullptr, err};  // block 0's view (one-thread blocks on the CPU)
  // Block 0 alone runs the heap, its size words in its shared memory until the run ends.
  const BlockBucketHeap bheap = grid.block == 0 ? BlockBucketHeap{heap}.staged(b) : BlockBucketHeap{heap};
  if (grid.block == 0) {
    if (b.thread == 0) s.batch[0] = gq::HeapEntry{0.0, source, gq::kHeapUpdate};
    b.sync();
    bheap.bulk_update(b, s.batch, 1);
  }
  // (B) over `who`: relax the round's items, list the improved vertices once (stamp = round).
  auto relax_round = [&](const Grid& who, uint32_t nitems, uint32_t round) {
    advance(who, g, s.dist, s.items, nitems, s.lanes, s.ch, [&](uint32_t, double du, int64_t k, bool live) {
      bool listed = false;
      uint32_t v = 0;
      if (live) {
        ++relaxations;
        v = (uint32_t)g.indices[k];
        const double nd = du + g.weights[k];
        if (nd <= limit && lower_distance(s.dist, v, nd)) {
          ++improvements;
          listed = gq::exchange<gq::mo::relaxed>(s.mark + v, round) != round;
        }
      }
      push_vertex(s.updates, ctl + kPdUpdates, g.n, v, listed, err);
    });
  };
  for (uint32_t round = 1;; ++round) {
    if (grid.block == 0) {
      // Block 0 runs (C), (A) and, while a round's items are few, (B) too, on its own: a small
      // round then costs block barriers only, and the other blocks wait at the grid barrier.
      for (uint32_t local_rounds = 1;; ++local_rounds) {
        bool more = hand_over_updates(grid, b, bheap, s, heap_updates);  // (C)
        b.sync();                                                        // every thread has read the count
        if (b.thread == 0) gq::store<gq::mo::relaxed>(ctl + kPdUpdates, 0u);
        more = more && take_round(b, g, limit, w_min, bheap, s, ctl);    // (A)
        bool local = false;
        if (b.thread == 0) {
          if (more) ++rounds;
          else gq::store<gq::mo::relaxed>(ctl + kPdDone, 1u);
          if (s.budget_ns && grid.now_ns() - started > s.budget_ns) grid.request_stop();
          local = more && gq::load<gq::mo::relaxed>(ctl + kPdItems) <= s.local_items &&
                  local_rounds < kMaxLocalRounds && !err.raised() && gq::load<gq::mo::relaxed>(ctl + kAbort) == 0u;
          if (!local) gq::store<gq::mo::relaxed>(ctl + kPdRound, round);
        }
        if (!grid.block_uniform(local)) break;
        relax_round(grid.block_only(), gq::load<gq::mo::relaxed>(ctl + kPdItems), round);
        ++round;
        b.sync();  // the update list is complete
      }
    }
    if (!grid.sync() || gq::load<gq::mo::relaxed>(ctl + kPdDone)) break;
    round = gq::load<gq::mo::relaxed>(ctl + kPdRound);
    relax_round(grid, gq::load<gq::mo::relaxed>(ctl + kPdItems), round);
    if (!grid.sync()) break;
  }
  if (grid.block == 0) bheap.write_back(b, heap.sizes);
  if (relaxations) gq::fetch_add<gq::mo::relaxed>(s.stats + 1, relaxations);  // most threads of a small run: none
  if (improvements) gq::fetch_add<gq::mo::relaxed>(s.stats + 2, improvements);
  if (grid.leader()) {
    gq::fetch_add<gq::mo::relaxed>(s.stats + 0, rounds);
    gq::fetch_add<gq::mo::relaxed>(s.stats + 3, heap_updates);
  }
}

}  // namespace sssp
