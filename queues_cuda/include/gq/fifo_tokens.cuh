// gq/fifo_tokens.cuh — the thread program of the FIFO conformance run (seed 001 Sec. IV.b).
//
// Producer p emits tokens tok = (p << 32) | (seq + 1), seq = 0 .. per_producer-1. A token travels
// through the queue as its 32-bit index p * per_producer + seq into a token pool (the payload
// indirection of DESIGN.md); the consumer reads the token back from the pool and appends
// (consumer, token) to one log at a position drawn from a shared counter, so each consumer's
// entries appear in the order it dequeued them. The host then checks exactly-once delivery, token
// range and per-producer order per consumer (fifo_conformance.py).
//
// Roles: kFifoSplit      threads [0, producers) produce, the others consume until all arrived;
//        kFifoBalanced   every thread enqueues its next token, then dequeues one, per_producer times.
// With `blocking` set and a queue that has a blocking interface (SFQ), it is used (in the split
// run the odd producers enqueue several tokens a call, enqueue_batch); otherwise FULL and EMPTY
// answers are retried with backoff under the spin budget.
#pragma once
#include "arch.cuh"
#include "blocking.cuh"
#include "queue_op.cuh"

namespace gq {

enum FifoRoles : uint32_t { kFifoSplit = 0, kFifoBalanced = 1 };

// Places of a producer's enqueue_batch call (blocking queues, split run).
constexpr uint32_t kFifoBatch = 4;

struct FifoArgs {
  uint32_t roles;
  uint32_t producers;     // split: number of producer threads; balanced: every thread
  uint32_t nthreads;
  uint32_t blocking;
  uint64_t per_producer;  // tokens per producer
  uint64_t total;         // producers * per_producer
  uint64_t* pool;         // token pool, total entries
  uint64_t* out_count;    // one word: how many tokens were logged
  uint64_t* out_token;    // total entries
  uint32_t* out_consumer; // total entries
};

// On the GPU a token may wait behind tens of thousands of threads for one of few slots: there the
// harness's own waits get 16 times the queues' budget (a stall still ends in the error flag,
// seconds later). On the CPU every wait step already yields the core.
#if GQ_DEVICE_BUILD
constexpr uint32_t kFifoSpinBudget = GQ_SPIN_BUDGET * 16u;
#else
constexpr uint32_t kFifoSpinBudget = GQ_SPIN_BUDGET;
#endif

template <class Queue>
GQ_HD bool fifo_put(const Queue& q, const FifoArgs& a, uint32_t v, uint32_t tid, const ErrorFlag& err) {
  if constexpr (has_blocking<Queue>::value) {
    if (a.blocking) return q.enqueue(v, tid, err);
  }
  Spin spin(kFifoSpinBudget);
  while (!q.try_enqueue(v, tid, err))
    if (!spin.step(err, kSiteFifoProducer, v)) return false;
  return true;
}

template <class Queue>
GQ_HD bool fifo_get(const Queue& q, const FifoArgs& a, uint32_t* v, uint32_t tid, const ErrorFlag& err, bool until_done) {
  if constexpr (has_blocking<Queue>::value) {
    if (a.blocking && !until_done) return q.dequeue(v, tid, err);
  }
  Spin spin(kFifoSpinBudget);
  while (!q.try_dequeue(v, tid, err)) {
    if (until_done && load<mo::acquire>(a.out_count) >= a.total) return false;
    if (!spin.step(err, kSiteFifoConsumer, tid)) return false;
  }
  return true;
}

GQ_HD GQ_INLINE void fifo_log(const FifoArgs& a, uint32_t index, uint32_t tid) {
  const uint64_t pos = fetch_add<mo::relaxed>(a.out_count, 1ull);
  if (pos < a.total) {
    a.out_token[pos] = a.pool[index];
    a.out_consumer[pos] = tid;
  }
}

// `q` by value: each thread works on its own copy of the view (G-LFQ and G-WFQ keep per-thread
// readings in it, glfq.cuh, gwfq.cuh), on the host as on the GPU.
template <class Queue>
GQ_HD void fifo_thread(Queue q, const FifoArgs& a, uint32_t tid, const ErrorFlag& err) {
  const bool producer = a.roles == kFifoBalanced || tid < a.producers;
  const bool consumer = a.roles == kFifoBalanced || tid >= a.producers;
  const uint64_t first = (uint64_t)tid * a.per_producer;
  if (a.roles == kFifoBalanced) {
    if (has_blocking<Queue>::value && a.blocking) {
      for (uint64_t s = 0; s < a.per_producer && !err.raised(); ++s) {
        a.pool[first + s] = ((uint64_t)tid << 32) | (s + 1u);
        if (!fifo_put(q, a, (uint32_t)(first + s), tid, err)) return;
        uint32_t got;
        if (!fifo_get(q, a, &got, tid, err, false)) return;
        fifo_log(a, got, tid);
      }
      return;
    }
    // The non-waiting operations from one call site, the direction decided at run time
    // (queue_op.cuh): lanes fall out of step on FULL and EMPTY answers, so a warp's enqueuers and
    // dequeuers meet in the same instructions, as in the tile renderer's queue phase, and the long
    // runs check that path (G-LFQ's and G-WFQ's one transfer path) as the histories do.
    Spin spin(kFifoSpinBudget);
    bool put = true;
    for (uint64_t s = 0; s < a.per_producer && !err.raised();) {
      if (put) a.pool[first + s] = ((uint64_t)tid << 32) | (s + 1u);
      uint32_t v = put ? (uint32_t)(first + s) : 0u;
      if (queue_op(q, put, &v, tid, err)) {  // unqualified: a queue's own overload by ADL
        if (!put) {
          fifo_log(a, v, tid);
          ++s;
        }
        put = !put;
        spin = Spin(kFifoSpinBudget);
      } else if (!spin.step(err, put ? kSiteFifoProducer : kSiteFifoConsumer, put ? v : tid)) {
        return;
      }
    }
    return;
  }
  if (producer) {
    if constexpr (has_blocking<Queue>::value) {
      if (a.blocking && tid % 2u == 1u) {
        // Odd producers of a blocking queue enqueue several tokens a call (enqueue_batch): the
        // next tokens in order into some of the kFifoBatch places, which ones changing from call
        // to call (never none), so batches of 1 to kFifoBatch tokens with holes between them.
        for (uint64_t s = 0; s < a.per_producer && !err.raised();) {
          const uint32_t places = (uint32_t)((tid / 2u + s) % ((1u << kFifoBatch) - 1u)) + 1u;
          uint32_t v[kFifoBatch];
          bool use[kFifoBatch];
          for (uint32_t j = 0; j < kFifoBatch; ++j) {
            use[j] = ((places >> j) & 1u) != 0u && s < a.per_producer;
            v[j] = 0u;
            if (use[j]) {
              a.pool[first + s] = ((uint64_t)tid << 32) | (s + 1u);
              v[j] = (uint32_t)(first + s);
              ++s;
            }
          }
          if (!q.template enqueue_batch<kFifoBatch>(v, use, err)) return;
        }
        return;
      }
    }
    for (uint64_t s = 0; s < a.per_producer && !err.raised(); ++s) {
      a.pool[first + s] = ((uint64_t)tid << 32) | (s + 1u);
      if (!fifo_put(q, a, (uint32_t)(first + s), tid, err)) return;
    }
  } else if (consumer) {
    // Blocking consumers would need to know how many tokens are theirs; in the split run they
    // use the non-waiting interface and stop once every token has arrived somewhere.
    uint32_t got;
    while (!err.raised() && fifo_get(q, a, &got, tid, err, true)) fifo_log(a, got, tid);
  }
}

}  // namespace gq
