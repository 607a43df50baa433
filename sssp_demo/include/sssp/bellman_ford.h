// sssp/bellman_ford.h — frontier Bellman-Ford, "workfront sweep" (Davidson et al., "Work-
// Efficient Parallel GPU Methods for Single-Source Shortest Paths", IPDPS 2014): each round
// relaxes the out-edges of exactly the vertices whose distance fell in the previous round.
// Label-correcting: exact once no distance falls; `rounds` counts the sweeps.
#pragma once
#include "frontier.h"

namespace sssp {

GQ_HD inline void bellman_ford(const Csr& g, uint32_t source, double limit, uint32_t* items_a, uint32_t* items_b,
                               uint32_t* mark_a, uint32_t* mark_b, double* dist, int64_t* pred, Stats& stats) {
  reset(g, source, dist, pred, mark_a, mark_b);
  Frontier cur{items_a, 0, mark_a, 1}, next{items_b, 0, mark_b, 1};
  cur.push(source);
  while (cur.size) {
    ++stats.rounds;
    for (uint32_t i = 0; i < cur.size; ++i) {
      const uint32_t u = cur.items[i];
      for (int64_t k = g.indptr[u]; k < g.indptr[u + 1]; ++k) {
        const uint32_t v = (uint32_t)g.indices[k];
        if (relax(dist, pred, u, v, g.weights[k], stats) && dist[v] <= limit) next.push(v);
      }
    }
    // The next frontier becomes the current one; the old one, emptied, takes a new stamp.
    Frontier done = cur;
    cur = next;
    next = Frontier{done.items, 0, done.mark, done.stamp + 1};
  }
  apply_limit(g, limit, dist, pred);
}

}  // namespace sssp
