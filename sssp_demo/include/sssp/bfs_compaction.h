// sssp/bfs_compaction.h — the frontier-compaction BFS baseline (Merrill et al., "Scalable GPU
// Graph Traversal", PPoPP 2012; Gunrock's advance + filter): the same level loop and expansion as
// the queue form (bfs_levels.h), but each frontier is a plain array filled by warp-aggregated
// appends (advance.h's push_vertex: one fetch-add per warp) and read by index in the next level.
// So the two differ only in how a frontier is stored: that is the comparison of seed 001 Fig. 6.
#pragma once
#include "bfs_levels.h"

namespace sssp {

// Before it: as bfs_queue_grid's; the two frontier arrays have n entries each.
GQ_HD inline void bfs_compaction_grid(const Grid& grid, const BfsGraph& g, uint32_t source, const BfsState& s,
                                      LevelPair<uint32_t*> frontier) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  if (grid.leader()) {
    frontier.even[0] = source;
    gq::store<gq::mo::relaxed>(ctl + kBfsFrontier0, 1u);
  }
  // Appends go straight in (one fetch-add a warp and batch): nothing is held back to flush.
  struct Emit {
    LevelPair<uint32_t*> frontier;
    uint32_t* ctl;
    uint32_t n;
    const gq::ErrorFlag& err;
    GQ_HD void batch(const uint32_t* v, const bool* fresh, uint32_t level) const {
      push_vertices(frontier[level], ctl + kBfsFrontier0 + level % 3, n, v, fresh, err);
    }
    GQ_HD void flush() const {}
  } emit{frontier, ctl, g.n, err};
  auto drain = [&](uint32_t level, uint32_t count, BfsCounts& c) {
    const uint32_t* cur = frontier[level];
    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;
    const bool look = looks_first(grid, count);
    for_each_warp_uniform(grid, count, [&](uint32_t i, bool live) {
      expand(g, s, live ? cur[i] : 0u, live, level + 1, look, chunk_count, c, err, emit);
    });
  };
  auto check = [](uint32_t) {};
  BfsCounts c;
  CountedSize size{ctl};
  bfs_levels(grid, g, s, size, drain, emit, check, c);
}

}  // namespace sssp
