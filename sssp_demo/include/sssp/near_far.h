// sssp/near_far.h — Near-Far delta-stepping (Davidson et al., "Work-Efficient Parallel GPU
// Methods for Single-Source Shortest Paths", IPDPS 2014; Meyer and Sanders' delta-stepping with
// two buckets): vertices below the current threshold form the near frontier and are relaxed
// round after round; the others wait in the far pile, each at most once. When the near frontier
// runs dry, the far pile drops what went stale (a far vertex whose distance fell below the
// threshold was relaxed as a near one then), the threshold rises by delta past the nearest far
// vertex, and what is now below it becomes the near frontier. Exact, label-correcting.
#pragma once
#include "frontier.h"

namespace sssp {

GQ_HD inline void near_far(const Csr& g, uint32_t source, double limit, double delta, uint32_t* near_a,
                           uint32_t* near_b, uint32_t* far_items, uint8_t* in_far, uint32_t* mark_a, uint32_t* mark_b,
                           double* dist, int64_t* pred, Stats& stats) {
  reset(g, source, dist, pred, mark_a, mark_b);
  for (uint32_t v = 0; v < g.n; ++v) in_far[v] = 0;
  Frontier cur{near_a, 0, mark_a, 1}, next{near_b, 0, mark_b, 1};
  uint32_t far_size = 0;
  double threshold = delta;
  cur.push(source);
  for (;;) {
    while (cur.size) {
      ++stats.rounds;
      for (uint32_t i = 0; i < cur.size; ++i) {
        const uint32_t u = cur.items[i];
        for (int64_t k = g.indptr[u]; k < g.indptr[u + 1]; ++k) {
          const uint32_t v = (uint32_t)g.indices[k];
          if (!relax(dist, pred, u, v, g.weights[k], stats) || dist[v] > limit) continue;
          if (dist[v] < threshold) {
            next.push(v);
          } else if (!in_far[v]) {
            in_far[v] = 1;
            far_items[far_size++] = v;
          }
        }
      }
      Frontier done = cur;
      cur = next;
      next = Frontier{done.items, 0, done.mark, done.stamp + 1};
    }
    // Drop the stale, find the nearest of the rest.
    uint32_t live = 0;
    double nearest = 1.0 / 0.0;
    for (uint32_t i = 0; i < far_size; ++i) {
      const uint32_t v = far_items[i];
      if (dist[v] < threshold) {
        in_far[v] = 0;
        continue;
      }
      far_items[live++] = v;
      if (dist[v] < nearest) nearest = dist[v];
    }
    if (live == 0) break;
    while (threshold <= nearest) threshold += delta;
    far_size = 0;
    for (uint32_t i = 0; i < live; ++i) {
      const uint32_t v = far_items[i];
      if (dist[v] < threshold) {
        in_far[v] = 0;
        cur.push(v);
      } else {
        far_items[far_size++] = v;
      }
    }
  }
  apply_limit(g, limit, dist, pred);
}

}  // namespace sssp
