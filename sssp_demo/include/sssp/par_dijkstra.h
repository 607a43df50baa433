// sssp/par_dijkstra.h — parDijkstra (seed 000, Section 4): Dijkstra's rounds over parBucketHeap.
// Each round extracts the minimum vertex u, relaxes all of u's out-edges (in parallel on the
// GPU; the relaxations of one round are independent, so their order does not matter), and hands
// the improved vertices to the heap as BulkUpdates of at most d entries, sorted by vertex.
//
// Distances are float64 sums dist[u] + w, the same sums scipy's dijkstra forms, so integer-
// weighted graphs give bit-identical distances. Predecessors use scipy's -9999 for "none".
#pragma once
#include <gq/bucket_heap.cuh>

namespace sssp {

constexpr int64_t kNoPredecessor = -9999;

struct Csr {
  const int64_t* indptr;
  const int32_t* indices;
  const double* weights;
  uint32_t n;
};

struct Stats {
  uint64_t rounds, relaxations, improvements, heap_updates;
};

// Shell sort of a batch by vertex (BulkUpdate wants it sorted; no std:: on the device).
GQ_HD inline void sort_by_key(gq::HeapEntry* a, uint32_t n) {
  for (uint32_t gap = n / 2; gap > 0; gap /= 2)
    for (uint32_t i = gap; i < n; ++i) {
      const gq::HeapEntry t = a[i];
      uint32_t j = i;
      for (; j >= gap && t.key < a[j - gap].key; j -= gap) a[j] = a[j - gap];
      a[j] = t;
    }
}

GQ_HD inline bool flush(const gq::BucketHeap& heap, gq::HeapEntry* batch, uint32_t nb, int64_t* slot_of, Stats& stats,
                        const gq::ErrorFlag& err) {
  for (uint32_t j = 0; j < nb; ++j) slot_of[batch[j].key] = -1;
  sort_by_key(batch, nb);
  stats.heap_updates += nb;
  return heap.bulk_update(batch, nb, err);
}

// One call computes all distances from `source`. Per round, the classic form (w_min < 0)
// settles the one minimum vertex, as the seed does; the batched form settles every queued vertex
// whose tentative distance is at most min + w_min, w_min being the smallest edge weight (the
// global form of Crauser et al.'s OUT criterion, "A parallelization of Dijkstra's shortest path
// algorithm", MFCS 1998): no path through a vertex still queued can be shorter than min + w_min,
// so those distances are final and the result stays exact.
//
// Scratch, n entries each: `slot_of` (a vertex's place in the pending batch, or -1), `settled`,
// `round` (the vertices settled this round); `batch` holds d entries.
GQ_HD inline bool par_dijkstra(const Csr& g, uint32_t source, double limit, double w_min, const gq::BucketHeap& heap,
                               gq::HeapEntry* batch, int64_t* slot_of, uint32_t* round, double* dist, int64_t* pred,
                               uint8_t* settled, Stats& stats, const gq::ErrorFlag& err) {
  for (uint32_t v = 0; v < g.n; ++v) {
    dist[v] = 1.0 / 0.0;
    pred[v] = kNoPredecessor;
    settled[v] = 0;
    slot_of[v] = -1;
  }
  dist[source] = 0.0;
  const gq::HeapEntry start{0.0, source, gq::kHeapUpdate};
  if (!heap.bulk_update(&start, 1, err)) return false;
  gq::HeapEntry e{};
  while (heap.peek_min(&e, err) && e.prio <= limit) {  // scipy's `limit`: nothing farther is computed
    const double threshold = w_min < 0.0 ? e.prio : e.prio + w_min;
    uint32_t settled_now = 0;
    do {
      if (!heap.extract_min(&e, err)) return false;
      if (settled[e.key]) {  // the heap deletes a key when it extracts it: never seen twice
        err.raise(gq::kCorrupt, gq::kSiteBucketHeap, e.key);
        return false;
      }
      settled[e.key] = 1;
      round[settled_now++] = e.key;
    } while (w_min >= 0.0 && heap.peek_min(&e, err) && e.prio <= threshold && e.prio <= limit);
    ++stats.rounds;
    // Relax every out-edge of the round's vertices (independent: in parallel on the GPU).
    uint32_t nb = 0;
    for (uint32_t r = 0; r < settled_now; ++r) {
      const uint32_t u = round[r];
      for (int64_t k = g.indptr[u]; k < g.indptr[u + 1]; ++k) {
        const uint32_t v = (uint32_t)g.indices[k];
        ++stats.relaxations;
        const double nd = dist[u] + g.weights[k];
        if (settled[v] || !(nd < dist[v])) continue;
        dist[v] = nd;
        pred[v] = u;
        ++stats.improvements;
        if (slot_of[v] >= 0) {
          batch[slot_of[v]].prio = nd;  // improved again this round (a parallel edge, another u)
          continue;
        }
        if (nb == heap.d) {  // a full batch: hand it over, start the next
          if (!flush(heap, batch, nb, slot_of, stats, err)) return false;
          nb = 0;
        }
        slot_of[v] = nb;
        batch[nb++] = gq::HeapEntry{nd, v, gq::kHeapUpdate};
      }
    }
    if (nb && !flush(heap, batch, nb, slot_of, stats, err)) return false;
  }
  for (uint32_t v = 0; v < g.n; ++v)
    if (!settled[v]) {  // unreachable, or beyond the limit
      dist[v] = 1.0 / 0.0;
      pred[v] = kNoPredecessor;
    }
  return !err.raised();
}

}  // namespace sssp
