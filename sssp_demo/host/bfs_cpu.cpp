// host/bfs_cpu.cpp — the CPU build of the level-synchronous BFS grid forms (include/sssp/bfs_*.h),
// a C ABI for ctypes; one library per queue kind (GQ_QUEUE_KIND), as the GPU module. The grid is
// `threads` std::threads, each a one-thread block (a warp is one lane wide here, arch.cuh),
// meeting at the same software grid barrier, so CI runs the GPU's level loop, queue operations,
// claims and barrier with real concurrency. Returns 0 or the error code of the flag.
#include <sssp/bfs_compaction.h>
#include <sssp/bfs_queue.h>
#include <sssp/host_grid.h>

#include <vector>

namespace {

void reset(uint32_t n, uint32_t source, uint32_t* depth, uint32_t* parent, uint64_t* stats) {
  for (uint32_t v = 0; v < n; ++v) depth[v] = parent[v] = sssp::kUnvisited;
  depth[source] = 0;
  stats[0] = stats[1] = stats[2] = 0;
}

uint32_t chunk_cap(const int64_t* indptr, uint32_t n) {
  return (uint32_t)(2 * indptr[n] / sssp::kChunk + 1);  // a hub (> kChunk edges) has <= 2 deg / kChunk chunks
}

}  // namespace

extern "C" {

uint64_t bfs_queue_words(uint64_t capacity, uint64_t threads) { return gq::Queue::words(capacity, threads); }

uint32_t bfs_cpu_queue(const int64_t* indptr, const int32_t* indices, uint32_t n, uint32_t source, uint32_t threads,
                       uint64_t capacity, uint32_t* depth, uint32_t* parent, uint64_t* stats, uint32_t* err_words) {
  reset(n, source, depth, parent, stats);
  const uint64_t words = gq::Queue::words(capacity, threads);
  std::vector<uint64_t> q0(words), q1(words);
  for (uint64_t i = 0; i < words; ++i) q0[i] = q1[i] = gq::Queue::initial_word(i, capacity, threads);
  const uint32_t cap = chunk_cap(indptr, n);
  std::vector<uint64_t> chunks(cap);
  std::vector<uint32_t> ctl(sssp::kBfsWords, 0);
  const sssp::BfsState s{depth, parent, chunks.data(), cap, stats, 0};
  const sssp::BfsQueues bq{{q0.data(), q1.data()}, capacity};
  sssp::run_host_grid<sssp::kBfsBlockWords>(threads, ctl.data(), err_words, [&](const sssp::Grid& grid) {
    sssp::bfs_queue_grid(grid, sssp::BfsGraph{indptr, indices, n}, source, s, bq);
  });
  return gq::load<gq::mo::acquire>(err_words);
}

uint32_t bfs_cpu_compaction(const int64_t* indptr, const int32_t* indices, uint32_t n, uint32_t source,
                            uint32_t threads, uint32_t* depth, uint32_t* parent, uint64_t* stats, uint32_t* err_words) {
  reset(n, source, depth, parent, stats);
  std::vector<uint32_t> f0(n), f1(n);
  const uint32_t cap = chunk_cap(indptr, n);
  std::vector<uint64_t> chunks(cap);
  std::vector<uint32_t> ctl(sssp::kBfsWords, 0);
  const sssp::BfsState s{depth, parent, chunks.data(), cap, stats, 0};
  const sssp::LevelPair<uint32_t*> frontier{f0.data(), f1.data()};
  sssp::run_host_grid<sssp::kBfsBlockWords>(threads, ctl.data(), err_words, [&](const sssp::Grid& grid) {
    sssp::bfs_compaction_grid(grid, sssp::BfsGraph{indptr, indices, n}, source, s, frontier);
  });
  return gq::load<gq::mo::acquire>(err_words);
}

}  // extern "C"
