// kernels/bfs.cu — level-synchronous BFS on the GPU: the queue-driven form (sssp/bfs_queue.h, one
// build per queue kind, GQ_QUEUE_KIND) and the frontier-compaction baseline (sssp/bfs_compaction.h,
// in every build). Each run is ONE persistent kernel launched with no more blocks than are
// resident (sssp_demo/bfs.py asks the occupancy API), its levels separated by the software grid
// barrier of sssp/grid.h. Kernels take plain scalars and pointers so CuPy can launch them.
//
// The two BFS kernels carry __launch_bounds__(256, kBfsMinBlocks): blocks of BLOCK = 256 threads,
// and at least the 2 blocks an SM that sssp_demo/bfs.py asks for on a dense graph, so a thread may
// have 128 registers. With (256) alone ptxas held them to fewer and spilled (sm_90, NVRTC 13.0.88,
// ptxas -v): G-LFQ's bfs_queue 64 registers and 464 B of spill stores, 920 B of spill loads; G-WFQ's
// 128 and 130 / 256 B; SFQ's 64 and 40 / 28 B; compaction 48 and 20 / 20 B. With the bound: G-LFQ
// 118, SFQ 72, YMC 116 and compaction 64 registers with no spills, G-WFQ 128 with 56 / 64 B.
// (256, 1) would let G-WFQ's have 154 and none, but then only one of its blocks fits an SM.
// H200, run 376 (kernel ms, against (256) in the same call): G-LFQ's queue BFS about 7 % faster on
// every graph (road-2M 48.0 -> 44.8, road-24M 194.7 -> 181.2, Kron-21 3.19 -> 2.95 at two blocks
// an SM), SFQ's 1-2.5 % and compaction's 0-3 %; (256, 1) the same but G-WFQ's Kron-21 at two
// blocks an SM, 3.11 -> 3.58 with one block resident. The blocking queue form's (SFQ's) bfs_queue
// has blocks of 288 (kBfsQueueBlock: a waiter warp more) and the bound (288, 2): 80 registers.
#define GQ_ATOMICS_GLOBAL 1  // every atomic here is on global memory (gq/arch.cuh)
#include <sssp/bfs_compaction.h>

constexpr int kBfsMinBlocks = 2;

// A build for no queue kind (GQ_QUEUE_KIND=0, as the compile check of every sssp kernel asks for)
// holds the compaction baseline alone.
#if defined(GQ_QUEUE_KIND) && GQ_QUEUE_KIND > 0
#include <sssp/bfs_queue.h>

extern "C" __global__ void bfs_queue_words(uint64_t capacity, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = gq::Queue::words(capacity, threads);
}

// A blocking queue's form has one warp a block more, which only waits at the grid barrier
// (bfs_queue.h, kBfsWaiterWarp); sssp_demo/bfs.py asks bfs_queue_block for the block it launches.
constexpr int kBfsQueueBlock = 256 + (gq::has_blocking<gq::Queue>::value && sssp::kBfsWaiterWarp ? 32 : 0);

extern "C" __global__ void bfs_queue_block(uint32_t* out) { *out = kBfsQueueBlock; }

extern "C" __global__ void __launch_bounds__(kBfsQueueBlock, kBfsMinBlocks)
    bfs_queue(const int64_t* indptr, const int32_t* indices, uint32_t n, uint32_t source, uint32_t* depth,
              uint32_t* parent, uint64_t* chunks, uint32_t chunk_cap, uint64_t* stats, uint32_t* ctl, uint64_t* q0,
              uint64_t* q1, uint64_t capacity, uint64_t budget_ns, uint32_t* err_words) {
  __shared__ uint32_t verdict[sssp::kBfsBlockWords];
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, verdict, err_words);
  const sssp::BfsState s{depth, parent, chunks, chunk_cap, stats, budget_ns};
  sssp::bfs_queue_grid(grid, sssp::BfsGraph{indptr, indices, n}, source, s, sssp::BfsQueues{{q0, q1}, capacity});
}
#endif  // GQ_QUEUE_KIND > 0

// Everything a run needs before its kernel, in one launch (sssp_demo/bfs.py): depth kUnvisited
// but the source's 0, parent kUnvisited, the stat and control words zero and, in a queue build,
// both queues initialised (`words` each; 0 in the compaction form's). Five fills and two queue
// initialisations before, seven launches: 0.07 ms of SFQ's 1.41 ms Kron-21 run (H200, run 299).
extern "C" __global__ void bfs_reset(uint32_t* depth, uint32_t* parent, uint32_t n, uint32_t source, uint64_t* stats,
                                     uint32_t stat_words, uint32_t* ctl, uint32_t ctl_words, uint64_t* q0,
                                     uint64_t* q1, uint64_t words, uint64_t capacity, uint64_t threads) {
  const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
  const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (uint64_t i = first; i < n; i += step) {
    depth[i] = i == source ? 0u : sssp::kUnvisited;
    parent[i] = sssp::kUnvisited;
  }
#if defined(GQ_QUEUE_KIND) && GQ_QUEUE_KIND > 0
  for (uint64_t i = first; i < words; i += step) {
    q0[i] = gq::Queue::initial_word(i, capacity, threads);
    q1[i] = gq::Queue::initial_word(i, capacity, threads);
  }
#else
  (void)q0, (void)q1, (void)words, (void)capacity, (void)threads;
#endif
  for (uint64_t i = first; i < stat_words; i += step) stats[i] = 0;
  for (uint64_t i = first; i < ctl_words; i += step) ctl[i] = 0;
}

extern "C" __global__ void __launch_bounds__(256, kBfsMinBlocks)
    bfs_compaction(const int64_t* indptr, const int32_t* indices, uint32_t n, uint32_t source, uint32_t* depth,
                   uint32_t* parent, uint64_t* chunks, uint32_t chunk_cap, uint64_t* stats, uint32_t* ctl,
                   uint32_t* f0, uint32_t* f1, uint64_t budget_ns, uint32_t* err_words) {
  __shared__ uint32_t verdict[sssp::kBfsBlockWords];
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, verdict, err_words);
  const sssp::BfsState s{depth, parent, chunks, chunk_cap, stats, budget_ns};
  sssp::bfs_compaction_grid(grid, sssp::BfsGraph{indptr, indices, n}, source, s, sssp::LevelPair<uint32_t*>{f0, f1});
}
