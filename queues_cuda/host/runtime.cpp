// host/runtime.cpp — the CPU runtime: the same queue headers and thread programs as the GPU
// build, run by real OS threads (one std::thread per "GPU thread", a warp one lane wide).
// Oversubscribing the cores (64 threads or more on 2) makes the operating system preempt threads
// in the middle of operations, so the interleavings the checkers see are real ones.
//
// A small C ABI for ctypes; every entry returns 0 or the error code the spin budgets raised.
#include <gq/queue_select.cuh>
#include <gq/queue_fill.cuh>
#include <gq/history.cuh>
#include <gq/fifo_tokens.cuh>
#include <gq/multi_queue.cuh>
#include <gq/queue_stats.cuh>

#include <gq/host_threads.h>

using gq::Queue;

using gq::run_host_threads;

extern "C" {

int gq_abi_version() { return 1; }

uint64_t gq_queue_words(uint64_t n, uint64_t threads) { return Queue::words(n, threads); }

void gq_queue_init(uint64_t* base, uint64_t n, uint64_t threads) {
  const uint64_t words = Queue::words(n, threads);
  for (uint64_t i = 0; i < words; ++i) base[i] = Queue::initial_word(i, n, threads);
}

// A queue built holding items[0 .. k) (gq/queue_fill.cuh), or built empty where the kind cannot
// be built filled; returns whether it could (-1, nothing written: more items than room). With the
// two entries below, what tests/queues_cuda/test_queue_fill.py holds the filled state against.
int gq_queue_fill(uint64_t* base, uint64_t n, uint64_t threads, uint64_t k, const uint32_t* items) {
  if (k > n) return -1;
  const uint64_t words = Queue::words(n, threads);
  auto item = [&](uint64_t j) { return items[j]; };
  for (uint64_t i = 0; i < words; ++i) base[i] = gq::queue_filled_word<Queue>(i, n, threads, k, item);
  return gq::queue_can_fill<Queue> ? 1 : 0;
}

// Whether word i is one a filled build leaves as a fresh queue has it (Glfq::fill_skips).
int gq_queue_fill_skips(uint64_t n, uint64_t threads, uint64_t i) {
  return gq::queue_fill_skips<Queue>(i, n, threads) ? 1 : 0;
}

// One thread (queue user 0) makes ops[j] in order: 1 enqueues values[j], 0 dequeues into values[j];
// ok[j] = whether it succeeded. Returns the error flag's code.
uint32_t gq_queue_sequential(uint64_t* base, uint64_t n, uint64_t threads, uint64_t count, const uint8_t* ops,
                             uint32_t* values, uint8_t* ok, uint32_t* err_words) {
  const Queue q = Queue::view(base, n, threads);
  const gq::ErrorFlag err{err_words};
  for (uint64_t j = 0; j < count && !err.raised(); ++j)
    ok[j] = ops[j] ? q.try_enqueue(values[j], 0, err) : q.try_dequeue(values + j, 0, err);
  return gq::load<gq::mo::acquire>(err_words);
}

// The queue's slow-path counters (queue_stats.cuh), over all threads into out[5]; zeros for a
// queue kind that keeps none or a build without GQ_QUEUE_STATS.
void gq_queue_stats(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
  gq::queue_stats_sum<Queue>(base, n, threads, out);
}

uint32_t gq_history(uint64_t* base, uint64_t n, uint64_t* clock, uint32_t nthreads, uint32_t ops_per_thread,
                    uint32_t mix, uint32_t producer_pct, uint64_t seed, uint8_t* op, uint8_t* ok,
                    uint32_t* arg, uint32_t* ret, uint64_t* call, uint64_t* end, uint32_t* err_words) {
  const Queue q = Queue::view(base, n, nthreads);
  const gq::HistoryArgs a{clock, nullptr, nthreads, ops_per_thread, mix, producer_pct, seed, op, ok, arg, ret, call, end};
  return run_host_threads(nthreads, err_words, [&](uint32_t tid, const gq::ErrorFlag& err) { gq::history_thread(q, a, tid, err); });
}

uint32_t gq_fifo(uint64_t* base, uint64_t n, uint32_t roles, uint32_t producers, uint32_t nthreads,
                 uint32_t blocking, uint64_t per_producer, uint64_t total, uint64_t* pool,
                 uint64_t* out_count, uint64_t* out_token, uint32_t* out_consumer, uint32_t* err_words) {
  const Queue q = Queue::view(base, n, nthreads);
  const gq::FifoArgs a{roles, producers, nthreads, blocking, per_producer, total, pool, out_count, out_token, out_consumer};
  return run_host_threads(nthreads, err_words, [&](uint32_t tid, const gq::ErrorFlag& err) { gq::fifo_thread(q, a, tid, err); });
}

uint32_t gq_multi_queue(uint64_t* base, uint64_t stride, uint64_t capacity, uint32_t queues, uint32_t nthreads,
                        uint32_t rounds, uint32_t* seen, uint32_t* err_words) {
  const gq::MultiQueueArgs a{base, stride, capacity, queues, nthreads, rounds, seen};
  return run_host_threads(nthreads, err_words,
                     [&](uint32_t tid, const gq::ErrorFlag& err) { gq::multi_queue_thread<Queue>(a, tid, err); });
}

}  // extern "C"
