// sssp/par_dijkstra_grid.h — parDijkstra (seed 000, Section 4) as ONE persistent grid: the
// parallel form of par_dijkstra.h, classic (w_min < 0: one vertex a round) or batched (Crauser et
// al.'s criterion: every queued vertex within min + w_min).
//
// A round, with two grid barriers:
//   (A) rank 0 takes the round's vertices from parBucketHeap (peek_min / extract_min) and lists
//       their edge chunks as work items;                                                 barrier
//   (B) the whole grid relaxes every out-edge of those vertices (`advance`, an atomic minimum on
//       the distance bits); each vertex whose distance fell is appended once (a stamp per
//       round) to the update list;                                                       barrier
//   (C) block 0 sorts the update list by vertex in shared memory, a batch of at most d at a
//       time, writes the entries (vertex, its distance now) and rank 0 hands each batch to
//       BulkUpdate. Then (A) of the next round, still in block 0, without a barrier between.
// What is parallel: the relaxations (the whole grid) and the batch sort (block 0). What is NOT:
// the heap itself. Its operations (BulkUpdate's merge into S_0, Resolve = Empty + Fill down the
// levels, ExtractMin) run on one thread, the same code as the CPU build (gq/bucket_heap.cuh).
// The seed's form, one block per level with shared memory as its internal memory and levels that
// are not adjacent resolving at once, is issue 4's remaining step.
//
// Entries carry the distance at the end of the round, so a vertex improved twice in a round is
// handed over once, at its lower value. A settled vertex is never improved again (its distance
// is final; fl(d + w) >= d), so it never re-enters the heap.
#pragma once
#include "advance.h"

namespace sssp {

enum ParDijkstraWord : uint32_t { kPdItems = kCtlFirstFree, kPdUpdates = kCtlFirstFree + 1, kPdDone = kCtlFirstFree + 2,
                                  kPdWords = kCtlFirstFree + 3 };

// Keys sorted per batch in block 0's shared memory (MAX_BATCH of sssp.py).
constexpr uint32_t kMaxBatch = 4096;

struct ParDijkstraState {
  uint64_t* dist;          // [n] distance bits
  uint64_t* items;         // the round's edge chunks, cap `item_cap`
  uint32_t item_cap;
  uint32_t* updates;       // [n] vertices improved this round
  uint32_t* mark;          // [n] stamp of the round that last listed the vertex
  uint8_t* settled;        // [n]
  gq::HeapEntry* batch;    // [d]
  uint32_t* sort_keys;     // [kMaxBatch], block 0's shared memory on the GPU
  uint64_t* stats;         // rounds, relaxations, improvements, heap updates (added to)
  uint32_t lanes, ch;
  uint64_t budget_ns;
};

// Block-wide bitonic sort of keys[0, count) ascending (count <= kMaxBatch); pads to a power of two
// with the largest key, which no vertex has (n < 2^31).
GQ_HD inline void block_sort_keys(const Grid& grid, uint32_t* keys, uint32_t count) {
  uint32_t p = 1;
  while (p < count) p <<= 1;
  for (uint32_t i = count + grid.thread; i < p; i += grid.width) keys[i] = 0xffffffffu;
  grid.block_sync();
  for (uint32_t k = 2; k <= p; k <<= 1)
    for (uint32_t j = k >> 1; j > 0; j >>= 1) {
      for (uint32_t i = grid.thread; i < p; i += grid.width) {
        const uint32_t partner = i ^ j;
        if (partner > i) {
          const uint32_t a = keys[i], b = keys[partner];
          if ((a > b) == ((i & k) == 0)) {
            keys[i] = b;
            keys[partner] = a;
          }
        }
      }
      grid.block_sync();
    }
}

// (C), block 0: the update list into the heap, sorted batches of at most d. False on a heap error.
GQ_HD inline bool hand_over_updates(const Grid& grid, const gq::BucketHeap& heap, const ParDijkstraState& s,
                                    uint64_t& heap_updates) {
  const uint32_t nu = gq::load<gq::mo::relaxed>(grid.ctl + kPdUpdates);
  for (uint32_t first = 0; first < nu; first += heap.d) {
    const uint32_t nb = nu - first < heap.d ? nu - first : heap.d;
    for (uint32_t j = grid.thread; j < nb; j += grid.width) s.sort_keys[j] = s.updates[first + j];
    grid.block_sync();
    block_sort_keys(grid, s.sort_keys, nb);
    for (uint32_t j = grid.thread; j < nb; j += grid.width) {
      const uint32_t v = s.sort_keys[j];
      s.batch[j] = gq::HeapEntry{read_distance(s.dist, v), v, gq::kHeapUpdate};
    }
    grid.block_sync();
    bool ok = true;
    if (grid.thread == 0) {
      heap_updates += nb;
      ok = heap.bulk_update(s.batch, nb, grid.err);
    }
    grid.block_sync();
    if (!ok || grid.err.raised()) return false;
  }
  return true;
}

// (A), rank 0: the round's vertices out of the heap, their chunks listed. Returns false when the
// run is over (heap empty, or the minimum beyond `limit`) or the heap failed.
GQ_HD inline bool take_round(const Csr& g, double limit, double w_min, const gq::BucketHeap& heap,
                             const ParDijkstraState& s, uint32_t* ctl, const gq::ErrorFlag& err) {
  gq::HeapEntry e{};
  if (!heap.peek_min(&e, err) || e.prio > limit) return false;
  const double threshold = w_min < 0.0 ? e.prio : e.prio + w_min;
  uint32_t nitems = 0;
  do {
    if (!heap.extract_min(&e, err)) return false;
    if (s.settled[e.key]) {  // the heap deletes a key when it extracts it: never seen twice
      err.raise(gq::kCorrupt, gq::kSiteBucketHeap, e.key);
      return false;
    }
    s.settled[e.key] = 1;
    const uint32_t n = chunks_of(g, e.key, s.ch);
    if ((uint64_t)nitems + n > s.item_cap) {
      err.raise(gq::kCapacity, gq::kSiteFrontier, (uint64_t)nitems + n);
      return false;
    }
    for (uint32_t c = 0; c < n; ++c) s.items[nitems++] = ((uint64_t)c << 32) | e.key;
  } while (w_min >= 0.0 && heap.peek_min(&e, err) && e.prio <= threshold && e.prio <= limit);
  gq::store<gq::mo::relaxed>(ctl + kPdItems, nitems);
  return !err.raised();
}

GQ_HD inline void par_dijkstra_grid(const Grid& grid, const Csr& g, uint32_t source, double limit, double w_min,
                                    const gq::BucketHeap& heap, const ParDijkstraState& s) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  const uint64_t started = grid.leader() ? grid.now_ns() : 0;
  uint64_t relaxations = 0, improvements = 0, rounds = 0, heap_updates = 0;
  if (grid.leader()) {
    const gq::HeapEntry start{0.0, source, gq::kHeapUpdate};
    heap.bulk_update(&start, 1, err);
  }
  for (uint32_t round = 1;; ++round) {
    if (grid.block == 0) {
      if (!hand_over_updates(grid, heap, s, heap_updates)) break;  // (C)
      if (grid.thread == 0) {                                       // (A)
        gq::store<gq::mo::relaxed>(ctl + kPdUpdates, 0u);
        if (take_round(g, limit, w_min, heap, s, ctl, err)) ++rounds;
        else gq::store<gq::mo::relaxed>(ctl + kPdDone, 1u);
        if (s.budget_ns && grid.now_ns() - started > s.budget_ns) gq::store<gq::mo::relaxed>(ctl + kAbort, 1u);
      }
    }
    if (!grid.sync() || gq::load<gq::mo::relaxed>(ctl + kPdDone)) break;
    const uint32_t nitems = gq::load<gq::mo::relaxed>(ctl + kPdItems);
    advance(grid, g, s.dist, s.items, nitems, s.lanes, s.ch, [&](uint32_t, double du, int64_t k, bool live) {
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
    if (!grid.sync()) break;
  }
  gq::fetch_add<gq::mo::relaxed>(s.stats + 1, relaxations);
  gq::fetch_add<gq::mo::relaxed>(s.stats + 2, improvements);
  if (grid.leader()) {
    gq::fetch_add<gq::mo::relaxed>(s.stats + 0, rounds);
    gq::fetch_add<gq::mo::relaxed>(s.stats + 3, heap_updates);
  }
}

}  // namespace sssp
