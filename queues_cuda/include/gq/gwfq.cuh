// gq/gwfq.cuh — G-WFQ, the bounded wait-free GPU queue of seed 001 Sec. III.C.
//
// The outer layer is G-LFQ's (glfq.cuh): two rings of 2m slots move 32-bit indices, `aq` the
// queued ones in FIFO order, `fq` the free ones, and payloads live in `pool[index]`. The rings are
// wcq_ring.cuh's: G-LFQ's fast path, and after GQ_WFQ_PATIENCE failed retries a request published
// in the thread's fixed record and finished by the cooperative slow path; every GQ_WFQ_HELP_DELAY
// operations each thread takes up one peer's pending request.
//
//   try_enqueue(v):  i = fq.dequeue(); pool[i] = v; aq.enqueue(i)     linearizes in aq
//   try_dequeue():   i = aq.dequeue(); v = pool[i]; fq.enqueue(i)     linearizes in aq
//
// (one code path, operate(), with the direction an argument, as in G-LFQ).
//
// Wait-freedom covers the ring operations (Theorem III.10, for a resident grid). FULL is the one
// answer that is not: an empty fq does not prove a full queue (quiescence_guard.cuh), so a FULL
// answer is confirmed at a quiescent instant as in G-LFQ, retrying while operations are in flight.
// The seed's queue answers FULL at once and is not linearizable against a strict bounded FIFO.
//
// Ring size: m = max(capacity, threads), for the Threshold argument of scq_ring.cuh.
//
// Layout (uint64 words): aq ring | fq ring | guard shards | pool (n uint32, rounded up) |
// statistics rows (queue_stats.cuh; none unless GQ_QUEUE_STATS); the whole rounded up to hot strides
// (arch.cuh), so that queues laid out back to back keep the spacing.
#pragma once
#include "arch.cuh"
#include "queue_fill.cuh"
#include "queue_op.cuh"
#include "queue_stats.cuh"
#include "quiescence_guard.cuh"
#include "wcq_ring.cuh"

// Blind tickets as G-LFQ's (glfq.cuh): a thread's next ticket on a ring is a bare wave_faa while
// its last one there found at least 1 / GQ_GWFQ_PLENTY_SHARE of fq free, or 1 / GQ_GWFQ_AQ_PLENTY_
// SHARE of aq queued (Gwfq::operate says what they bought).
#ifndef GQ_GWFQ_PLENTY_SHARE
#define GQ_GWFQ_PLENTY_SHARE 4
#endif
#ifndef GQ_GWFQ_AQ_PLENTY_SHARE
#define GQ_GWFQ_AQ_PLENTY_SHARE 16
#endif

namespace gq {

struct Gwfq {
  static constexpr const char* kName = "gwfq";
  static constexpr uint64_t kMaxCapacity = WcqRing::kMaxCapacity;
  static constexpr uint64_t kMaxThreads = GQ_WFQ_MAX_THREADS;

  WcqRing aq, fq;
  QuiescenceGuard guard;
  uint32_t* pool;
  uint64_t* stats;
  // Whether this thread's last ticket on fq found plenty there (operate), as Glfq's: every thread
  // holds its own copy of the view. aq_mode, its dequeues' state on aq, in one byte rather than two
  // flags: at 2^18 threads the benchmark kernel spills, and the byte spills less (run 333). The
  // states are ints, in this order (operate tests `aq_mode < kAqParks`): as uint8_t ones they cost
  // 8 bytes more of spill stores (tests/queues_cuda/test_register_budget.py).
  enum : int {
    kAqPlain,     // none of the below
    kAqPlenty,    // its last ticket found plenty there: the next one is blind
    kAqParks,     // its last dequeue answered EMPTY: the next one parks
    kAqDisarmed,  // a parked one answered EMPTY too: no parking until the next value
  };
  mutable bool fq_plenty = false;
  mutable uint8_t aq_mode = kAqPlain;

  GQ_HD static uint64_t ring_n(uint64_t n, uint64_t threads) { return n > threads ? n : threads; }
  GQ_HD static uint64_t ring_words(uint64_t n, uint64_t threads) { return WcqRing::words(ring_n(n, threads), threads); }
  // Where the guard's shards, the pool and the counter rows start (the layout above).
  GQ_HD static uint64_t guard_at(uint64_t n, uint64_t threads) { return 2 * ring_words(n, threads); }
  GQ_HD static uint64_t pool_at(uint64_t n, uint64_t threads) {
    return guard_at(n, threads) + QuiescenceGuard::words();
  }
  GQ_HD static uint64_t stats_at(uint64_t n, uint64_t threads) { return pool_at(n, threads) + (n + 1) / 2; }

  GQ_HD static uint64_t words(uint64_t n, uint64_t threads) {
    return hot_round_up(stats_at(n, threads) + stat_words(threads));
  }

  GQ_HD static Gwfq view(uint64_t* base, uint64_t n, uint64_t threads) {
    const uint64_t m = ring_n(n, threads), ring = ring_words(n, threads);
    Gwfq q;
    q.stats = base + stats_at(n, threads);
    q.aq = WcqRing{base, m, threads, q.stats};
    q.fq = WcqRing{base + ring, m, threads, q.stats};
    q.guard = QuiescenceGuard{base + 2 * ring};  // guard_at, from the ring size in hand
    q.pool = (uint32_t*)(base + 2 * ring + QuiescenceGuard::words());
    return q;
  }

  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t n, uint64_t threads) {
    const uint64_t m = ring_n(n, threads), ring = ring_words(n, threads);
    if (i < ring) return WcqRing::initial_word(i, m, threads, 0);
    if (i < 2 * ring) return WcqRing::initial_word(i - ring, m, threads, n);  // fq starts with every index
    return 0;  // guard shards, pool, statistics
  }

  // The queue after one thread's k <= n enqueues of item(0), ..., item(k - 1) on a fresh queue, all
  // on the fast path, as Glfq::filled_word (whose comment says what it leaves out; here also each
  // thread's help cursor, which only says whose request a thread looks at next).
  template <class Items>
  GQ_HD static uint64_t filled_word(uint64_t i, uint64_t n, uint64_t threads, uint64_t k, const Items& item) {
    const uint64_t m = ring_n(n, threads), ring = ring_words(n, threads);
    if (i < ring) return WcqRing::initial_word(i, m, threads, k);
    if (i < 2 * ring) return WcqRing::initial_word(i - ring, m, threads, n, k);
    return pool_word(i - pool_at(n, threads), n, k, item);
  }
  // The words filled_word leaves as a fresh queue has them: the guard's shards, the counter rows,
  // and each ring's help cursors (WcqRing::cursor).
  GQ_HD static bool fill_skips(uint64_t i, uint64_t n, uint64_t threads) {
    if ((i >= guard_at(n, threads) && i < pool_at(n, threads)) || i >= stats_at(n, threads)) return true;
    const uint64_t m = ring_n(n, threads), ring = ring_words(n, threads);
    const uint64_t r = i % ring;  // i < 2 * ring here
    return r >= WcqRing::cursors_at(m, threads) && r < WcqRing::cursors_at(m, threads) + threads;
  }

  // The per-thread counters (queue_stats.cuh): every row (blind tickets too), or the five that
  // stat_sum reports summed into out[kStatReported].
  GQ_HD static const uint64_t* stat_rows(const uint64_t* base, uint64_t n, uint64_t threads) {
    return base + stats_at(n, threads);
  }
  GQ_HD static void stats_sum(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
    stat_sum(stat_rows(base, n, threads), threads, out);
  }

  // Both operations are one transfer, as in G-LFQ (Glfq::operate, which says why): an index from
  // one ring, the payload through pool[index], the index to the other ring; `enqueue` picks the
  // direction at run time. The directions differ where G-LFQ's do, and in one more place: an empty
  // aq answers a dequeue before the guard and before any counter row is touched, so a poller of an
  // empty queue costs six loads, a dequeue of a non-empty one three relaxed ones before its ticket.
  //
  // Blind tickets as in G-LFQ (Glfq::operate has the argument; WcqRing::dequeue_ticketed draws
  // them), and while aq was plentiful at the thread's last ticket there a dequeue skips the empty
  // test above too. On the H200 (runs 312-317, 2^14 / 2^16 / 2^17 / 2^18 threads) G-WFQ's balanced
  // kernel went 3.2 / 9.7 / 13.3 / 13.0 -> 3.5 / 12.8 / 19.5 / 13.6 G ops/s with blind tickets
  // alone, and -> 3.7 / 13.7 / 23.9 / 26.9 G with the help cursors packed as well (WcqRing::
  // help_threads). With aq's bar a quarter of the ring instead of a sixteenth, the 25 % split lost
  // 12-21 % from 2^16 threads and nothing else moved.
  //
  // A dequeue that comes right after one that answered EMPTY parks: it skips the relaxed empty test
  // (and the claim's reads, wave_faa.cuh) and draws a blind ticket, whose slot it then waits on for
  // the enqueuer as any ticket past Tail does (WcqRing::try_deq_fast, up to GQ_BURN_WAIT looks),
  // answering EMPTY only if none comes. A thread that polls an empty queue so waits in one slot
  // of aq instead of reading aq's Head and Tail lines over and over, the lines the enqueuers'
  // tickets are drawn on. Before its ticket it reads Threshold (relaxed, then the fenced test):
  // wCQ's own first step, which stops dequeuers from burning the enqueuers' slots once the ring
  // has proved empty; without it, parking dequeuers left the last producers of the 75 % split
  // retrying for 0.3-0.6 s (H200, run 325). Threshold alone is not enough: every enqueue refills
  // it, so while a few producers are still at work, parked pollers burn the slots of their tickets
  // one after another. The 75 % split, whose consumers see no EMPTY until its producers stop, ran
  // up to 0.58 s past a 50 ms budget at its end (H100, runs 328 and 331; on the H200 once in five
  // runs at 2^18 threads, run 330). So a parked dequeue that comes back EMPTY disarms its thread:
  // it polls aq's Head and Tail again, ticket-free, until it next takes a value, and a poller's
  // blind tickets burn at most two slots a value (the parked one, the last of a plenty run). No
  // run of the 75 % split overran since (runs 329-331). Only a thread that polls again parks: a
  // caller that stops at its first EMPTY (the queue BFS's levels) or makes its view afresh for each
  // operation (the tile renderer) never does. The 25 % split at 2^18 threads went from 11.8 to
  // 17.9 G ops/s on the H200 and from 11.4 to 15.4 G on an H100 (runs 330-331), and gained at 2^17
  // too (10.3 -> 12.6 G on the H200). The balanced kernel at 2^18, held to 32 registers there, paid
  // for the state in spills: 5-6 % with a flag and a counter (26.6 -> 25.2 G on the H200, 22.9 ->
  // 21.5 G on an H100), 2 % with them in one byte, aq_mode (H100, run 333: 22.93 G before parking,
  // 21.55 with the two, 22.46 with the byte; the splits as with the two). Under 1 % below 2^18.
  GQ_HD bool operate(bool enqueue, uint32_t* value, uint32_t tid, const ErrorFlag& err) const {
    const bool park = kBlindTickets && !enqueue && aq_mode == kAqParks;
    if (!enqueue && aq_mode != kAqPlenty &&
        (park ? (int64_t)load<mo::relaxed>(aq.threshold()) < 0 : aq.looks_empty()) && aq.observed_empty()) {
      if (aq_mode == kAqPlain) aq_mode = kAqParks;
      return false;
    }
    Spin spin(GQ_CLAIM_BUDGET);  // quiescence waits under contention, not one partner
    const WcqRing from = enqueue ? fq : aq, to = enqueue ? aq : fq;
    stat_begin(stats, tid);
    for (;;) {
      guard.enter(tid);
      const bool was_plenty = enqueue ? fq_plenty : aq_mode == kAqPlenty;
      bool plenty = false;
      const int64_t plenty_at = enqueue ? (int64_t)((fq.m + GQ_GWFQ_PLENTY_SHARE - 1) / GQ_GWFQ_PLENTY_SHARE)
                                        : (int64_t)((aq.m + GQ_GWFQ_AQ_PLENTY_SHARE - 1) / GQ_GWFQ_AQ_PLENTY_SHARE);
      const uint32_t i = from.dequeue(tid, err, enqueue && !fq_plenty, plenty_at, kBlindTickets ? &plenty : nullptr,
                                      kBlindTickets && (was_plenty || park));
      if (enqueue)
        fq_plenty = plenty;  // never true without blind tickets (wave_faa.cuh): the flags fold away
      else
        aq_mode = i != WcqRing::kEmpty ? (plenty ? kAqPlenty : kAqPlain) : aq_mode < kAqParks ? kAqParks : kAqDisarmed;
      if (i != WcqRing::kEmpty) {
        // As in G-LFQ: the payload goes out with aq's installing CAS (its fence) and comes in with
        // the acquire read of the slot that finds i; the load is done before fq's install.
        if (enqueue)
          store<mo::relaxed>(pool + i, *value);
        else
          *value = load<mo::relaxed>(pool + i);
        to.enqueue(i, tid, err);
        guard.exit(tid);
        stat_add(stats, tid, kStatOk);
        stat_end(stats, tid);
        return !err.raised();
      }
      guard.exit(tid);
      if (!enqueue) {  // a dequeue's EMPTY is final
        stat_end(stats, tid);
        return false;
      }
      if (err.raised()) return false;
      // Confirm FULL at a quiescent instant, or go back for an index if one may have come back.
      // A sweep at every step: polling fq's hint in between, as G-LFQ does, cost G-WFQ's 75 % split
      // 30 % at 2^18 threads on the H200 (run 186; +18-25 % at 2^14 and 2^16).
      const auto verdict =
          guard.confirm_full(fq, spin, err, kSiteWfqFullConfirm, 1u, [&] { stat_step(stats, tid); });
      if (verdict == QuiescenceGuard::kFull) stat_end(stats, tid);
      if (verdict != QuiescenceGuard::kRetry) return false;
      if (!spin.step(err, kSiteWfqFullConfirm, 0)) return false;
    }
  }

  GQ_HD bool try_enqueue(uint32_t v, uint32_t tid, const ErrorFlag& err) const { return operate(true, &v, tid, err); }
  GQ_HD bool try_dequeue(uint32_t* out, uint32_t tid, const ErrorFlag& err) const {
    return operate(false, out, tid, err);
  }
};

// queue_op.cuh's run-time choice of operation, for G-WFQ its one transfer path.
GQ_HD GQ_INLINE bool queue_op(const Gwfq& q, bool enqueue, uint32_t* value, uint32_t tid, const ErrorFlag& err) {
  return q.operate(enqueue, value, tid, err);
}

}  // namespace gq
