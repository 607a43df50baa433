// sssp/predecessors.h — predecessors from final distances, for the grid forms (whose racing
// relaxations cannot say which of them last lowered a distance).
//
// An edge (u, v, w) is tight when fl(dist[u] + w) == dist[v]. Every reached v other than the
// source has a tight in-edge (dist[v] is some offer), but taking any of them can close a cycle
// where tight edges join vertices of EQUAL distance (zero weights, or a weight too small to move a
// large distance). So predecessors are chosen in passes that keep (dist, level) strictly falling
// along every predecessor link:
//   pass 1: a tight edge from a strictly nearer u: pred[v] = u, level[v] = 1;
//   pass p >= 2: a tight edge from u at the same distance whose level is in [1, p): level[v] = p
//   (claimed by CAS from 0, so one writer sets pred[v]); repeat while a pass claims anything.
// Levels start 0, the source's 1. Every class of equal-distance vertices is entered from a rooted
// vertex (the first of them to reach its distance got it from one), so the passes root them all.
// Pass 1 counts the tight equal-distance edges: where there are none, no further pass is needed.
#pragma once
#include "advance.h"

namespace sssp {

// Edge k = (u, v): one step of pass `pass` (1, or >= 2). Returns 1 if it claimed v (pass >= 2) or
// if it is a tight edge between equal distances (pass 1), else 0.
GQ_HD GQ_INLINE uint32_t predecessor_step(const Csr& g, const uint64_t* dist, uint32_t source, uint32_t u, double du,
                                          int64_t k, uint32_t pass, int64_t* pred, uint32_t* level) {
  const uint32_t v = (uint32_t)g.indices[k];
  if (v == source || !(du < 1.0 / 0.0)) return 0;
  const double dv = read_distance(dist, v);
  if (du + g.weights[k] != dv) return 0;
  if (pass == 1) {
    if (du < dv) {
      gq::store<gq::mo::relaxed>((uint64_t*)pred + v, (uint64_t)(int64_t)u);  // any tight u will do
      gq::store<gq::mo::relaxed>(level + v, 1u);
      return 0;
    }
    return 1;
  }
  const uint32_t lu = gq::load<gq::mo::relaxed>(level + u);
  if (du != dv || lu == 0 || lu >= pass) return 0;
  if (gq::cas<gq::mo::relaxed>(level + v, 0u, pass) != 0u) return 0;
  gq::store<gq::mo::relaxed>((uint64_t*)pred + v, (uint64_t)(int64_t)u);
  return 1;
}

// One pass over every edge, `lanes` threads per vertex over the grid (no barrier inside: a
// plain grid-stride kernel). Returns this thread's count (see predecessor_step).
GQ_HD inline uint32_t predecessor_pass(uint32_t rank, uint32_t threads, const Csr& g, const uint64_t* dist,
                                       uint32_t source, uint32_t pass, uint32_t lanes, int64_t* pred, uint32_t* level) {
  uint32_t count = 0;
  for (uint64_t t = rank; t < (uint64_t)g.n * lanes; t += threads) {
    const uint32_t u = (uint32_t)(t / lanes);
    const double du = read_distance(dist, u);
    if (!(du < 1.0 / 0.0)) continue;
    for (int64_t k = g.indptr[u] + (int64_t)(t % lanes); k < g.indptr[u + 1]; k += lanes)
      count += predecessor_step(g, dist, source, u, du, k, pass, pred, level);
  }
  return count;
}

}  // namespace sssp
