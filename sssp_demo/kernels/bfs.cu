// kernels/bfs.cu — level-synchronous BFS on the GPU: the queue-driven form (sssp/bfs_queue.h, one
// build per queue kind, GQ_QUEUE_KIND) and the frontier-compaction baseline (sssp/bfs_compaction.h,
// in every build). A run is one persistent kernel launched with no more blocks than are resident
// (sssp_demo/bfs.py asks the occupancy API), its levels separated by the software grid barrier of
// sssp/grid.h; by default it is preceded by the same form on ONE thread-block cluster (the
// `_cluster` kernels: kClusterBlocks blocks meeting at the cluster's hardware barrier), which takes the levels up to the first frontier larger than `handoff` vertices and
// leaves the rest to the grid launch (sssp/bfs_levels.h). Kernels take plain scalars and pointers
// so CuPy can launch them.
#include <sssp/bfs_compaction.h>

constexpr uint32_t kClusterBlocks = 8;  // the portable cluster size: no launch attribute needed

#define BFS_GRAPH_PARAMS                                                                                         \
  const int64_t *indptr, const int32_t *indices, uint32_t n, uint32_t source, uint32_t *depth, uint32_t *parent, \
      uint64_t *chunks, uint32_t chunk_cap, uint64_t *stats, uint32_t *ctl
#define BFS_GRID(cluster) \
  sssp::Grid { blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, gq::ErrorFlag{err_words}, cluster }

// A build for no queue kind (GQ_QUEUE_KIND=0, as the compile check of every sssp kernel asks for)
// holds the compaction baseline alone.
#if defined(GQ_QUEUE_KIND) && GQ_QUEUE_KIND > 0
#include <sssp/bfs_queue.h>

extern "C" __global__ void bfs_queue_words(uint64_t capacity, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = gq::Queue::words(capacity, threads);
}

extern "C" __global__ void bfs_queue_init(uint64_t* base, uint64_t words, uint64_t capacity, uint64_t threads) {
  const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += step)
    base[i] = gq::Queue::initial_word(i, capacity, threads);
}

// `threads`: what the queues were laid out for (the grid launch's threads, also in the cluster's).
#define BFS_QUEUE_PARAMS \
  BFS_GRAPH_PARAMS, uint64_t *q0, uint64_t *q1, uint64_t capacity, uint64_t threads, uint64_t budget_ns, \
      uint32_t handoff, uint32_t *err_words
#define BFS_QUEUE_RUN(cluster)                                                                            \
  __shared__ uint32_t verdict;                                                                            \
  const sssp::BfsState s{depth, parent, chunks, chunk_cap, stats, budget_ns, handoff};                    \
  sssp::bfs_queue_grid(BFS_GRID(cluster), sssp::BfsGraph{indptr, indices, n}, source, s,                  \
                       sssp::BfsQueues{{q0, q1}, capacity, threads})

// Cluster blocks of 512: the queue operations take 128 registers a thread (1024 spilled them).
extern "C" __global__ void __launch_bounds__(256) bfs_queue(BFS_QUEUE_PARAMS) { BFS_QUEUE_RUN(false); }
extern "C" __global__ void __cluster_dims__(kClusterBlocks, 1, 1) __launch_bounds__(512)
    bfs_queue_cluster(BFS_QUEUE_PARAMS) {
  BFS_QUEUE_RUN(true);
}
#endif  // GQ_QUEUE_KIND > 0

#define BFS_COMPACTION_PARAMS \
  BFS_GRAPH_PARAMS, uint32_t *f0, uint32_t *f1, uint64_t budget_ns, uint32_t handoff, uint32_t *err_words
#define BFS_COMPACTION_RUN(cluster)                                                                       \
  __shared__ uint32_t verdict;                                                                            \
  const sssp::BfsState s{depth, parent, chunks, chunk_cap, stats, budget_ns, handoff};                    \
  uint32_t* const frontier[2] = {f0, f1};                                                                 \
  sssp::bfs_compaction_grid(BFS_GRID(cluster), sssp::BfsGraph{indptr, indices, n}, source, s, frontier)

// Cluster blocks of 1024 (50 registers a thread).
extern "C" __global__ void __launch_bounds__(256) bfs_compaction(BFS_COMPACTION_PARAMS) { BFS_COMPACTION_RUN(false); }
extern "C" __global__ void __cluster_dims__(kClusterBlocks, 1, 1) __launch_bounds__(1024)
    bfs_compaction_cluster(BFS_COMPACTION_PARAMS) {
  BFS_COMPACTION_RUN(true);
}
