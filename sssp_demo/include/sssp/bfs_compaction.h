// sssp/bfs_compaction.h — the frontier-compaction BFS baseline (Merrill et al., "Scalable GPU
// Graph Traversal", PPoPP 2012; Gunrock's advance + filter): the same level loop and expansion as
// the queue form (bfs_levels.h), but each frontier is a plain array filled by warp-aggregated
// appends (one fetch-add per warp) and read by index in the next level.
// So the two differ only in how a frontier is stored: that is the comparison of seed 001 Fig. 6.
//
// A frontier entry carries its vertex's row as well as the vertex (FrontierRow): the appending
// lane reads indptr while its warp's fetch-add is in flight, and the next level starts from the
// row's edges instead of a read of indptr, one round trip fewer in a level's chain (a road graph
// is a chain of 8,836 levels). The first entry a thread takes is read before the level's size,
// both in flight together; an entry past the size is stale and never used.
#pragma once
#include "bfs_levels.h"

namespace sssp {

struct alignas(16) FrontierRow {
  int64_t begin;     // indptr[v]
  uint64_t vertex;   // v | (out-degree << 32)
};

GQ_HD GQ_INLINE FrontierRow frontier_row(const BfsGraph& g, uint32_t v) {
  const int64_t b = g.indptr[v], e = g.indptr[v + 1];
  return FrontierRow{b, (uint64_t)v | ((uint64_t)(e - b) << 32)};
}

// Warp-wide: each lane appends the rows of v[j] for every j < kEdgeBatch with want[j] to `list`.
GQ_HD GQ_INLINE void push_rows(const BfsGraph& g, FrontierRow* list, uint32_t* counter, uint32_t cap,
                               const uint32_t* v, const bool* want, const gq::ErrorFlag& err) {
  uint32_t total = 0;
  for (uint32_t j = 0; j < kEdgeBatch; ++j) total += want[j] ? 1u : 0u;
  if (!gq::ballot(kFullWarp, total != 0u)) return;
  FrontierRow row[kEdgeBatch];
  for (uint32_t j = 0; j < kEdgeBatch; ++j) row[j] = want[j] ? frontier_row(g, v[j]) : FrontierRow{0, 0};
  const uint32_t at = warp_append(counter, total, cap, err);
  if (at == cap) return;
  for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
    if (want[j]) list[at + i++] = row[j];
}

// Before it: as bfs_queue_grid's; `frontier[2]` have n entries each.
GQ_HD inline void bfs_compaction_grid(const Grid& grid, const BfsGraph& g, uint32_t source, const BfsState& s,
                                      FrontierRow* const frontier[2]) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  if (grid.leader()) {
    frontier[0][0] = frontier_row(g, source);
    gq::store<gq::mo::relaxed>(ctl + kBfsFrontier0, 1u);
  }
  // Appends go straight in (one fetch-add a warp and batch): nothing is held back to flush.
  struct Emit {
    const BfsGraph& g;
    FrontierRow* const* frontier;
    uint32_t* ctl;
    const gq::ErrorFlag& err;
    GQ_HD void batch(const uint32_t* v, const bool* fresh, uint32_t level) const {
      push_rows(g, frontier[level & 1], ctl + kBfsFrontier0 + level % 3, g.n, v, fresh, err);
    }
    GQ_HD void flush() const {}
  } emit{g, frontier, ctl, err};
  const uint32_t mine = grid.rank() < g.n ? grid.rank() : 0u;  // the first entry a thread may take
  auto drain = [&](uint32_t level, BfsCounts& c) {
    const FrontierRow* cur = frontier[level & 1];
    const FrontierRow first = cur[mine];
    const uint32_t count = gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3);
    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;
    const bool look = looks_first(grid, count);
    for_each_warp_uniform(grid, count, [&](uint32_t i, bool live) {
      const FrontierRow r = !live ? FrontierRow{0, 0} : i == grid.rank() ? first : cur[i];
      expand_row(g, s, (uint32_t)r.vertex, r.begin, r.begin + (int64_t)(r.vertex >> 32), live, level + 1, look,
                 chunk_count, c, err, emit);
    });
  };
  auto check = [](uint32_t) {};
  BfsCounts c;
  bfs_levels(grid, g, s, drain, emit, check, c);
}

}  // namespace sssp
