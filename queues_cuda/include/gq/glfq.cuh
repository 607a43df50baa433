// gq/glfq.cuh — G-LFQ, the GPU lock-free queue of seed 001 Sec. III.B.
//
// Two sCQ rings of 2n slots each (scq_ring.cuh) move 32-bit indices: `aq` holds the indices of
// queued elements in FIFO order, `fq` the free ones. Payloads live in `pool[index]` (the sCQ
// indirection the seed calls the outer layer), so the rings never hold more than n indices.
//
//   try_enqueue(v):  i = fq.dequeue(); pool[i] = v; aq.enqueue(i)     linearizes at aq's CAS
//   try_dequeue():   i = aq.dequeue(); v = pool[i]; fq.enqueue(i)     linearizes at aq's CONSUME
//
// (one code path, operate(), with the direction an argument).
//
// An empty aq answers EMPTY without a ticket (ScqRing::observed_empty, linearizable at its Tail
// read). An empty fq alone does not prove FULL; quiescence_guard.cuh explains why, and how the
// answer is confirmed before it is given. There fq counts as empty when its Threshold is spent or
// its Tail <= Head: a ticketless EMPTY spends no Threshold, so after the last index left fq by a
// successful dequeue Threshold can stay positive while nothing is left; in a quiescent window
// Tail <= Head means every index ever installed in fq has been consumed by its ticket's holder.
//
// Ring size: sCQ's Threshold argument needs no more threads than ring capacity (scq_ring.cuh), so
// the rings have 2m slots for m = max(n, threads) while only n indices (the queue's capacity)
// circulate. With threads <= n this is the seed's 2n-slot ring.
//
// Layout (uint64 words): aq ring | fq ring | guard shards | pool (n uint32, rounded up) |
// counter rows (queue_stats.cuh; none without GQ_QUEUE_STATS): successful operations, retries
// (fresh tickets in either ring, fast-path restarts after a FULL check) and lost CASes; the whole
// rounded up to hot strides (arch.cuh), so that queues laid out back to back keep the spacing.
#pragma once
#include "arch.cuh"
#include "queue_fill.cuh"
#include "queue_op.cuh"
#include "queue_stats.cuh"
#include "quiescence_guard.cuh"
#include "scq_ring.cuh"

// Polls of fq's relaxed hint between two sweeps of the FULL confirmation (QuiescenceGuard::
// confirm_full says why). On the H200 (run 186), 32 rather than a sweep at every step took G-LFQ's
// 75 % split from 0.52 / 1.65 / 3.56 to 1.00 / 3.45 / 5.87 G ops/s at 2^14 / 2^16 / 2^18 threads,
// and moved the 50 % split by under 5 %. The host keeps its sweeps frequent (a producer there may
// wait out a whole time slice anyway) and polls twice, so that the CPU checkers run this path.
#ifndef GQ_GLFQ_FULL_POLLS
#if GQ_DEVICE_BUILD
#define GQ_GLFQ_FULL_POLLS 32u
#else
#define GQ_GLFQ_FULL_POLLS 2u
#endif
#endif

// How much of a ring must have looked free (fq) or full (aq) at a warp's last claim on it for its
// next ticket there to be drawn blind, and, on fq, for the enqueue to skip the relaxed hint: 1 /
// GQ_GLFQ_PLENTY_SHARE of fq, 1 / GQ_GLFQ_AQ_PLENTY_SHARE of aq (Glfq::operate says why).
#ifndef GQ_GLFQ_PLENTY_SHARE
#define GQ_GLFQ_PLENTY_SHARE 4
#endif
#ifndef GQ_GLFQ_AQ_PLENTY_SHARE
#define GQ_GLFQ_AQ_PLENTY_SHARE 16
#endif

namespace gq {

struct Glfq {
  static constexpr const char* kName = "glfq";
  static constexpr uint64_t kMaxCapacity = ScqRing::kMaxCapacity;

  ScqRing aq, fq;
  QuiescenceGuard guard;
  uint32_t* pool;
  uint64_t* stats;
  // Whether this thread's last ticket on fq, aq found plenty there (operate). Every thread holds
  // its own copy of the view (on the host too: history_thread, fifo_thread and bench_thread take it
  // by value).
  mutable bool fq_plenty = false, aq_plenty = false;

  GQ_HD static uint64_t ring_n(uint64_t n, uint64_t threads) {
#if defined(GQ_FAULT_SEED_RING)
    // Planted fault for the checkers: the seed's 2n-slot rings whatever the thread count.
    (void)threads;
    return n;
#else
    return n > threads ? n : threads;
#endif
  }

  // Where the guard's shards, the pool and the counter rows start (the layout above).
  GQ_HD static uint64_t guard_at(uint64_t n, uint64_t threads) { return 2 * ScqRing::words(ring_n(n, threads)); }
  GQ_HD static uint64_t pool_at(uint64_t n, uint64_t threads) {
    return guard_at(n, threads) + QuiescenceGuard::words();
  }
  GQ_HD static uint64_t stats_at(uint64_t n, uint64_t threads) { return pool_at(n, threads) + (n + 1) / 2; }
  GQ_HD static uint64_t words(uint64_t n, uint64_t threads) {
    return hot_round_up(stats_at(n, threads) + stat_words(threads));
  }
  GQ_HD static const uint64_t* stat_rows(const uint64_t* base, uint64_t n, uint64_t threads) {
    return base + stats_at(n, threads);
  }
  GQ_HD static void stats_sum(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
    stat_sum(stat_rows(base, n, threads), threads, out);
  }

  GQ_HD static Glfq view(uint64_t* base, uint64_t n, uint64_t threads) {
    const uint64_t m = ring_n(n, threads), ring = ScqRing::words(m);
    Glfq q;
    q.aq = ScqRing{base, m};
    q.fq = ScqRing{base + ring, m};
    q.guard = QuiescenceGuard{base + 2 * ring};  // guard_at, from the ring size in hand
    q.pool = (uint32_t*)(base + 2 * ring + QuiescenceGuard::words());
    q.stats = base + stats_at(n, threads);
    return q;
  }

  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t n, uint64_t threads) {
    const uint64_t m = ring_n(n, threads), ring = ScqRing::words(m);
    if (i < ring) return ScqRing::initial_word(i, m, 0);
    if (i < 2 * ring) return ScqRing::initial_word(i - ring, m, n);  // fq starts with every index
    return 0;  // guard shards, pool and counter rows
  }

  // The queue as one thread leaves it after try_enqueue(item(0)), ..., try_enqueue(item(k - 1)) on
  // a fresh queue, k <= n (queue_fill.cuh): enqueue j took index j from fq and put it into aq with
  // item(j) in pool[j]. Word for word what those enqueues write, but for the guard's epochs, which
  // only ever matter by changing, and the counter rows (tests/queues_cuda/test_queue_fill.py).
  template <class Items>
  GQ_HD static uint64_t filled_word(uint64_t i, uint64_t n, uint64_t threads, uint64_t k, const Items& item) {
    const uint64_t m = ring_n(n, threads), ring = ScqRing::words(m);
    if (i < ring) return ScqRing::initial_word(i, m, k);
    if (i < 2 * ring) return ScqRing::initial_word(i - ring, m, n, k);
    return pool_word(i - pool_at(n, threads), n, k, item);
  }
  // The words filled_word leaves as a fresh queue has them: the guard's shards and the counter rows.
  GQ_HD static bool fill_skips(uint64_t i, uint64_t n, uint64_t threads) {
    return (i >= guard_at(n, threads) && i < pool_at(n, threads)) || i >= stats_at(n, threads);
  }

  // Both operations are one transfer: take an index from one ring, move the payload through
  // pool[index], give the index to the other ring (enqueue: fq -> aq, writing the payload;
  // dequeue: aq -> fq, reading it). operate() is that transfer with the direction an argument
  // (`*value`: the payload in for an enqueue, out for a dequeue). With a constant direction
  // (try_enqueue, try_dequeue) the compiler folds it away; a caller that makes both operations
  // from one call site with the direction known only at run time (the tile renderer's queue phase,
  // rt/tile_queues.h; the recorded histories, history.cuh) inlines the rings' code once, and its
  // enqueuing and dequeuing lanes run the same instructions side by side.
  //
  // The two directions differ in three places only: fq's dequeue keeps the relaxed empty hint in
  // front (unless fq looked plentiful at the warp's last claim) and aq's does not (see below); the
  // payload is stored or loaded; and an enqueue that finds fq empty must confirm FULL, where a
  // dequeue that finds aq empty just answers EMPTY.
  //
  // No relaxed hint in front of aq's claim: ScqRing::dequeue_ticketed reads Head and Tail anyway,
  // and a claim that finds nothing ahead confirms EMPTY on observed_empty, with no ticket taken and
  // nothing written. That answer moves no index, so it would not need the guard; it takes it
  // because a test in front of the guard reads aq's hottest lines once more on every dequeue. On
  // the H200 (runs 128-129, 2^18 threads) dropping that test took G-LFQ's balanced kernel from 11.0
  // to 14.0 G ops/s and its 50 % split from 9.2 to 12.2. The test in front of fq's dequeue stays
  // where fq may run dry: dropping it altogether gave the balanced kernel 15.3 -> 17.6 G ops/s at
  // 2^18 threads but halved the 50 % split at every size (run 212; runs 128-129 and 166-191 saw the
  // same), with no FULL answer in it. So an enqueue skips it only while its warp's last claim on
  // fq saw at least a GQ_GLFQ_PLENTY_SHARE-th of the ring free (the claim's own relaxed reading,
  // wave_claim's `plenty`): then a hint could only say "not empty". Run 213: balanced 15.6 ->
  // 17.8 G at 2^18, the 50 % split 2-9 % faster at every size, the other splits unchanged; the
  // queue BFS 2-6 % slower, not explained. The hint is a performance device only (ScqRing::
  // looks_empty): skipping it sends the dequeue down the ticketed path, correct whatever the ring
  // holds.
  //
  // Blind tickets (ScqRing::dequeue_ticketed): while a thread's last ticket on a ring found plenty
  // there (its claim saw at least a GQ_GLFQ_PLENTY_SHARE-th of fq free, or a GQ_GLFQ_AQ_PLENTY_
  // SHARE-th of aq queued; a blind ticket, that every lane of its warp found its value), its next
  // ticket there is a bare wave_faa, without the claim's reads of Head and Tail, half of the
  // requests an operation makes on that ring's counter lines. On the H200 (run 310): balanced 22.6
  // -> 36.2 G ops/s at 2^18 threads and +10-14 % below 2^17; on aq alone it gave nothing (run 307),
  // since fq's lines then still bind. The bars: with a sixteenth of fq, the 50 % split halved at
  // 2^12-2^17 threads (again the split that halves whenever fq's side changes, above); with a
  // quarter, it is 4-36 % faster at 2^13-2^17 than before, 10 % slower at 2^12 (0.90 -> 0.81 G).
  // The fq bar is also the hint's, which was a sixteenth until then.
  GQ_HD bool operate(bool enqueue, uint32_t* value, uint32_t tid, const ErrorFlag& err) const {
    Spin spin(GQ_CLAIM_BUDGET);  // retries and quiescence waits under contention, not one partner
    const StatRow stat{stats, tid};
    const ScqRing from = enqueue ? fq : aq, to = enqueue ? aq : fq;
    for (;;) {
      guard.enter(tid);
      bool& was_plenty = enqueue ? fq_plenty : aq_plenty;
      bool plenty = false;
      const int64_t plenty_at = enqueue ? (int64_t)((fq.n + GQ_GLFQ_PLENTY_SHARE - 1) / GQ_GLFQ_PLENTY_SHARE)
                                        : (int64_t)((aq.n + GQ_GLFQ_AQ_PLENTY_SHARE - 1) / GQ_GLFQ_AQ_PLENTY_SHARE);
      const uint32_t i = from.dequeue(err, stat, enqueue && !fq_plenty, plenty_at, kBlindTickets ? &plenty : nullptr,
                                      kBlindTickets && was_plenty);
      was_plenty = plenty;  // never true without blind tickets (wave_faa.cuh): the flags fold away
      if (i != ScqRing::kEmpty) {
        // An enqueue's payload is published to the dequeuer by aq's seq_cst CAS that installs i,
        // and reaches it through the seq_cst (so acquire) read of the slot that finds i; a
        // dequeue's load is ordered before i goes back to fq by the fence of fq's installing CAS.
        if (enqueue)
          store<mo::relaxed>(pool + i, *value);
        else
          *value = load<mo::relaxed>(pool + i);
        to.enqueue(i, err, stat);
        guard.exit(tid);
        stat.add(kStatOk);
        return true;
      }
      guard.exit(tid);
      if (!enqueue || err.raised()) return false;  // a dequeue's EMPTY is final
#if defined(GQ_FAULT_EAGER_FULL)
      // The seed's behaviour, kept as a planted fault: FULL as soon as fq looks empty.
      return false;
#else
      // Confirm FULL at a quiescent instant, or go back for an index if one may have come back.
      if (guard.confirm_full(fq, spin, err, kSiteGlfqFullConfirm, GQ_GLFQ_FULL_POLLS, [] {}) != QuiescenceGuard::kRetry)
        return false;
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteGlfqFullConfirm, 0)) return false;
#endif
    }
  }

  GQ_HD bool try_enqueue(uint32_t v, uint32_t tid, const ErrorFlag& err) const { return operate(true, &v, tid, err); }
  GQ_HD bool try_dequeue(uint32_t* out, uint32_t tid, const ErrorFlag& err) const {
    return operate(false, out, tid, err);
  }
};

// queue_op.cuh's run-time choice of operation, for G-LFQ its one transfer path.
GQ_HD GQ_INLINE bool queue_op(const Glfq& q, bool enqueue, uint32_t* value, uint32_t tid, const ErrorFlag& err) {
  return q.operate(enqueue, value, tid, err);
}

}  // namespace gq
