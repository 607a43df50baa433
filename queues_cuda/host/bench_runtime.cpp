// host/bench_runtime.cpp — the queue micro-benchmarks (include/gq/queue_bench.cuh) on the CPU:
// the GPU build's thread program on real OS threads, one std::thread per GPU thread. Built without
// runtime.cpp's preemption points (GQ_HOST_CHAOS): it measures, it does not hunt interleavings.
// GQ_QUEUE_KIND 0 is the ideal ring, as in kernels/queue_bench.cu. A C ABI for ctypes.
#if GQ_QUEUE_KIND == 0
#include <gq/ideal_ring.cuh>
namespace gq { using Queue = IdealRing; }
#else
#include <gq/queue_select.cuh>
#endif
#include <gq/queue_bench.cuh>
#include <gq/queue_stats.cuh>

#include <gq/host_threads.h>

using gq::Queue;

using gq::run_host_threads;

extern "C" {

int gq_bench_abi_version() { return 1; }

uint64_t gq_bench_words(uint64_t n, uint64_t threads) { return Queue::words(n, threads); }

void gq_bench_init(uint64_t* base, uint64_t n, uint64_t threads) {
  const uint64_t words = Queue::words(n, threads);
  for (uint64_t i = 0; i < words; ++i) base[i] = Queue::initial_word(i, n, threads);
}

uint32_t gq_bench(uint64_t* base, uint64_t n, uint64_t* counts, uint32_t kernel, uint32_t nthreads,
                  uint32_t producer_pct, uint64_t warmup_ns, uint64_t window_ns, uint32_t* err_words) {
  const Queue q = Queue::view(base, n, nthreads);
  const gq::BenchArgs a{counts, kernel, nthreads, producer_pct, warmup_ns, window_ns};
  return run_host_threads(nthreads, err_words, [&](uint32_t tid, const gq::ErrorFlag& err) { gq::bench_thread(q, a, tid, err); });
}

// One drainer: the queue is quiescent after gq_bench.
uint32_t gq_bench_drain(uint64_t* base, uint64_t n, uint32_t nthreads, uint64_t most, uint64_t* drained,
                        uint32_t* err_words) {
  gq::bench_drain_thread(Queue::view(base, n, nthreads), 0, most, drained, gq::ErrorFlag{err_words});
  return gq::load<gq::mo::acquire>(err_words);
}

// Every counter of queue_stats.cuh into out[8] (zeros without GQ_QUEUE_STATS).
void gq_bench_stats(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
  gq::queue_stats_all<Queue>(base, n, threads, out);
}

// The host's producer count for a split run (the kernel seeds kBenchProducersLeft with it).
uint32_t gq_bench_producers(uint32_t nthreads, uint32_t producer_pct) {
  uint32_t p = 0;
  for (uint32_t t = 0; t < nthreads; ++t) p += gq::bench_is_producer(t, producer_pct);
  return p;
}

}  // extern "C"
