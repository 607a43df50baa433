// sssp/advance.h — the operators the grid forms share (Gunrock's names: a frontier of work items,
// `advance` over their out-edges, a warp-aggregated append into the next frontier).
//
// Distances live as the bit patterns of float64 (`DistBits`). Non-negative doubles, +inf
// included, order exactly like their bits read as uint64, so "lower the distance" is a 64-bit
// atomic minimum on the bits (the GPU's 64-bit atomicMin; on the CPU a CAS loop that ends because
// every failed CAS saw a smaller value).
// The value stored is the same float64 sum dist[u] + w that scipy's dijkstra forms, so results are
// exact, not merely close: every algorithm here reaches the least fixpoint of
// d[v] = min_u fl(d[u] + w(u, v)), which is what Dijkstra's algorithm computes in float64 too
// (fl(a + w) is monotone in a and never below a for w >= 0). (-0.0, whose bits would sort last,
// cannot occur: the source starts at +0.0 and +0.0 + -0.0 is +0.0.)
//
// Work items are (chunk << 32 | vertex): chunk c of u covers u's out-edges
// [indptr[u] + c * ch, min(indptr[u + 1], that + ch)). Splitting high-degree vertices into chunks
// spreads one vertex's 10,000 edges over many warps; `lanes` (a power of two, at most a warp)
// threads work on one item together, so low-degree graphs keep most lanes busy.
#pragma once
#include "grid.h"
#include "par_dijkstra.h"

namespace sssp {

GQ_HD GQ_INLINE uint64_t to_bits(double d) {
#if GQ_DEVICE_BUILD
  return (uint64_t)__double_as_longlong(d);
#else
  uint64_t b;
  __builtin_memcpy(&b, &d, sizeof b);
  return b;
#endif
}

GQ_HD GQ_INLINE double from_bits(uint64_t b) {
#if GQ_DEVICE_BUILD
  return __longlong_as_double((long long)b);
#else
  double d;
  __builtin_memcpy(&d, &b, sizeof d);
  return d;
#endif
}

constexpr uint64_t kInfBits = 0x7ff0000000000000ull;  // +inf

GQ_HD GQ_INLINE double read_distance(const uint64_t* bits, uint32_t v) {
  return from_bits(gq::load<gq::mo::relaxed>(bits + v));
}

// The atomic minimum on distance bits, returning what was there before: the GPU's 64-bit
// atomicMin (relaxed; rounds are ordered by the grid barrier, and within a round only the minimum
// matters), a CAS loop on the CPU.
GQ_HD GQ_INLINE uint64_t fetch_min_bits(uint64_t* bits, uint32_t v, uint64_t want) {
#if GQ_DEVICE_BUILD
  return atomicMin(reinterpret_cast<unsigned long long*>(bits + v), (unsigned long long)want);
#else
  uint64_t seen = gq::load<gq::mo::relaxed>(bits + v);
  while (want < seen) {
    const uint64_t found = gq::cas<gq::mo::relaxed>(bits + v, seen, want);
    if (found == seen) break;
    seen = found;
  }
  return seen;
#endif
}

// Lower dist[v] to `nd` if that is smaller; true iff this call lowered it. It reads first and
// takes the atomic minimum only if that would lower: a hub's thousands of non-improving
// relaxations a round then cost loads, not atomics serialised on one L2 line.
GQ_HD GQ_INLINE bool lower_distance(uint64_t* bits, uint32_t v, double nd) {
  const uint64_t want = to_bits(nd);
  return want < gq::load<gq::mo::relaxed>(bits + v) && fetch_min_bits(bits, v, want) > want;
}

// Warp-aggregated append: every lane of the warp calls this together, lane i asking for count_i
// slots of the list behind `counter`; one fetch-add per warp. Returns the lane's first slot.
// Raises kCapacity (and returns `cap`) when the list would pass `cap` slots.
// Inclusive prefix sum of `value` over the lanes of the warp (Hillis-Steele, by shuffles); every
// lane of the warp calls it together.
GQ_HD GQ_INLINE uint32_t warp_inclusive_sum(uint32_t value) {
  const uint32_t lane = gq::lane_id();
  uint32_t incl = value;
  for (uint32_t d = 1; d < kWarp; d <<= 1) {
    const uint32_t x = gq::shuffle(kFullWarp, incl, lane >= d ? lane - d : lane);
    if (lane >= d) incl += x;
  }
  return incl;
}

GQ_HD GQ_INLINE uint32_t warp_append(uint32_t* counter, uint32_t count, uint32_t cap, const gq::ErrorFlag& err) {
  const uint32_t lane = gq::lane_id();
  const uint32_t incl = warp_inclusive_sum(count);
  const uint32_t total = gq::shuffle(kFullWarp, incl, kWarp - 1);
  uint32_t base = 0;
  if (lane == kWarp - 1 && total) base = gq::fetch_add<gq::mo::relaxed>(counter, total);
  base = gq::shuffle(kFullWarp, base, kWarp - 1);
  if ((uint64_t)base + total > cap) {
    err.raise(gq::kCapacity, gq::kSiteFrontier, (uint64_t)base + total);
    return cap;
  }
  return base + incl - count;
}

GQ_HD GQ_INLINE uint32_t chunks_of(const Csr& g, uint32_t v, uint32_t ch) {
  const int64_t deg = g.indptr[v + 1] - g.indptr[v];
  return (uint32_t)((deg + ch - 1) / ch);
}

// A list of work items and its length counter.
struct ItemList {
  uint64_t* items;
  uint32_t* count;
  uint32_t cap;
};

// Warp-wide: each lane with `want` appends vertex v's chunks to `out`.
GQ_HD GQ_INLINE void push_chunks(const Csr& g, const ItemList& out, uint32_t ch, uint32_t v, bool want,
                                 const gq::ErrorFlag& err) {
  const uint32_t n = want ? chunks_of(g, v, ch) : 0u;
  if (!gq::ballot(kFullWarp, n != 0u)) return;  // warp-uniform: nobody has anything to add
  const uint32_t at = warp_append(out.count, n, out.cap, err);
  if (at == out.cap) return;
  for (uint32_t c = 0; c < n; ++c) out.items[at + c] = ((uint64_t)c << 32) | v;
}

// Warp-wide: each lane with `want` appends vertex v to a plain vertex list.
GQ_HD GQ_INLINE void push_vertex(uint32_t* list, uint32_t* counter, uint32_t cap, uint32_t v, bool want,
                                 const gq::ErrorFlag& err) {
  if (!gq::ballot(kFullWarp, want)) return;
  const uint32_t at = warp_append(counter, want ? 1u : 0u, cap, err);
  if (want && at != cap) list[at] = v;
}

// Edges a lane takes at once in the walk below: advance_shape gives a lane 4 edges of an item, so
// on the GPU a batch is all of them.
constexpr uint32_t kEdgeBatch = 4;

// A frontier item's edges: u's [begin, end).
struct EdgeRange {
  uint32_t u;
  int64_t begin, end;
};

// The warp-uniform walk every advance shares: the frontier's `nitems` items, `lanes` threads
// each; `range(i)` says which edges item i stands for (asked only for i < nitems). Each lane is
// handed its edges of the item a batch at a time, so that the visitor can put the batch's loads,
// then its atomics, each in flight together (one round trip per step of a relaxation, not one
// per step and edge): `visit(u, du, k, end, stride)` takes the edges k + j stride
// (j < kEdgeBatch) that are below `end`, with every lane of the warp present. du is dist[u] as
// read once per item (a later, lower value only means a later round relaxes u again).
template <class Range, class Visit>
GQ_HD GQ_INLINE void walk_items(const Grid& grid, const uint64_t* dist, uint32_t nitems, uint32_t lanes, uint32_t ch,
                                Range range, Visit visit) {
  const uint32_t per_warp = kWarp / lanes;
  const uint32_t lane = gq::lane_id(), slot = lane / lanes, sub = lane % lanes;
  const uint32_t warp = grid.rank() / kWarp, warps = grid.size() / kWarp;
  for (uint32_t base = warp * per_warp; base < nitems; base += warps * per_warp) {
    const uint32_t i = base + slot;
    const bool ok = i < nitems;
    const EdgeRange r = ok ? range(i) : EdgeRange{0u, 0, 0};
    const double du = ok ? read_distance(dist, r.u) : 0.0;
    for (uint32_t k0 = 0; k0 < ch; k0 += lanes * kEdgeBatch) {
      const int64_t k = r.begin + k0 + sub;
      if (!gq::ballot(kFullWarp, k < r.end)) break;  // warp-uniform: the warp's items are done
      visit(r.u, du, k, r.end, lanes);
    }
  }
}

// advance_batches: the walk over a device list of work items (chunk << 32 | u), each item's
// edges read from u's row.
template <class Visit>
GQ_HD GQ_INLINE void advance_batches(const Grid& grid, const Csr& g, const uint64_t* dist, const uint64_t* items,
                                     uint32_t nitems, uint32_t lanes, uint32_t ch, Visit visit) {
  walk_items(grid, dist, nitems, lanes, ch, [&](uint32_t i) {
    const uint64_t item = items[i];
    const uint32_t u = (uint32_t)item;
    const int64_t begin = g.indptr[u] + (int64_t)(item >> 32) * ch, row_end = g.indptr[u + 1];
    return EdgeRange{u, begin, row_end < begin + ch ? row_end : begin + ch};
  }, visit);
}

// advance: the same walk an edge at a time: `visit(u, du, k, live)` runs with every lane of the
// warp present; edge k of the CSR is real iff `live`.
template <class Visit>
GQ_HD GQ_INLINE void advance(const Grid& grid, const Csr& g, const uint64_t* dist, const uint64_t* items,
                             uint32_t nitems, uint32_t lanes, uint32_t ch, Visit visit) {
  advance_batches(grid, g, dist, items, nitems, lanes, ch, [&](uint32_t u, double du, int64_t k, int64_t end,
                                                               uint32_t stride) {
    for (uint32_t j = 0; j < kEdgeBatch; ++j) {
      const int64_t e = k + (int64_t)j * stride;
      if (!gq::ballot(kFullWarp, e < end)) break;  // warp-uniform, as the walk's own test
      visit(u, du, e, e < end);
    }
  });
}

// Warp-wide: each lane appends take[j] chunks of vertex v[j], j < kEdgeBatch (0: none), with one
// append per warp and list: into the block's own list while they fit (own_count not null: its
// own_cap slots in shared memory, `own(slot, j, c)` writing chunk c of v[j] into one), the rest
// into `list`. The own list is filled without holes and its counter keeps counting past
// own_cap, so a count above own_cap says that something spilled.
template <class Own>
GQ_HD GQ_INLINE void push_batch(uint32_t* own_count, uint32_t own_cap, Own own, const ItemList& list,
                                const uint32_t* v, const uint32_t* take, const gq::ErrorFlag& err) {
  uint32_t total = 0;
  for (uint32_t j = 0; j < kEdgeBatch; ++j) total += take[j];
  if (!gq::ballot(kFullWarp, total != 0u)) return;  // warp-uniform: nobody has anything to add
  uint32_t at = 0, fit = 0;
  if (own_count) {
    at = warp_append(own_count, total, ~0u, err);
    fit = at >= own_cap ? 0u : (total < own_cap - at ? total : own_cap - at);
  }
  uint32_t to = 0;
  if (gq::ballot(kFullWarp, fit < total)) to = warp_append(list.count, total - fit, list.cap, err);
  for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
    for (uint32_t c = 0; c < take[j]; ++c, ++i) {
      if (i < fit) own(at + i, j, c);
      else if (to != list.cap) list.items[to + i - fit] = ((uint64_t)c << 32) | v[j];
    }
}

// Warp-wide: each lane appends v[j] for every j < kEdgeBatch with want[j] to a plain vertex list.
GQ_HD GQ_INLINE void push_vertices(uint32_t* list, uint32_t* counter, uint32_t cap, const uint32_t* v,
                                   const bool* want, const gq::ErrorFlag& err) {
  uint32_t total = 0;
  for (uint32_t j = 0; j < kEdgeBatch; ++j) total += want[j] ? 1u : 0u;
  if (!gq::ballot(kFullWarp, total != 0u)) return;
  const uint32_t at = warp_append(counter, total, cap, err);
  if (at == cap) return;
  for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
    if (want[j]) list[at + i++] = v[j];
}

// Lanes per item and edges per chunk for a graph of this mean out-degree: about 4 edges per lane
// per item, a full warp for dense rows (and one lane on the CPU build).
GQ_HD inline void advance_shape(double mean_degree, uint32_t* lanes, uint32_t* ch) {
  uint32_t l = 1;
  while (l < kWarp && l * 4.0 < mean_degree) l <<= 1;
  *lanes = l;
  *ch = l * 4u;
}

}  // namespace sssp
