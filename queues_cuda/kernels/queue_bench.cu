// kernels/queue_bench.cu — GPU entry points of the fixed-duration queue micro-benchmarks
// (include/gq/queue_bench.cuh holds the thread program; host/bench_runtime.cpp runs the same one
// on the CPU). GQ_QUEUE_KIND 0 is the unsafe ideal ring (ideal_ring.cuh), the ceiling; the other
// ids are the queues of queue_select.cuh.
//
// GQ_BENCH_MIN_BLOCKS asks the compiler (launch bounds) to fit that many 256-thread blocks on one
// SM: the launcher raises it when a thread count would not otherwise be resident at once.
#define GQ_ATOMICS_GLOBAL 1  // every atomic here is on global memory (gq/arch.cuh)
#if GQ_QUEUE_KIND == 0
#include <gq/ideal_ring.cuh>
namespace gq { using Queue = IdealRing; }
#else
#include <gq/queue_select.cuh>
#endif
#include <gq/queue_bench.cuh>
#include <gq/queue_stats.cuh>

#ifndef GQ_BENCH_MIN_BLOCKS
#define GQ_BENCH_MIN_BLOCKS 1
#endif

using gq::Queue;

extern "C" __global__ void gq_bench_words(uint64_t n, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = Queue::words(n, threads);
}

extern "C" __global__ void gq_bench_init(uint64_t* base, uint64_t n, uint64_t threads, uint64_t words) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
    base[i] = Queue::initial_word(i, n, threads);
}

extern "C" __global__ void __launch_bounds__(256, GQ_BENCH_MIN_BLOCKS)
gq_bench(uint64_t* base, uint64_t n, uint64_t* counts, uint32_t kernel, uint32_t nthreads, uint32_t producer_pct,
         uint64_t warmup_ns, uint64_t window_ns, uint32_t* err_words) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= nthreads) return;
  const gq::BenchArgs a{counts, kernel, nthreads, producer_pct, warmup_ns, window_ns};
  gq::bench_thread(Queue::view(base, n, nthreads), a, tid, gq::ErrorFlag{err_words});
}

// `drainers` threads (tids below the view's thread count) empty the queue into *drained
// (about `most` at most: each drainer stops once the shared count reaches it).
extern "C" __global__ void gq_bench_drain(uint64_t* base, uint64_t n, uint32_t nthreads, uint32_t drainers,
                                          uint64_t most, uint64_t* drained, uint32_t* err_words) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= drainers) return;
  gq::bench_drain_thread(Queue::view(base, n, nthreads), tid, most, drained, gq::ErrorFlag{err_words});
}

// Every counter of queue_stats.cuh into out[8] (zeros without GQ_QUEUE_STATS).
extern "C" __global__ void gq_bench_stats(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) gq::queue_stats_all<Queue>(base, n, threads, out);
}
