// sssp/frontier.h — what the label-correcting baselines share: a relaxation that records the
// predecessor, and a frontier that holds each vertex at most once per generation.
#pragma once
#include "par_dijkstra.h"

namespace sssp {

// A list of vertices; `mark[v] == stamp` says v is in it already (stamps start at 1, so a
// zeroed mark array is an empty set for every generation).
struct Frontier {
  uint32_t* items;
  uint32_t size;
  uint32_t* mark;
  uint32_t stamp;

  GQ_HD GQ_INLINE void push(uint32_t v) {
    if (mark[v] == stamp) return;
    mark[v] = stamp;
    items[size++] = v;
  }
};

// dist[u] + w improves dist[v]: take it.
GQ_HD GQ_INLINE bool relax(double* dist, int64_t* pred, uint32_t u, uint32_t v, double w, Stats& stats) {
  ++stats.relaxations;
  const double nd = dist[u] + w;
  if (!(nd < dist[v])) return false;
  dist[v] = nd;
  pred[v] = u;
  ++stats.improvements;
  return true;
}

GQ_HD GQ_INLINE void reset(const Csr& g, uint32_t source, double* dist, int64_t* pred, uint32_t* mark_a,
                           uint32_t* mark_b) {
  for (uint32_t v = 0; v < g.n; ++v) {
    dist[v] = 1.0 / 0.0;
    pred[v] = kNoPredecessor;
    mark_a[v] = 0;
    mark_b[v] = 0;
  }
  dist[source] = 0.0;
}

// scipy's `limit`: distances beyond it are reported as unreached.
GQ_HD GQ_INLINE void apply_limit(const Csr& g, double limit, double* dist, int64_t* pred) {
  for (uint32_t v = 0; v < g.n; ++v)
    if (dist[v] > limit) {
      dist[v] = 1.0 / 0.0;
      pred[v] = kNoPredecessor;
    }
}

}  // namespace sssp
