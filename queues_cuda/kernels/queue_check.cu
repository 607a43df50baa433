// kernels/queue_check.cu — GPU entry points of the queue checks: lay out and initialise a queue,
// record a history, run the FIFO token conformance. The thread programs themselves live in the
// headers (history.cuh, fifo_tokens.cuh) and run unchanged on the CPU runtime (host/runtime.cpp).
// Kernels take plain scalars and pointers so that CuPy can launch them without struct marshalling.
#define GQ_ATOMICS_GLOBAL 1  // every atomic here is on global memory (gq/arch.cuh)
#include <gq/queue_select.cuh>
#include <gq/history.cuh>
#include <gq/fifo_tokens.cuh>
#include <gq/multi_queue.cuh>
#include <gq/queue_stats.cuh>

using gq::Queue;

extern "C" __global__ void gq_queue_words(uint64_t n, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = Queue::words(n, threads);
}

extern "C" __global__ void gq_queue_init(uint64_t* base, uint64_t n, uint64_t threads, uint64_t words) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
    base[i] = Queue::initial_word(i, n, threads);
}

// The queue's slow-path counters into out[5] (one thread; run after the kernel that used it).
extern "C" __global__ void gq_queue_stats(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) gq::queue_stats_sum<Queue>(base, n, threads, out);
}

extern "C" __global__ void gq_history(uint64_t* base, uint64_t n, uint64_t* clock, uint32_t nthreads,
                                      uint32_t ops_per_thread, uint32_t mix, uint32_t producer_pct,
                                      uint64_t seed, uint8_t* op, uint8_t* ok, uint32_t* arg,
                                      uint32_t* ret, uint64_t* call, uint64_t* end, uint32_t* err_words) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= nthreads) return;
  const gq::HistoryArgs a{clock, nullptr, nthreads, ops_per_thread, mix, producer_pct, seed, op, ok, arg, ret, call, end};
  gq::history_thread(Queue::view(base, n, nthreads), a, tid, gq::ErrorFlag{err_words});
}

extern "C" __global__ void gq_fifo(uint64_t* base, uint64_t n, uint32_t roles, uint32_t producers,
                                   uint32_t nthreads, uint32_t blocking, uint64_t per_producer,
                                   uint64_t total, uint64_t* pool, uint64_t* out_count,
                                   uint64_t* out_token, uint32_t* out_consumer, uint32_t* err_words) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= nthreads) return;
  const gq::FifoArgs a{roles, producers, nthreads, blocking, per_producer, total, pool, out_count, out_token, out_consumer};
  gq::fifo_thread(Queue::view(base, n, nthreads), a, tid, gq::ErrorFlag{err_words});
}

extern "C" __global__ void gq_multi_queue(uint64_t* base, uint64_t stride, uint64_t capacity, uint32_t queues,
                                          uint32_t nthreads, uint32_t rounds, uint32_t* seen, uint32_t* err_words) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= nthreads) return;
  const gq::MultiQueueArgs a{base, stride, capacity, queues, nthreads, rounds, seen};
  gq::multi_queue_thread<Queue>(a, tid, gq::ErrorFlag{err_words});
}
