// gq/queue_stats.cuh — the counters that explain a wait-free queue's cost (DESIGN.md: "compiled
// in behind a flag and reported per successful operation").
//
// With -DGQ_QUEUE_STATS a queue keeps kStatWords counters per thread after its own words; without
// it the array has no words and every count compiles to nothing. Each thread writes only its own
// row (a helper counts the help it gives in its own row, not in the helped thread's), so a count
// is a relaxed load and store, never a contended atomic. The host sums the rows after the run.
//
//   kStatSlow       operations that ran out of patience and published a slow-path request
//   kStatHelps      peer requests this thread took up and worked on (help_threads / help_deq)
//   kStatCompleted  peer requests whose completing step this thread performed (the request was
//                   finished by someone other than its owner)
//   kStatOk         successful operations (the denominator: "per successful operation")
//   kStatMaxSteps   the most steps one operation took (a step: one fast-path attempt, one slow-path
//                   round or retry of a CAS loop, one wait step, including the help it gave on
//                   the way): the number wait-freedom bounds; kStatSteps counts the current one
// and, kept by the lock-free queues (G-LFQ's sCQ rings, SFQ's claims) where they cost one
// increment on a path that already failed:
//   kStatRetries    an operation starting over with a fresh ticket or claim after a failed one
//   kStatCasFails   a CAS that lost its race (a slot, a counter)
//   kStatBlind      a ticket drawn blind (G-LFQ's and G-WFQ's rings: scq_ring.cuh, wcq_ring.cuh)
// stat_sum reports the first five; stat_sum_all all eight (kStatAll), for queues offering
// stat_rows (G-WFQ-YMC reports its through stats_sum, the last three as zero; G-WFQ keeps no
// retries or CAS failures, its slow path counts steps).
#pragma once
#include "arch.cuh"

namespace gq {

enum StatWord : uint32_t {
  kStatSlow = 0, kStatHelps = 1, kStatCompleted = 2, kStatOk = 3, kStatMaxSteps = 4,
  kStatReported = 5,  // what stat_sum reports
  kStatSteps = 5, kStatRetries = 6, kStatCasFails = 7, kStatBlind = 8, kStatWords = 9,
  kStatAll = 8  // what stat_sum_all reports: the five, then retries, CAS failures and blind tickets
};

#if defined(GQ_QUEUE_STATS)
constexpr bool kQueueStats = true;
#else
constexpr bool kQueueStats = false;
#endif

// Words of the per-thread counter rows of a queue used by `threads` threads.
GQ_HD GQ_INLINE uint64_t stat_words(uint64_t threads) { return kQueueStats ? threads * kStatWords : 0; }

GQ_HD GQ_INLINE void stat_add(uint64_t* rows, uint32_t tid, uint32_t which) {
  if constexpr (kQueueStats) {
    uint64_t* w = rows + (uint64_t)tid * kStatWords + which;
    store<mo::relaxed>(w, load<mo::relaxed>(w) + 1ull);
  } else {
    (void)rows, (void)tid, (void)which;
  }
}

// Steps of one operation: begin zeroes the count, step adds one, end keeps the maximum.
GQ_HD GQ_INLINE void stat_begin(uint64_t* rows, uint32_t tid) {
  if constexpr (kQueueStats) store<mo::relaxed>(rows + (uint64_t)tid * kStatWords + kStatSteps, 0ull);
}
GQ_HD GQ_INLINE void stat_step(uint64_t* rows, uint32_t tid) { stat_add(rows, tid, kStatSteps); }
GQ_HD GQ_INLINE void stat_end(uint64_t* rows, uint32_t tid) {
  if constexpr (kQueueStats) {
    uint64_t* row = rows + (uint64_t)tid * kStatWords;
    const uint64_t n = load<mo::relaxed>(row + kStatSteps);
    if (n > load<mo::relaxed>(row + kStatMaxSteps)) store<mo::relaxed>(row + kStatMaxSteps, n);
  }
}

// Every thread's rows into out[kStatReported] (after the threads have finished): sums, and the
// maximum for kStatMaxSteps.
GQ_HD GQ_INLINE void stat_sum(const uint64_t* rows, uint64_t threads, uint64_t* out) {
  for (uint32_t k = 0; k < kStatReported; ++k) out[k] = 0;
  if constexpr (kQueueStats) {
    for (uint64_t t = 0; t < threads; ++t)
      for (uint32_t k = 0; k < kStatReported; ++k) {
        const uint64_t v = rows[t * kStatWords + k];
        out[k] = k == kStatMaxSteps ? (v > out[k] ? v : out[k]) : out[k] + v;
      }
  }
}

// All eight counters: out[0..4] as stat_sum, out[5] retries, out[6] CAS failures, out[7] blind
// tickets.
GQ_HD GQ_INLINE void stat_sum_all(const uint64_t* rows, uint64_t threads, uint64_t* out) {
  stat_sum(rows, threads, out);
  out[5] = out[6] = out[7] = 0;
  if constexpr (kQueueStats) {
    for (uint64_t t = 0; t < threads; ++t) {
      out[5] += rows[t * kStatWords + kStatRetries];
      out[6] += rows[t * kStatWords + kStatCasFails];
      out[7] += rows[t * kStatWords + kStatBlind];
    }
  }
}

// One thread's row, handed to a queue's inner parts (an sCQ ring) that know no thread id; a
// null row counts nothing.
struct StatRow {
  uint64_t* rows = nullptr;
  uint32_t tid = 0;
  GQ_HD GQ_INLINE void add(uint32_t which) const {
    if constexpr (kQueueStats) {
      if (rows != nullptr) stat_add(rows, tid, which);
    } else {
      (void)which;
    }
  }
};

// The counters of any queue kind: zeros for a queue that keeps none.
template <class Q, class = void> struct has_stats { static constexpr bool value = false; };
template <class Q>
struct has_stats<Q, decltype((void)&Q::stats_sum)> { static constexpr bool value = true; };

template <class Queue>
GQ_HD void queue_stats_sum(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
  if constexpr (has_stats<Queue>::value) {
    Queue::stats_sum(base, n, threads, out);
  } else {
    (void)base, (void)n, (void)threads;
    for (uint32_t k = 0; k < kStatReported; ++k) out[k] = 0;
  }
}

template <class Q, class = void> struct has_stat_rows { static constexpr bool value = false; };
template <class Q>
struct has_stat_rows<Q, decltype((void)&Q::stat_rows)> { static constexpr bool value = true; };

template <class Queue>
GQ_HD void queue_stats_all(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
  if constexpr (has_stat_rows<Queue>::value) {
    stat_sum_all(Queue::stat_rows(base, n, threads), threads, out);
  } else {
    queue_stats_sum<Queue>(base, n, threads, out);
    out[5] = out[6] = out[7] = 0;
  }
}

}  // namespace gq
