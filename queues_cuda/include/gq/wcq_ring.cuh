// gq/wcq_ring.cuh — the inner index ring of G-WFQ (seed 001 Sec. III.C): the 2n-slot ring and
// wave-batched fast path of G-LFQ (scq_ring.cuh), plus the cooperative slow path of Nikolaev and
// Ravindran's wCQ (SPAA 2022) in which every shared thing is one 64-bit word changed by one atomic
// (Lemma III.5) instead of wCQ's double-width CAS.
//
// Words, low bit to high bit:
//   slot     index (kIndexBits) | Enq (1) | Safe (1) | cycle (kCycleBits) | Note (kNoteBits)
//            index kBot (⊥) empty, kBotC (⊥c) consumed. Enq = 0 marks a value that a slow-path
//            enqueue installed and has not yet finalized (the seed's two-step insert). Note is the
//            latest cycle for which a slow-path helper ruled the slot out (Lemma III.8).
//   Head/Tail  owner (kOwnerBits) | counter (every other bit). owner = tid + 1 of the thread whose
//            slow-path round moved the counter and whose local word may still carry INC (the
//            seed's ThrIdx; 0 = NULL). A fast-path ticket adds kTicket, leaving the owner alone.
//   local    ticket << 2 | INC | FIN: a request's own Head/Tail (the seed's Fig. 3).
//   request  seq (32) | kind (2) | index (30): one word publishes a whole slow-path request.
//
// Per-thread record (kRecordWords, written only by its owner except where noted):
//   kReq        the published request (helpers read; only the owner writes)
//   kLocalTail  the enqueue request's current round (every helper CASes it)
//   kInitTail   where the enqueue request started (a helper's first `prev`)
//   kLocalHead, kInitHead   the same for a dequeue request
//   kPhase2Tail, kPhase2Head   1 + the latest round proposed for this thread's requests; raised
//               only (CAS-max) by every helper. Whoever finds `owner` in Head/Tail reads it to
//               clear INC on the owner's local word (wCQ's phase-2 record, in one word)
// and, apart from the records, one word a thread: help_threads' own cursor, peer << 32 |
// operations left until the next check (cursor(tid); help_threads says why not in the record).
//
// Slow path (SlowFAA, Algorithm 2 / Lemma III.7): all helpers of a request agree on the next round
// through the request's local word: the first to CAS it from the last round to {counter, INC}
// proposes the round; the one CAS {cnt, NULL} -> {cnt + 1, owner} on Head/Tail confirms it (at
// most one can succeed, the counter never comes back); then INC is cleared and owner reset. A
// round is only given up before it is confirmed, so a confirmed ticket is never wasted: a wasted
// dequeue ticket would strand the value enqueued at it.
//
// Bit budget. kIndexBits = 22 holds capacities up to 2^22 - 2. Cycles and Notes get 20 bits and
// are compared by signed modular difference (mod_less), sound while no thread lags 2^19 laps of
// 2·max(n, threads) tickets behind the ring; the seed's bound (Lemma III.6) is (Dk + 5n)/2n laps
// for a resident grid. The counter gets 64 - kOwnerBits bits: 45 with the default 2^19 - 1
// threads, 2^45 tickets per queue (a day at 4e8 operations per second on one queue) before it
// wraps, and the cycle of a ticket (t / 2m) is only right until then. Tickets start at 2m.
//
// Ring size and Threshold: as in scq_ring.cuh, 2m slots for m = max(capacity, threads) and
// Threshold = 3m - 1 (gwfq.cuh chooses m).
//
// Memory order: every shared access is seq_cst, for the same store-then-load reasons as sCQ, but
// on the fast path, where the exceptions are sCQ's (scq_ring.cuh has the arguments): the enqueue's
// ticket is an acquire fetch-add, the first read of a slot after a ticket is acquire, and CONSUME
// of a value a fast-path enqueue installed is relaxed. Here a slot of the ticket's cycle can also
// change under its dequeuer: a slow-path helper sets Enq on it, which only matters through the
// read's Enq bit (below). The slow path's rounds, requests and helpers keep every fence: in
// particular the CONSUME of a value whose install is not yet finalized, which FINs the request
// first and must not let the slot move on before that FIN is seen (consume).
#pragma once
#include "arch.cuh"
#include "queue_stats.cuh"
#include "wave_faa.cuh"

// Patience: fast-path retries after the first attempt before a slow-path request is published
// (0 = one attempt). Help delay D: a thread inspects one peer's record every D operations on a ring
// (0 behaves as 1). Lost claims: dequeue claims that found no ticket yet not an empty ring, retried
// before they start to spend patience (dequeue_ticketed). Max threads: the most threads one queue
// may serve (sizes the owner field).
#ifndef GQ_WFQ_PATIENCE
#define GQ_WFQ_PATIENCE 16
#endif
#ifndef GQ_WFQ_HELP_DELAY
#define GQ_WFQ_HELP_DELAY 16
#endif
#ifndef GQ_WFQ_LOST_CLAIMS
#define GQ_WFQ_LOST_CLAIMS 64
#endif
#ifndef GQ_WFQ_MAX_THREADS
#define GQ_WFQ_MAX_THREADS 524287
#endif

namespace gq {

GQ_HD constexpr int bit_width(uint64_t x) { return x == 0 ? 0 : 1 + bit_width(x >> 1); }

struct WcqRing {
  // --- slot word
  static constexpr int kIndexBits = 22;
  static constexpr int kCycleBits = 20;
  static constexpr int kNoteBits = 20;
  static constexpr int kCycleShift = kIndexBits + 2;
  static constexpr int kNoteShift = kCycleShift + kCycleBits;
  static_assert(kNoteShift + kNoteBits == 64, "slot word bit budget");
  static_assert(kCycleBits >= 16 && kNoteBits == kCycleBits, "cycle and Note tags need the same, ample width");
  static constexpr uint64_t kIndexMask = (1ull << kIndexBits) - 1ull;
  static constexpr uint64_t kBotC = kIndexMask;        // ⊥c: consumed
  static constexpr uint64_t kBot = kIndexMask - 1ull;  // ⊥: empty
  static constexpr uint64_t kEnqBit = 1ull << kIndexBits;
  static constexpr uint64_t kSafeBit = 1ull << (kIndexBits + 1);
  static constexpr uint64_t kCycleMask = (1ull << kCycleBits) - 1ull;
  static constexpr uint64_t kNoteField = kCycleMask << kNoteShift;
  static constexpr uint64_t kMaxCapacity = kBot;  // indices 0 .. kBot-1
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  static constexpr uint32_t kRetry = 0xFFFFFFFEu;  // internal: the fast attempt proved nothing

  // --- Head/Tail word
  static constexpr int kOwnerBits = bit_width(GQ_WFQ_MAX_THREADS);
  static constexpr int kCounterBits = 64 - kOwnerBits;
  static_assert(kCounterBits >= 40, "Head/Tail counters need at least 2^40 tickets before they wrap");
  static_assert(GQ_WFQ_MAX_THREADS >= 1, "at least one thread");
  static constexpr uint64_t kOwnerMask = (1ull << kOwnerBits) - 1ull;
  static constexpr uint64_t kTicket = 1ull << kOwnerBits;

  // --- local word and request word
  static constexpr uint64_t kFin = 1ull, kInc = 2ull;
  static constexpr uint64_t kReqNone = 0, kReqEnq = 1, kReqDeq = 2;
  static constexpr uint64_t kReqIndexMask = (1ull << 30) - 1ull;
  static_assert(kIndexBits <= 30, "a request word carries the index in 30 bits");

  // One side alone can be forced onto the slow path (GQ_WFQ_PATIENCE_ENQ / _DEQ override the
  // common GQ_WFQ_PATIENCE), to look at one half of the slow path at a time.
#ifndef GQ_WFQ_PATIENCE_ENQ
#define GQ_WFQ_PATIENCE_ENQ GQ_WFQ_PATIENCE
#endif
#ifndef GQ_WFQ_PATIENCE_DEQ
#define GQ_WFQ_PATIENCE_DEQ GQ_WFQ_PATIENCE
#endif
  static constexpr uint32_t kPatienceEnq = GQ_WFQ_PATIENCE_ENQ, kPatienceDeq = GQ_WFQ_PATIENCE_DEQ;
  static constexpr uint32_t kHelpDelay = GQ_WFQ_HELP_DELAY > 0 ? GQ_WFQ_HELP_DELAY : 1;
  static constexpr uint32_t kLostClaims = GQ_WFQ_LOST_CLAIMS;

  // --- layout (uint64 words): each counter kHotStride words from the next (arch.cuh), the whole
  // rounded up to strides, so that G-WFQ's second ring keeps the spacing
  static constexpr uint64_t kLine = kHotStride;
  static constexpr uint64_t kHead = 0, kTail = kLine, kThreshold = 2 * kLine, kEntries = 3 * kLine;
  static constexpr uint64_t kRecordWords = 8;  // seven fields and a spare: 64 bytes a record
  enum Field : uint64_t { kReq = 0, kLocalTail, kInitTail, kLocalHead, kInitHead, kPhase2Tail, kPhase2Head };

  uint64_t* base;
  uint64_t m;        // the ring has 2m slots
  uint64_t threads;  // records
  uint64_t* stats;   // per-thread counter rows (queue_stats.cuh), shared with the other ring

  GQ_HD static uint64_t records_at(uint64_t m) { return kEntries + 2 * m; }
  GQ_HD static uint64_t installers_at(uint64_t m, uint64_t threads) { return records_at(m) + threads * kRecordWords; }
  GQ_HD static uint64_t cursors_at(uint64_t m, uint64_t threads) { return installers_at(m, threads) + 2 * m; }
  GQ_HD static uint64_t words(uint64_t m, uint64_t threads) { return hot_round_up(cursors_at(m, threads) + threads); }

  // --- field access
  GQ_HD static uint64_t pack(uint64_t note, uint64_t cycle, uint64_t safe, uint64_t enq, uint64_t index) {
    return (note << kNoteShift) | (cycle << kCycleShift) | (safe ? kSafeBit : 0) | (enq ? kEnqBit : 0) | index;
  }
  GQ_HD static uint64_t index_of(uint64_t e) { return e & kIndexMask; }
  GQ_HD static uint64_t cycle_of(uint64_t e) { return (e >> kCycleShift) & kCycleMask; }
  GQ_HD static uint64_t note_of(uint64_t e) { return e >> kNoteShift; }
  GQ_HD static uint64_t safe_of(uint64_t e) { return (e & kSafeBit) ? 1 : 0; }
  GQ_HD static bool is_bot(uint64_t index) { return index >= kBot; }  // ⊥ or ⊥c
  GQ_HD static bool older(uint64_t a, uint64_t b) { return mod_less<kCycleBits>(a, b); }
  GQ_HD static uint64_t with_note(uint64_t e, uint64_t note) { return (e & ~kNoteField) | (note << kNoteShift); }
  GQ_HD static uint64_t counter_of(uint64_t g) { return g >> kOwnerBits; }

  GQ_HD uint64_t cycle_of_ticket(uint64_t t) const { return (t / (2 * m)) & kCycleMask; }
  GQ_HD uint64_t* head() const { return base + kHead; }
  GQ_HD uint64_t* tail() const { return base + kTail; }
  GQ_HD uint64_t* threshold() const { return base + kThreshold; }  // holds an int64_t
  GQ_HD uint64_t* entry(uint64_t j) const { return base + kEntries + j; }
  GQ_HD uint64_t* rec(uint64_t tid, uint64_t field) const { return base + records_at(m) + tid * kRecordWords + field; }
  GQ_HD uint64_t* installer(uint64_t j) const { return base + installers_at(m, threads) + j; }
  GQ_HD uint64_t* cursor(uint64_t tid) const { return base + cursors_at(m, threads) + tid; }
  GQ_HD int64_t threshold_max() const { return (int64_t)(3 * m - 1); }
  GQ_HD void reset_threshold() const {
    if ((int64_t)load<mo::seq_cst>(threshold()) != threshold_max())
      store<mo::seq_cst>(threshold(), (uint64_t)threshold_max());
  }

  // Initial value of word i of a ring of 2m slots into which the indices 0 .. filled-1 were
  // enqueued and the first `taken` of them dequeued again, all on the fast path (as in
  // ScqRing::initial_word: Head = 2m + taken, Tail = 2m + filled, filled slots of cycle 1, the
  // taken ones ⊥c with Enq set, as consume leaves them).
  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t m, uint64_t threads, uint64_t filled, uint64_t taken = 0) {
    if (i == kHead) return (2 * m + taken) << kOwnerBits;
    if (i == kTail) return (2 * m + filled) << kOwnerBits;
    if (i == kThreshold) return filled ? (uint64_t)(3 * m - 1) : (uint64_t)(int64_t)-1;
    if (i < kEntries) return 0;
    if (i < records_at(m)) {
      const uint64_t j = i - kEntries;
      if (j < taken) return pack(0, 1, 1, 1, kBotC);
      return j < filled ? pack(0, 1, 1, 1, j) : pack(0, 0, 1, 1, kBot);
    }
    if (i >= cursors_at(m, threads)) {  // help cursors: the next peer, a full delay to go
      const uint64_t tid = i - cursors_at(m, threads);
      return tid < threads ? (((tid + 1) % threads) << 32) | kHelpDelay : 0;
    }
    return 0;  // no request; local words 0 (no ticket is 0: tickets start at 2m); no install seen yet
  }

  // EMPTY without a ticket (ScqRing::observed_empty has the linearizability argument; it holds
  // here unchanged): Threshold spent, or Tail's counter <= Head's with Head read first. A value is
  // only installed at a Tail ticket, fast or slow (a slow-path round's ticket is confirmed on Tail
  // before anyone installs at it), and the holder of Head ticket T, fast or a slow-path round
  // (Lemma III.8: one round per ticket, helpers included), finds the value at T or rules slot T out
  // first. So at the Tail read every installed value belongs to a dequeue pending then.
  // Wait-freedom is untouched: this answer is O(1) steps and writes nothing, so it can neither make
  // a SlowFAA CAS on Head/Tail fail nor burn a slow-path round's slot; every operation that can
  // still takes part in help_threads, and the slow-path bounds count only those.
  GQ_HD bool observed_empty() const {
    if ((int64_t)load<mo::seq_cst>(threshold()) < 0) return true;
    const uint64_t h = counter_of(load<mo::seq_cst>(head()));
    return (int64_t)(counter_of(load<mo::seq_cst>(tail())) - h) <= 0;
  }

  // The relaxed hint in front of observed_empty, as ScqRing::looks_empty (whose comment has the
  // argument): a dequeue of a ring with values in it pays no fenced loads before its ticket.
  GQ_HD bool looks_empty() const {
    const uint64_t h = counter_of(load<mo::relaxed>(head())), t = counter_of(load<mo::relaxed>(tail()));
    return (int64_t)load<mo::relaxed>(threshold()) < 0 || (int64_t)(t - h) <= 0;
  }

  // --- catchup (sCQ): after an empty dequeue, drag Tail's counter up to h; the owner field stays.
  GQ_HD void catchup(uint64_t h, uint32_t tid, const ErrorFlag& err) const {
    Spin spin(GQ_CLAIM_BUDGET);
    uint64_t tw = load<mo::seq_cst>(tail());
    for (;;) {
      stat_step(stats, tid);
      if ((int64_t)(counter_of(tw) - h) >= 0) return;
      const uint64_t seen = cas<mo::seq_cst>(tail(), tw, (h << kOwnerBits) | (tw & kOwnerMask));
      if (seen == tw) return;
      tw = seen;
      const uint64_t hh = counter_of(load<mo::seq_cst>(head()));
      if ((int64_t)(hh - h) > 0) h = hh;
      if (!spin.step(err, kSiteWfqDequeue, h)) return;
    }
  }

  // --- SlowFAA (Algorithm 2)

  // Raise a phase-2 word to at least v; it only grows, so a helper delayed since an older round
  // can never write that round back over a newer one.
  GQ_HD void raise_to(uint64_t* p, uint64_t v, const ErrorFlag& err) const {
    Spin spin(GQ_CLAIM_BUDGET);
    uint64_t cur = load<mo::seq_cst>(p);
    while ((int64_t)(cur - v) < 0) {
      const uint64_t seen = cas<mo::seq_cst>(p, cur, v);
      if (seen == cur) return;
      cur = seen;
      if (!spin.step(err, kSiteWfqSlowFaa, v)) return;
    }
  }

  // Make the owner field of a Head/Tail word NULL, finishing the phase 2 of the round it names:
  // clear INC on that owner's local word, then the field (in this order, so a NULL field always
  // means the confirmed round's INC is gone). The phase-2 word is trusted only if the Head/Tail
  // word did not change around its read: then no later round of that owner can have been
  // proposed (a proposal needs a NULL field first), so it names exactly the confirmed round.
  // Returns the counter of a word seen with a NULL owner.
  GQ_HD uint64_t settle(uint64_t* global, uint64_t g, bool is_head, uint32_t helper, const ErrorFlag& err) const {
    Spin spin(GQ_CLAIM_BUDGET);
    for (;;) {
      stat_step(stats, helper);
      const uint64_t o = g & kOwnerMask;
      if (o == 0) return counter_of(g);
      const uint64_t p = load<mo::seq_cst>(rec(o - 1, is_head ? kPhase2Head : kPhase2Tail));
      const uint64_t g2 = load<mo::seq_cst>(global);
      if (g2 == g) {
        if (p != 0) {
          const uint64_t round = (p - 1) << 2;
          cas<mo::seq_cst>(rec(o - 1, is_head ? kLocalHead : kLocalTail), round | kInc, round);
        }
        const uint64_t cleared = g & ~kOwnerMask;
        const uint64_t seen = cas<mo::seq_cst>(global, g, cleared);
        if (seen == g) return counter_of(cleared);
        g = seen;
      } else {
        g = g2;
      }
      if (!spin.step(err, kSiteWfqSlowFaa, counter_of(g))) return counter_of(g);
    }
  }

  // One cooperative increment of Head or Tail for the request of thread `owner`, whose local word
  // is `local`. `prev` is the local value this helper last acted on. Returns false once the
  // request is finished (FIN) or the error flag is up; true with `prev` = this round's ticket
  // << 2, the same for every helper of the round.
  GQ_HD bool slow_faa(bool is_head, uint32_t helper, uint32_t owner, uint64_t& prev, const ErrorFlag& err) const {
    uint64_t* global = is_head ? head() : tail();
    uint64_t* local = rec(owner, is_head ? kLocalHead : kLocalTail);
    uint64_t* phase2 = rec(owner, is_head ? kPhase2Head : kPhase2Tail);
#if defined(GQ_FAULT_WFQ_DOUBLE_ROUND)
    // Planted fault for the checkers: every helper increments Head/Tail for itself instead of
    // agreeing on one increment per round, so two helpers can act on one request at two tickets.
    (void)phase2;
    if (load<mo::seq_cst>(local) & kFin) return false;
    const uint64_t own = counter_of(fetch_add<mo::seq_cst>(global, kTicket));
    if (is_head) fetch_add<mo::seq_cst>(threshold(), ~0ull);
    store<mo::seq_cst>(local, own << 2);
    prev = own << 2;
    return !err.raised();
#endif
    Spin spin(GQ_CLAIM_BUDGET);
    uint64_t g = load<mo::seq_cst>(global), cnt;
    for (;;) {
      stat_step(stats, helper);
      if (load<mo::seq_cst>(local) & kFin) return false;
      cnt = settle(global, g, is_head, helper, err);
      const uint64_t proposal = (cnt << 2) | kInc;
      const uint64_t seen = cas<mo::seq_cst>(local, prev, proposal);
      if (seen == prev) {
        prev = proposal;
      } else {
        prev = seen;
        if (seen & kFin) return false;
        if (!(seen & kInc)) return true;  // another helper finished this round: take its ticket
        cnt = seen >> 2;                   // another helper proposed this round: confirm it
      }
      raise_to(phase2, cnt + 1, err);
      g = cnt << kOwnerBits;
      const uint64_t found = cas<mo::seq_cst>(global, g, ((cnt + 1) << kOwnerBits) | (owner + 1));
      if (found == g) break;
      g = found;
      if (!spin.step(err, kSiteWfqSlowFaa, cnt)) return false;
    }
    if (is_head) fetch_add<mo::seq_cst>(threshold(), ~0ull);  // one Threshold step per dequeue round
    cas<mo::seq_cst>(local, (cnt << 2) | kInc, cnt << 2);
    const uint64_t mine = ((cnt + 1) << kOwnerBits) | (owner + 1);
    cas<mo::seq_cst>(global, mine, (cnt + 1) << kOwnerBits);
    prev = cnt << 2;
    return !err.raised();
  }

  // --- enqueue

  GQ_HD bool try_enq_fast(uint64_t t, uint32_t index, uint32_t tid) const {
    const uint64_t j = t % (2 * m), c = cycle_of_ticket(t);
    uint64_t e = load<mo::acquire>(entry(j));  // acquire: a hint the CAS checks (memory-order note above)
    for (;;) {
      stat_step(stats, tid);
      if (!(older(cycle_of(e), c) && is_bot(index_of(e)) &&
            (safe_of(e) || (int64_t)(counter_of(load<mo::seq_cst>(head())) - t) <= 0)))
        return false;
      const uint64_t seen = cas<mo::seq_cst>(entry(j), e, (e & kNoteField) | pack(0, c, 1, 1, index));
      if (seen == e) {
        reset_threshold();
        return true;
      }
      e = seen;  // lost the race for this slot; decide again on what is there now
    }
  }

  // Work on `owner`'s enqueue request `req` (TryEnqSlow over the rounds SlowFAA hands out) until it
  // is finished, the request changed, or the flag is up. `helper` is the calling thread.
  GQ_HD void do_enqueue_slow(uint32_t helper, uint32_t owner, uint64_t req, uint64_t prev, const ErrorFlag& err) const {
    const uint64_t index = req & kReqIndexMask;
    uint64_t* local = rec(owner, kLocalTail);
    while (slow_faa(false, helper, owner, prev, err)) {
      if (load<mo::seq_cst>(rec(owner, kReq)) != req) return;  // a delayed helper of a finished request
      const uint64_t t = prev >> 2, j = t % (2 * m), c = cycle_of_ticket(t);
      uint64_t e = load<mo::seq_cst>(entry(j));
      for (;;) {
        stat_step(stats, helper);
        const uint64_t ec = cycle_of(e);
        // Only this request's round owns ticket t, so a value (or ⊥c) of cycle c here is ours:
        // the request is done. ⊥ of cycle c: the dequeuer of ticket t burnt the slot first.
        if (ec == c) {
          if (index_of(e) != kBot) return;
          break;
        }
        if (!older(ec, c) || !older(note_of(e), c)) break;  // newer, or ruled out for this round
        if (is_bot(index_of(e)) && (safe_of(e) || (int64_t)(counter_of(load<mo::seq_cst>(head())) - t) <= 0)) {
          // Name the request in the slot's installer word before installing, for lookup().
          store<mo::seq_cst>(installer(j), installer_word(c, owner));
          const uint64_t installed = (e & kNoteField) | pack(0, c, 1, 0, index);  // Enq = 0
          const uint64_t seen = cas<mo::seq_cst>(entry(j), e, installed);
          if (seen != e) {
            e = seen;
            continue;
          }
          if (helper != owner) stat_add(stats, helper, kStatCompleted);
          // Mark the request finished, then finalize the entry (Enq = 1). If a dequeuer got here
          // first it set FIN itself (lookup) before consuming, and the entry needs nothing more.
          if (cas<mo::seq_cst>(local, prev, prev | kFin) == prev)
            cas<mo::seq_cst>(entry(j), installed, installed | kEnqBit);
          reset_threshold();
          return;
        }
        // Rule the slot out for every helper of this round (Note := c), so that none of them
        // installs here after this one has moved on to another round (Lemma III.8).
        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, with_note(e, c));
        if (seen != e) {
          e = seen;
          continue;
        }
        break;
      }
    }
  }

  GQ_HD bool enqueue(uint32_t index, uint32_t tid, const ErrorFlag& err) const {
    help_threads(tid, err);
    uint64_t t = 0;
    for (uint32_t attempt = 0; attempt <= kPatienceEnq; ++attempt) {
      t = counter_of(wave_faa<mo::acquire>(tail(), kTicket));  // acquire: memory-order note above
      if (try_enq_fast(t, index, tid)) return true;
      if (err.raised()) return false;
    }
    // Out of patience: publish the request (payload words first, then the request word), work on
    // it with whoever helps, then withdraw it.
    stat_add(stats, tid, kStatSlow);
    const uint64_t seq = ((load<mo::seq_cst>(rec(tid, kReq)) >> 32) + 1) & 0xFFFFFFFFull;
    store<mo::seq_cst>(rec(tid, kLocalTail), t << 2);
    store<mo::seq_cst>(rec(tid, kInitTail), t << 2);
    const uint64_t req = (seq << 32) | (kReqEnq << 30) | index;
    store<mo::seq_cst>(rec(tid, kReq), req);
    do_enqueue_slow(tid, tid, req, t << 2, err);
    store<mo::seq_cst>(rec(tid, kReq), seq << 32);
    return !err.raised();
  }

  // --- dequeue

  // FIN the slow-path enqueue whose round is ticket t: its entry still has Enq = 0, and once it is
  // consumed the slot may move to a later cycle, after which the request's helpers could no
  // longer tell that it was done (they would start another round and insert the index twice).
  //
  // The request is found through slot j's installer word, which every slow-path installer writes
  // (cycle, owner) into just before its installing CAS. Only the request whose round is ticket t
  // installs at slot j in cycle c (one round per ticket, Lemma III.7; fast-path enqueues leave the
  // word alone), so a word of cycle c names that request's owner; the owner's local Tail then
  // holds t << 2 (FIN it), t << 2 | FIN (done), or a later request's round (this one is over,
  // hence FIN'd). A word of another cycle was overwritten by a stale helper of another lap, and
  // the records are scanned as before. The scan costs `threads` fenced loads (135,168 in a
  // render: tens of milliseconds), and nearly every lookup used to pay all of it, since the
  // installer normally FINs its own request before a dequeuer arrives.
  GQ_HD static uint64_t installer_word(uint64_t cycle, uint64_t owner) { return (cycle << 32) | (owner + 1); }

  GQ_HD void lookup(uint64_t j, uint64_t t) const {
    const uint64_t want = t << 2;
    const uint64_t w = load<mo::seq_cst>(installer(j));
    if ((w >> 32) == cycle_of_ticket(t) && (uint32_t)w != 0u) {
      uint64_t* local = rec((uint32_t)w - 1u, kLocalTail);
      if (load<mo::seq_cst>(local) == want) cas<mo::seq_cst>(local, want, want | kFin);
      return;
    }
    for (uint64_t k = 0; k < threads; ++k) {
      uint64_t* local = rec(k, kLocalTail);
      if (load<mo::seq_cst>(local) == want) {
        cas<mo::seq_cst>(local, want, want | kFin);
        return;
      }
    }
  }

  // CONSUME the value of cycle c found in slot j for ticket h: index := ⊥c, Enq := 1.
  // Relaxed when the value was read finalized (Enq = 1), as sCQ's CONSUME. When not, this dequeuer
  // FINs the request first, and the CONSUME keeps its fence: a helper that reads the slot moved past
  // cycle c must then find the FIN. (A finalized value's FIN was made before the finalizing CAS,
  // behind that CAS's own fence, which is what a helper meeting a later cycle relies on there.)
  GQ_HD uint32_t consume(uint64_t j, uint64_t e, uint64_t h) const {
    if (e & kEnqBit) {
      fetch_or<mo::relaxed>(entry(j), kIndexMask | kEnqBit);
    } else {
      lookup(j, h);
      fetch_or<mo::seq_cst>(entry(j), kIndexMask | kEnqBit);
    }
    return (uint32_t)index_of(e);
  }

  GQ_HD uint32_t try_deq_fast(uint64_t h, uint32_t tid, const ErrorFlag& err) const {
    const uint64_t j = h % (2 * m), c = cycle_of_ticket(h);
    uint64_t e = load<mo::acquire>(entry(j));  // acquire: memory-order note above
    uint32_t wait = GQ_BURN_WAIT;
    uint32_t ns = 8;
    // An empty slot gets the wait whether or not Tail is past h yet: a ticket past Tail comes from
    // a herd of claims or the last attempt's fetch-add, and the enqueuer that draws it next would
    // otherwise find it burnt (ScqRing::dequeue_ticketed says more). On the H200 (runs 179, 181)
    // G-WFQ's 75 % split went from 3.5 to 6.7-7.0 G ops/s at 2^18 threads, and with GQ_BURN_WAIT
    // 64 its 25 % split from a stall to 4.6-4.9 G.
    for (;;) {
      stat_step(stats, tid);
      const uint64_t ec = cycle_of(e);
      if (ec == c && !is_bot(index_of(e))) return consume(j, e, h);
      if (!older(ec, c)) break;  // the slot is already ahead of this ticket
      if (is_bot(index_of(e)) && wait != 0u) {
        --wait;  // an enqueuer holds (or will draw) this ticket: give its CAS a moment (GQ_BURN_WAIT)
        backoff(ns);
        e = load<mo::seq_cst>(entry(j));
        continue;
      }
      // Burn the slot for this ticket: an empty slot moves to our cycle; a slot still holding a
      // value (or an unfinished insert) of an older cycle is marked unsafe.
      const uint64_t want = is_bot(index_of(e)) ? (e & kNoteField) | pack(0, c, safe_of(e), 1, kBot) : e & ~kSafeBit;
      if (want == e) break;
      const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
      if (seen == e) break;
      e = seen;
    }
    const uint64_t t = counter_of(load<mo::seq_cst>(tail()));
    if ((int64_t)(t - (h + 1)) <= 0) {
      catchup(h + 1, tid, err);
      fetch_add<mo::seq_cst>(threshold(), ~0ull);
      return kEmpty;
    }
    if ((int64_t)fetch_add<mo::seq_cst>(threshold(), ~0ull) <= 0) return kEmpty;
    return kRetry;
  }

  // Work on `owner`'s dequeue request (TryDeqSlow per round) until it is finished: FIN with the
  // request's local Head at the ticket whose slot holds its value, or FIN once a round proves the
  // ring empty (below). Only SlowFAA's answer ends the loop: the owner must not leave while a helper
  // works on a later round, or the value that round finds would have nobody to consume it.
  GQ_HD void do_dequeue_slow(uint32_t helper, uint32_t owner, uint64_t req, uint64_t prev, const ErrorFlag& err) const {
    uint64_t* local = rec(owner, kLocalHead);
    while (slow_faa(true, helper, owner, prev, err)) {
      if (load<mo::seq_cst>(rec(owner, kReq)) != req) return;
      const uint64_t h = prev >> 2, j = h % (2 * m), c = cycle_of_ticket(h);
      uint64_t e = load<mo::seq_cst>(entry(j));
      for (;;) {
        stat_step(stats, helper);
        const uint64_t ec = cycle_of(e);
        if (ec == c && index_of(e) != kBot) {  // the value for this round (⊥c: the owner took it)
          if (cas<mo::seq_cst>(local, prev, prev | kFin) == prev && helper != owner)
            stat_add(stats, helper, kStatCompleted);
          break;
        }
        if (!older(ec, c)) break;
        uint64_t want;
        if (!is_bot(index_of(e))) {
          // An older value stays for its own dequeuer: mark it unsafe, and rule the slot out for
          // slow-path enqueues of this cycle, whose dequeuer (this round) has passed.
          want = e & ~kSafeBit;
          if (older(note_of(e), c)) want = with_note(want, c);
        } else {
          want = (e & kNoteField) | pack(0, c, safe_of(e), 1, kBot);
        }
        if (want == e) break;
        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
        if (seen == e) break;
        e = seen;
      }
      if (load<mo::seq_cst>(local) & kFin) continue;  // found: SlowFAA now answers false
      const uint64_t t = counter_of(load<mo::seq_cst>(tail()));
#if defined(GQ_FAULT_WFQ_SLOW_EMPTY)
      // Planted fault for the checkers: the rule below without its test of Tail, so a round whose
      // slot was ruled out ends the request empty though values wait past its ticket.
      const bool past_tail = true;
#else
      const bool past_tail = (int64_t)(t - (h + 1)) <= 0;
#endif
      if (past_tail) catchup(h + 1, helper, err);
      // Empty: Tail was at or behind this round's ticket once its slot was ruled out, try_deq_fast's
      // EMPTY by the same argument (the round's ticket is a Head ticket like any other), or
      // Threshold is spent. wCQ's TryDeqSlow waits for Threshold alone, which an enqueue resets to
      // 3m - 1: on a ring left empty, its dequeue requests then ran up to 3m rounds one after the
      // other, each a CAS on Head against the others' (H200, run 316: 32 requests left when the
      // producers of the 25 % split stopped, 3.1 M steps, a dequeue of 9.7 s at 2^18 threads).
      // The FIN may fail because another helper already went on to a later round; then the request
      // is not over, and this helper must not leave it (SlowFAA decides, from FIN alone).
      if ((past_tail || (int64_t)load<mo::seq_cst>(threshold()) < 0) &&
          cas<mo::seq_cst>(local, prev, prev | kFin) == prev && helper != owner)
        stat_add(stats, helper, kStatCompleted);
    }
  }

  // `hint` false: dequeue_ticketed (Gwfq::operate picks per direction at run time, and whether
  // the first ticket is blind).
  GQ_HD uint32_t dequeue(uint32_t tid, const ErrorFlag& err, bool hint = true, int64_t plenty_at = 0,
                         bool* plenty = nullptr, bool blind = false) const {
    return hint && looks_empty() && observed_empty() ? kEmpty : dequeue_ticketed(tid, err, plenty_at, plenty, blind);
  }

  // The dequeue after the ticketless EMPTY test, for a caller that has made that test itself
  // (Gwfq::operate does it before its guard for a dequeue): wCQ's fast path, then its slow path.
  // `plenty_at`, `plenty` and `blind` as in ScqRing::dequeue_ticketed: a blind first ticket is a
  // bare wave_faa on Head, as the last attempt's, and after one `plenty` says whether every lane
  // of the warp found its value.
  GQ_HD uint32_t dequeue_ticketed(uint32_t tid, const ErrorFlag& err, int64_t plenty_at = 0,
                                  bool* plenty = nullptr, bool blind = false) const {
    help_threads(tid, err);
    uint64_t h = 0;
    uint32_t lost = 0, ns = 8;
    for (uint32_t attempt = 0; attempt <= kPatienceDeq;) {
      // No more tickets than Tail is ahead (wave_claim), except on the last attempt, which
      // fetch-adds so that a slow-path request starts from a ticket of its own. A lane left
      // without one has seen the ring (nearly) empty: EMPTY if the fenced test agrees (not made
      // after a lost claim, as in ScqRing::dequeue_ticketed). Else it tries again after a
      // pause: the first kLostClaims times without spending an attempt, since it took and burnt
      // no ticket (a swarm of dequeuers over a nearly empty ring loses most claims, and should
      // not be sent to the slow path for it); then each costs an attempt, so patience and
      // kLostClaims together bound the fast path.
      uint64_t hw;
      const bool blind_now = blind;
      blind = false;
      if (attempt == kPatienceDeq || blind_now) {
        if (blind_now) stat_add(stats, tid, kStatBlind);
        hw = wave_faa<mo::seq_cst>(head(), kTicket);
      } else {
        const Claim got = wave_claim<mo::seq_cst>(head(), tail(), hw, kTicket, plenty_at, plenty);
        if (got != kClaimed) {
          if (got == kClaimNone && observed_empty()) return kEmpty;
          stat_step(stats, tid);
          if (lost < kLostClaims)
            ++lost;
          else
            ++attempt;
          backoff(ns);
          continue;
        }
      }
      h = counter_of(hw);
      const uint32_t r = try_deq_fast(h, tid, err);
      if (blind_now && plenty) *plenty = ballot(active_mask(), r == kRetry || r == kEmpty) == 0u;
      if (r != kRetry) return r;
      if (err.raised()) return kEmpty;
      ++attempt;
    }
    stat_add(stats, tid, kStatSlow);
    const uint64_t seq = ((load<mo::seq_cst>(rec(tid, kReq)) >> 32) + 1) & 0xFFFFFFFFull;
    store<mo::seq_cst>(rec(tid, kLocalHead), h << 2);
    store<mo::seq_cst>(rec(tid, kInitHead), h << 2);
    const uint64_t req = (seq << 32) | (kReqDeq << 30);
    store<mo::seq_cst>(rec(tid, kReq), req);
    do_dequeue_slow(tid, tid, req, h << 2, err);
    store<mo::seq_cst>(rec(tid, kReq), seq << 32);
    if (err.raised()) return kEmpty;
    // The request ended at the ticket in its local Head: the value is there, or the ring was empty.
    const uint64_t hf = load<mo::seq_cst>(rec(tid, kLocalHead)) >> 2;
    const uint64_t j = hf % (2 * m);
    const uint64_t e = load<mo::seq_cst>(entry(j));
    if (cycle_of(e) == cycle_of_ticket(hf) && !is_bot(index_of(e))) return consume(j, e, hf);
    return kEmpty;
  }

  // --- help_threads: every D operations, take up one peer's pending request (round robin).
  // The countdown is read and written on every operation on the ring, so the cursors are packed one
  // word a thread (cursor()): a warp's 32 share two lines. Kept as the eighth word of each 64-byte
  // record until run 312, they put two loads and two stores an operation on lines of their own,
  // spread over 2 x 16 MB of records at 2^18 threads; packed, G-WFQ's balanced kernel went 13.6 ->
  // 26.9 G ops/s at 2^18 threads and 19.5 -> 23.9 G at 2^17 on the H200 (with blind tickets).
  GQ_HD void help_threads(uint32_t tid, const ErrorFlag& err) const {
    uint64_t* own = cursor(tid);
    const uint64_t w = load<mo::relaxed>(own);
    const uint32_t left = (uint32_t)w, peer = (uint32_t)(w >> 32);
    if (left > 1) {
      store<mo::relaxed>(own, w - 1);
      return;
    }
    store<mo::relaxed>(own, ((uint64_t)((peer + 1) % threads) << 32) | kHelpDelay);
    if (peer == tid || peer >= threads) return;
    const uint64_t req = load<mo::seq_cst>(rec(peer, kReq));
    const uint64_t kind = (req >> 30) & 3u;
    if (kind == kReqNone) return;
    // The payload words were written before the request word and stay until it changes: if the
    // request word is unchanged after reading them, they belong to this request.
    const uint64_t init = load<mo::seq_cst>(rec(peer, kind == kReqEnq ? kInitTail : kInitHead));
    if (load<mo::seq_cst>(rec(peer, kReq)) != req) return;
    stat_add(stats, tid, kStatHelps);
    if (kind == kReqEnq)
      do_enqueue_slow(tid, peer, req, init, err);
    else
      do_dequeue_slow(tid, peer, req, init, err);
  }
};

}  // namespace gq
