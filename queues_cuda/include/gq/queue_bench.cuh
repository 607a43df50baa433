// gq/queue_bench.cuh — the fixed-duration queue micro-benchmarks of seed 001 Sec. V-A (Fig. 4):
//
//   balanced  every thread repeats one enqueue followed by one dequeue;
//   split     `producer_pct` percent of the threads only enqueue, the others only dequeue
//             (25 / 50 / 75 %: the seed's near-empty, nominal and near-full regimes).
//
// Time is a device clock shared by all threads (clock_ns, arch.cuh). The first thread to start
// fixes t0 in the counters; every thread then runs until its clock passes t0 + warm-up + window.
// An operation counts when it completes inside [t0 + warm-up, t0 + warm-up + window): successful
// enqueues and dequeues (the seed's throughput numerator), failed (FULL) enqueues and EMPTY
// dequeues apart. Counts live in registers and are added to the shared words once, when the
// thread leaves; the loop itself touches no shared counter, and reads the error flag only after a
// failed operation (a queue that gives up answers false).
//
// Split runs end in order: producers stop at the deadline; consumers keep dequeuing (uncounted)
// until every producer has left. An enqueue of G-WFQ-YMC can be waiting for consumers to free pool
// cells (ymc.cuh); were the consumers gone, it would wait out its spin budget. That drain wait is
// bounded too (kSiteBenchDrain).
//
// Polite polling (GQ_BENCH_POLL_BACKOFF_NS, a cap in nanoseconds; 0, the default, leaves the
// kernels exactly as the seed's). The seed's split kernel polls back to back: a consumer answered
// EMPTY asks again at once, and so does a producer answered FULL. With most threads on the side
// that fails, those retries (looks_empty's loads of Head, Tail and Threshold, FULL's confirmation
// sweeps) land on the ring's hottest lines, where they might slow the other side's fetch-adds (on
// the H200 they did not: with a 1,024 ns cap G-WFQ's splits moved by under 5 %, run 21). A poller
// in a real program backs off after a failed poll; with the cap set, the split kernel's threads do:
// after a failure they sleep, starting at kPollFirstNs and doubling up to the cap, and a success
// starts them again at kPollFirstNs. The sleep stays inside the measured window (throughput is
// still successful operations over the window), so the figure is what the queue sustains for
// polite pollers. The balanced kernel, where every thread enqueues before it dequeues, is the same
// in both builds, and so is the consumers' wait for the producers after the window.
//
// Roles go by warp on the GPU (a warp of producers aggregates its tickets; a mixed warp would run
// both branches one after the other) and by thread on the host, where a warp is one lane wide;
// bench_producers() says how many threads produce, and the host seeds kProducersLeft with it.
#pragma once
#include "arch.cuh"
#include "history.cuh"

namespace gq {

enum BenchKernel : uint32_t { kBenchBalanced = 0, kBenchSplit = 1 };

// Words of the shared counter block (uint64 each; the host zeroes them, then sets kProducersLeft).
enum BenchWord : uint32_t {
  kBenchEnqOk = 0, kBenchEnqFull = 1, kBenchDeqOk = 2, kBenchDeqEmpty = 3,  // in the window
  kBenchAllEnqOk = 4, kBenchAllDeqOk = 5,  // over the whole run: warm-up, window and drain
  kBenchStartNs = 6,        // t0, clock_ns of the first thread to start
  kBenchLastNs = 7,         // the latest completion of any operation (overrun = this - deadline)
  kBenchProducersLeft = 8,  // split: producers not yet gone
  kBenchProducers = 9,      // split: producer threads that ran (the host checks its own count)
  kBenchWords = 10
};

struct BenchArgs {
  uint64_t* counts;      // kBenchWords words
  uint32_t kernel;       // BenchKernel
  uint32_t nthreads;
  uint32_t producer_pct;
  uint64_t warmup_ns;
  uint64_t window_ns;
};

#if GQ_DEVICE_BUILD
constexpr uint32_t kBenchRoleLanes = 32;
#else
constexpr uint32_t kBenchRoleLanes = 1;
#endif

GQ_HD GQ_INLINE bool bench_is_producer(uint32_t tid, uint32_t pct) { return is_producer(tid / kBenchRoleLanes, pct); }

GQ_HD GQ_INLINE void bench_add(uint64_t* w, uint64_t v) {
  if (v != 0) fetch_add<mo::relaxed>(w, v);
}

GQ_HD GQ_INLINE void bench_max(uint64_t* w, uint64_t v) {
  uint64_t seen = load<mo::relaxed>(w);
  while (seen < v) {  // each failure means another thread raised it: at most nthreads rounds
    const uint64_t found = cas<mo::relaxed>(w, seen, v);
    if (found == seen) return;
    seen = found;
  }
}

#ifndef GQ_BENCH_POLL_BACKOFF_NS
#define GQ_BENCH_POLL_BACKOFF_NS 0
#endif

// One split-kernel thread's pause after a failed poll (see the head of this file). Off, both
// calls are empty and the loops are the seed's.
struct PollBackoff {
#if GQ_BENCH_POLL_BACKOFF_NS > 0
  static constexpr uint32_t kCapNs = (uint32_t)(GQ_BENCH_POLL_BACKOFF_NS);
  static constexpr uint32_t kPollFirstNs = kCapNs < 32u ? kCapNs : 32u;
  uint32_t ns = kPollFirstNs;
  // After an EMPTY or FULL answer: sleep, then double the next sleep up to the cap. The host has
  // no sleep this short; it waits out the same time on its clock, pausing while the wait is short
  // and giving the core away once it is longer (arch.cuh's backoff does the same), since its
  // threads oversubscribe the cores and the other side may need this one.
  GQ_HD GQ_INLINE void failed() {
#if GQ_DEVICE_BUILD
    __nanosleep(ns);
#else
    const uint64_t until = host_now_ns() + ns;
    do {
      if (ns < 256u) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
      } else {
        sched_yield();
      }
    } while (host_now_ns() < until);
#endif
    ns = ns < kCapNs / 2u ? ns * 2u : kCapNs;
  }
  GQ_HD GQ_INLINE void succeeded() { ns = kPollFirstNs; }
#else
  GQ_HD GQ_INLINE void failed() {}
  GQ_HD GQ_INLINE void succeeded() {}
#endif
};

// `q` by value: each thread works on its own copy of the view (G-LFQ and G-WFQ keep per-thread
// readings in it, glfq.cuh, gwfq.cuh), on the host as on the GPU.
template <class Queue>
GQ_HD void bench_thread(Queue q, const BenchArgs& a, uint32_t tid, const ErrorFlag& err) {
  uint64_t* c = a.counts;
  const uint64_t now = clock_ns();
  const uint64_t first = cas<mo::relaxed>(c + kBenchStartNs, 0ull, now);
  const uint64_t t0 = first == 0 ? now : first;
  const uint64_t open = t0 + a.warmup_ns, close = open + a.window_ns;
  // Values are thread ids: below every value a queue reserves (YMC keeps the top two).
  const uint32_t v = tid;
  uint64_t enq_ok = 0, enq_full = 0, deq_ok = 0, deq_empty = 0, all_enq = 0, all_deq = 0, t = now;
  uint32_t out = 0;
  if (a.kernel == kBenchBalanced) {
    for (;;) {
      const bool e = q.try_enqueue(v, tid, err);
      const bool d = q.try_dequeue(&out, tid, err);
      t = clock_ns();
      all_enq += e;
      all_deq += d;
      if (t >= open && t < close) {
        enq_ok += e, enq_full += !e;
        deq_ok += d, deq_empty += !d;
      }
      if (t >= close || (!(e && d) && err.raised())) break;
    }
  } else if (bench_is_producer(tid, a.producer_pct)) {
    PollBackoff poll;
    for (;;) {
      const bool e = q.try_enqueue(v, tid, err);
      t = clock_ns();
      all_enq += e;
      if (t >= open && t < close) enq_ok += e, enq_full += !e;
      if (t >= close || (!e && err.raised())) break;
      if (e)
        poll.succeeded();
      else
        poll.failed();
    }
    fetch_add<mo::release>(c + kBenchProducers, 1ull);
    fetch_add<mo::release>(c + kBenchProducersLeft, ~0ull);  // minus one
  } else {
    Spin drain;
    PollBackoff poll;
    for (;;) {
      const bool d = q.try_dequeue(&out, tid, err);
      t = clock_ns();
      all_deq += d;
      if (t >= open && t < close) deq_ok += d, deq_empty += !d;
      if (!d && err.raised()) break;
      if (t >= close) {
        if (load<mo::acquire>(c + kBenchProducersLeft) == 0ull) break;
        if (!d && !drain.step(err, kSiteBenchDrain, load<mo::relaxed>(c + kBenchProducersLeft))) break;
      } else if (d) {
        poll.succeeded();
      } else {
        poll.failed();
      }
    }
  }
  bench_add(c + kBenchEnqOk, enq_ok);
  bench_add(c + kBenchEnqFull, enq_full);
  bench_add(c + kBenchDeqOk, deq_ok);
  bench_add(c + kBenchDeqEmpty, deq_empty);
  bench_add(c + kBenchAllEnqOk, all_enq);
  bench_add(c + kBenchAllDeqOk, all_deq);
  bench_max(c + kBenchLastNs, t);
}

// After a run: dequeue until EMPTY, counting what came out (the elements the run left behind),
// at most `most` (no correct queue gives back more than was enqueued; the ideal ring never says
// EMPTY). Several drainers may share the queue: the last EMPTY answer each one sees is
// linearizable and nobody enqueues any more, so together they take every element.
template <class Queue>
GQ_HD void bench_drain_thread(const Queue& q, uint32_t tid, uint64_t most, uint64_t* drained, const ErrorFlag& err) {
  uint64_t n = 0;
  uint32_t out = 0;
  while (!err.raised() && load<mo::relaxed>(drained) + n < most && q.try_dequeue(&out, tid, err)) ++n;
  bench_add(drained, n);
}

}  // namespace gq
