// gq/history.cuh — the thread program that records a concurrent history of one queue.
//
// Each thread performs `ops_per_thread` operations on the shared queue and records, per operation,
// (proc, op, arg, ret, call, end) as in Porcupine's FIFO model: op 0 = enqueue(arg) -> ok?,
// op 1 = dequeue() -> value or empty. `call` and `end` are drawn from one global counter with a
// seq_cst fetch-add, so timestamps are unique and the interval of every operation contains its
// linearization point. Enqueued values are unique: tid * ops_per_thread + k + 1.
//
// Mixes:  kMixRandom     each operation is an enqueue with probability 1/2 (seeded hash)
//         kMixSplit      `producer_pct` percent of the threads only enqueue, the others dequeue
//         kMixAlternate  enqueue, dequeue, enqueue, ... per thread
//
// An operation goes through queue_op (queue_op.cuh), its kind decided at run time as the tile
// renderer's are, so for G-LFQ and G-WFQ the histories check the one transfer path the renderer
// runs.
#pragma once
#include "arch.cuh"
#include "queue_op.cuh"

namespace gq {

enum HistoryMix : uint32_t { kMixRandom = 0, kMixSplit = 1, kMixAlternate = 2 };

struct HistoryArgs {
  uint64_t* clock;        // one word, starts at 0
  uint32_t* start_gate;   // host runtime only: threads spin here until all exist
  uint32_t nthreads;
  uint32_t ops_per_thread;
  uint32_t mix;
  uint32_t producer_pct;
  uint64_t seed;
  // Output, one entry per operation, index tid * ops_per_thread + k.
  uint8_t* op;
  uint8_t* ok;
  uint32_t* arg;
  uint32_t* ret;
  uint64_t* call;
  uint64_t* end;
};

GQ_HD GQ_INLINE uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Producers spread evenly over thread ids: thread `tid` produces when the running count of
// producers, pct percent of the threads so far, steps up at it.
GQ_HD GQ_INLINE bool is_producer(uint32_t tid, uint32_t pct) {
  return ((uint64_t)(tid + 1) * pct) / 100u > ((uint64_t)tid * pct) / 100u;
}

GQ_HD GQ_INLINE bool history_is_enqueue(const HistoryArgs& a, uint32_t tid, uint32_t k) {
  switch (a.mix) {
    case kMixSplit: return is_producer(tid, a.producer_pct);
    case kMixAlternate: return (k & 1u) == 0u;
    default: return (splitmix64(a.seed ^ splitmix64(((uint64_t)tid << 32) | k)) >> 63) != 0u;
  }
}

// `q` by value: each thread works on its own copy of the view (G-LFQ and G-WFQ keep per-thread
// readings in it, glfq.cuh, gwfq.cuh), on the host as on the GPU.
template <class Queue>
GQ_HD void history_thread(Queue q, const HistoryArgs& a, uint32_t tid, const ErrorFlag& err) {
  for (uint32_t k = 0; k < a.ops_per_thread; ++k) {
    const uint64_t i = (uint64_t)tid * a.ops_per_thread + k;
    const bool enq = history_is_enqueue(a, tid, k);
    uint32_t value = (uint32_t)(i + 1u);
    const uint64_t call = fetch_add<mo::seq_cst>(a.clock, 1ull);
    const bool ok = queue_op(q, enq, &value, tid, err);  // unqualified: a queue's own overload by ADL
    const uint64_t end = fetch_add<mo::seq_cst>(a.clock, 1ull);
    a.op[i] = enq ? 0u : 1u;
    a.ok[i] = ok ? 1u : 0u;
    a.arg[i] = enq ? value : 0u;
    a.ret[i] = (!enq && ok) ? value : 0u;
    a.call[i] = call;
    a.end[i] = end;
  }
}

}  // namespace gq
