// gq/scq_ring.cuh — the inner index ring of G-LFQ: Nikolaev's scalable circular queue (sCQ,
// DISC 2019) with the two changes of seed 001 Sec. III.B: wave-batched tickets (wave_faa.cuh) and
// every slot packed into one 64-bit word.
//
// A ring of 2n slots carries indices; it never holds more than n of them (the caller, glfq.cuh,
// guarantees that by drawing every index from a second ring of free indices). Given that, and no
// more than n threads using the ring, Threshold = 3n - 1 bounds how many failed dequeue tickets can
// pass after the last enqueue before a dequeue may conclude the ring is empty. The thread bound
// is real: every thread can hold one stale ticket and spend one unit of Threshold with it, so with
// more threads than n an element can be stranded behind a negative Threshold (seen on the CPU
// runtime with 16 threads and n = 1). glfq.cuh therefore sizes its rings to max(capacity, threads).
//
// Slot word, low to high:  index (kIndexBits) | safe (1) | cycle (every bit left, kCycleBits)
//   index = kBot  (⊥)   the slot is empty
//   index = kBotC (⊥c)  the slot held a value that was consumed (all ones, so CONSUME is one OR)
// A ticket t maps to slot t mod 2n and cycle floor(t / 2n) mod 2^kCycleBits. Cycles are compared
// by signed modular difference (mod_less), so a lag of up to 2^(kCycleBits-1) laps is harmless.
//
// Deviation from the seed's Algorithm 1, on purpose: when the dequeuer's CAS on a stale slot
// fails, it re-reads the slot and decides again (as sCQ does) instead of moving on. Moving on would
// let an enqueuer that just installed a value for this very ticket strand it: no other dequeuer
// ever holds that ticket.
//
// Memory order: every shared access is seq_cst but three, besides the relaxed looks that only
// steer (the hint, looks_empty; the claim's reads of Head and Tail, which its fetch-add or CAS
// settles, wave_faa.cuh; the wait's look at Tail). The enqueue's "Head <= T" test after its
// ticket and the dequeue's "Tail <= H + 1" test after it burns a slot form a store-then-load
// pattern on two locations, which only sequential consistency orders. The three exceptions save a
// fence each (arch.cuh: a fence is most of a step's cost): the first read of a slot after a claim
// is acquire, CONSUME is relaxed, and the enqueue's ticket is an acquire fetch-add.
// That read decides nothing for good: a CAS on the slot compares against what is really there and
// returns it to decide again; an enqueuer that reads the slot as unusable only draws another
// ticket, as it does for a burnt slot; and the one word a dequeuer takes without a CAS, an index
// of its own ticket's cycle, no one but the ticket's holder can change once it is there. Acquire
// is what carries an installer's payload to the dequeuer (its install is a release: the fence in
// front of it). CONSUME needs no order of its own: until it is seen, a later lap's enqueuer only
// finds the slot still taken and draws another ticket, and whatever follows it in the queue (the
// index given back to the other ring, the guard's exit) is behind a fence. On the H200 (run 220)
// these two gave G-LFQ's balanced kernel 12-22 % below 2^18 threads and 3.5 % at 2^18, its 25 %
// and 75 % splits 14-21 % at every size, and the queue BFS on road-2M 12 %.
// The ticket needs no fence of its own. What must come before it does already: the payload and
// the index's way out of the other ring are ordered before the install by the install's own fence
// (a seq_cst CAS), and the guard's entry by the fence of the operation's first claim
// (quiescence_guard.cuh). What must come after it, it orders itself (acquire): the slot read; the
// loads of the two store-then-load tests above and of Threshold carry their own fences. And every
// argument about Tail below needs only this: an index installed by an instant sits at a ticket
// drawn before it, which holds because the ticket precedes the install's fence. With the guard's
// relaxed entry (H200, run 223): G-LFQ's balanced kernel 18-21 % faster up to 2^16 threads, its
// 25 % and 75 % splits 11-18 % at every size, the balanced kernel and the 50 % split within noise
// at 2^17-2^18.
// A stress twice had these fences put back (f51076b, bed5b8c): a build whose dequeues took
// blind tickets (below), bare fetch-adds on Head without the claim's reads, drawn through
// wave_faa, left indices behind Head in unsafe slots of an old cycle, with every access seq_cst
// too, and about 30 times as often with these three relaxed. Runs 254-264 (H200) found the cause
// outside the rings: in that build's code as CuPy's NVRTC 13.0 compiles it, lanes of a wave_faa
// group sometimes took the leader's shuffle before its fetch-add had returned and held their rank
// as their ticket (tickets 1, 2, ... below the ring's first one), and each such lane stranded the
// element at the ticket it should have held, one for one (wave_faa.cuh; since run 267 its fence
// stands before the leader's branch, and the wave-drawn stress loses nothing). The rings lose nothing
// when each lane fetch-adds its own blind ticket, relaxed or fenced (254 runs). The chain that
// seemed to need CONSUME's fence (an enqueuer that reads an unsafe, consumed slot must then see
// Head past its ticket) has it: that acquire read takes its value from CONSUME, a
// read-modify-write after the seq_cst CAS that marked the slot unsafe, so it synchronizes with
// that CAS (a release sequence), which comes after the marker's ticket on Head.
#pragma once
#include "arch.cuh"
#include "queue_stats.cuh"
#include "wave_faa.cuh"

namespace gq {

struct ScqRing {
  static constexpr int kIndexBits = 31;
  static constexpr int kCycleBits = 64 - kIndexBits - 1;
  static_assert(kIndexBits + 1 + kCycleBits == 64, "slot word bit budget");
  static_assert(kCycleBits >= 32, "cycle tags need room for 2^31 laps of lag");
  static constexpr uint64_t kIndexMask = (1ull << kIndexBits) - 1ull;
  static constexpr uint64_t kBotC = kIndexMask;        // ⊥c: consumed
  static constexpr uint64_t kBot = kIndexMask - 1ull;  // ⊥: empty
  static constexpr uint64_t kSafeBit = 1ull << kIndexBits;
  static constexpr uint64_t kMaxCapacity = kBot;  // indices 0 .. kBot-1
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;  // dequeue result: nothing there

  // Words of the layout: each counter kHotStride words from the next (arch.cuh), and the whole
  // rounded up to strides, so that G-LFQ's second ring keeps the spacing.
  static constexpr uint64_t kLine = kHotStride;
  static constexpr uint64_t kHead = 0, kTail = kLine, kThreshold = 2 * kLine, kEntries = 3 * kLine;

  uint64_t* base;
  uint64_t n;  // capacity; the ring has 2n slots

  GQ_HD static uint64_t words(uint64_t n) { return hot_round_up(kEntries + 2 * n); }

  GQ_HD static uint64_t pack(uint64_t cycle, uint64_t safe, uint64_t index) {
    return (cycle << (kIndexBits + 1)) | (safe << kIndexBits) | index;
  }
  GQ_HD static uint64_t cycle_of_word(uint64_t e) { return e >> (kIndexBits + 1); }
  GQ_HD static uint64_t safe_of(uint64_t e) { return (e >> kIndexBits) & 1ull; }
  GQ_HD static uint64_t index_of(uint64_t e) { return e & kIndexMask; }
  GQ_HD static bool is_bot(uint64_t index) { return index >= kBot; }  // ⊥ or ⊥c

  GQ_HD uint64_t cycle_of_ticket(uint64_t t) const { return (t / (2 * n)) & ((1ull << kCycleBits) - 1ull); }
  GQ_HD uint64_t* head() const { return base + kHead; }
  GQ_HD uint64_t* tail() const { return base + kTail; }
  GQ_HD uint64_t* threshold() const { return base + kThreshold; }  // holds an int64_t
  GQ_HD uint64_t* entry(uint64_t j) const { return base + kEntries + j; }
  GQ_HD int64_t threshold_max() const { return (int64_t)(3 * n - 1); }

  // Blind tickets (Glfq::operate passes `blind` while the thread's last ticket on this ring found
  // plenty ahead): the dequeue takes its first ticket by a bare wave_faa on Head, sCQ's own
  // dequeue, without the claim's relaxed reads of Head and Tail. Those two reads are requests on
  // the ring's two hottest lines, as many as the fetch-add itself; on the H200 (run 310) dropping
  // them while tickets are plentiful took G-LFQ's balanced kernel from 22.6 to 36.2 G ops/s at 2^18
  // threads (Glfq::operate says when a ticket is drawn blind). A blind ticket may land past Tail;
  // it then waits for its enqueuer or burns the slot as any ticket past Tail does (below), which is
  // correct whatever the ring holds. The stress build GQ_STRESS_BLIND_CLAIM
  // (tests/queues_cuda/test_ring_stress_gpu.py) makes each lane fetch-add its own blind ticket
  // instead: the same dequeue with a different interleaving of tickets, against which the
  // wave-drawn ones are checked. With wave_faa's fence inside the leader's branch
  // (GQ_STRESS_LEADER_FENCE, the spelling before run 267), the device's NVRTC 13.0 and the 8-block
  // build of 2^18 threads, blind tickets drawn through wave_faa go wrong for some lanes
  // (wave_faa.cuh) and lose elements: the GPU test's control.
#if defined(GQ_STRESS_BLIND_CLAIM)
  static constexpr bool kBlindPerLane = true;
#else
  static constexpr bool kBlindPerLane = false;
#endif

  // Initial value of word i of a ring of 2n slots into which one thread enqueued the indices 0, 1,
  // ..., filled-1 in that order and then dequeued the first `taken` of them (filled = 0: empty).
  // Head = 2n + taken, Tail = 2n + filled; slots of cycle 0 are safe and ⊥, filled ones have
  // cycle 1, the taken ones ⊥c (CONSUME keeps cycle and safe). Threshold is 3n - 1 once anything
  // was enqueued: the enqueue sets it and a successful dequeue leaves it (filled = taken > 0 is an
  // empty ring whose Tail <= Head says so).
  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t n, uint64_t filled, uint64_t taken = 0) {
    if (i == kHead) return 2 * n + taken;
    if (i == kTail) return 2 * n + filled;
    if (i == kThreshold) return filled ? (uint64_t)(3 * n - 1) : (uint64_t)(int64_t)-1;
    if (i < kEntries) return 0;
    const uint64_t j = i - kEntries;
    if (j < taken) return pack(1, 1, kBotC);
    if (j < filled) return pack(1, 1, j);
    return pack(0, 1, kBot);
  }

  // EMPTY without a ticket: Threshold spent, or Tail <= Head with Head read first and Tail second.
  // Linearizable at the Tail read (instant τ), by the argument of the ticketed EMPTY below
  // (Tail <= h + 1 after burning ticket h), minus the ticket. Head only grows, so Tail(τ) <= Head(τ).
  // An index is only ever installed at an enqueue ticket drawn from Tail (catchup raises Tail,
  // never lowers it), so every index installed by τ sits at a ticket T < Tail(τ) <= Head(τ): the
  // dequeue ticket T was drawn before τ. Its holder either finds the index at T and consumes it,
  // or burns slot T first, after which nothing is installed at T (the holder re-reads the slot on
  // a lost CAS, see above). So every index in the ring at τ belongs to a dequeuer that drew its
  // ticket before τ and has not yet consumed: a dequeue pending at τ, which is ordered just before
  // τ; the ring is empty at τ. An index installed after τ belongs to an enqueue pending at τ, which
  // is ordered after it. No Threshold is spent: Threshold counts failed tickets, and none is taken.
  // Pollers of an empty ring thus leave Head, Tail, the slots and Threshold alone, and the
  // producers' tickets are not burnt under them (seed 001 Sec. V's split kernel).
  //
  // The planted faults of this ring (GQ_FAULT_SKIP_CYCLE here, GQ_FAULT_SEED_RING in glfq.cuh)
  // keep the seed's dequeue, which answers EMPTY only after a ticket: the interleavings they break
  // (a lap of tickets passing a dequeuer delayed after its ticket; stale failed tickets spending
  // Threshold after a later enqueue reset it) came mostly from empty dequeues' tickets. With the
  // ticketless answer the CPU checker no longer met either within the planted-fault test's 150 s
  // of rounds at 64 threads (seed-ring also in none of 15 rounds at 8 threads), so such a fault
  // build would no longer show that the checkers catch what these mechanisms prevent.
#if defined(GQ_FAULT_SKIP_CYCLE) || defined(GQ_FAULT_SEED_RING)
  static constexpr bool kTicketlessEmpty = false;
#else
  static constexpr bool kTicketlessEmpty = true;
#endif
  GQ_HD bool observed_empty() const {
    if ((int64_t)load<mo::seq_cst>(threshold()) < 0) return true;
    if (!kTicketlessEmpty) return false;
    const uint64_t h = load<mo::seq_cst>(head());
    return (int64_t)(load<mo::seq_cst>(tail()) - h) <= 0;
  }

  // A hint, not an answer: the same test on plain relaxed reads (no fences, the two loads in
  // flight together). dequeue() confirms EMPTY through observed_empty() only when the hint says
  // so, because the confirmation's three seq_cst loads on the hottest lines of the ring, paid by
  // every dequeue, halved G-LFQ's balanced throughput on the H200 (21.0 -> 10.2 G ops/s, runs 11
  // and 14). A hint that is stale towards "not empty" only sends the dequeue down sCQ's ticketed
  // path, which is correct whatever Threshold, Head and Tail were when it started (Threshold and
  // this test bound wasted tickets; they are not part of the linearizability argument).
  GQ_HD bool looks_empty() const {
    const uint64_t h = load<mo::relaxed>(head()), t = load<mo::relaxed>(tail());
    return (int64_t)load<mo::relaxed>(threshold()) < 0 || (int64_t)(t - h) <= 0;
  }

  // catchup (sCQ): after an empty dequeue, drag Tail up to Head so enqueuers skip burnt tickets.
  GQ_HD void catchup(uint64_t t, uint64_t h, const ErrorFlag& err, StatRow stat = {}) const {
    Spin spin(GQ_CLAIM_BUDGET);  // lock-free retries, not a wait on one partner
    while (cas<mo::seq_cst>(tail(), t, h) != t) {
      stat.add(kStatCasFails);
      h = load<mo::seq_cst>(head());
      t = load<mo::seq_cst>(tail());
      if ((int64_t)(t - h) >= 0) return;
      if (!spin.step(err, kSiteScqCatchup, t)) return;
    }
  }

  // Enqueue an index; always succeeds while the ring holds fewer than n indices. Returns false
  // only when the spin budget ran out (the error flag is then raised). `stat` (queue_stats.cuh)
  // counts lost slot CASes and fresh tickets.
  GQ_HD bool enqueue(uint32_t index, const ErrorFlag& err, StatRow stat = {}) const {
    Spin spin(GQ_CLAIM_BUDGET);  // lock-free retries, not a wait on one partner
    for (;;) {
      const uint64_t t = wave_faa<mo::acquire>(tail());  // acquire: see the memory-order note above
      const uint64_t j = t % (2 * n);
      const uint64_t c = cycle_of_ticket(t);
      uint64_t e = load<mo::acquire>(entry(j));  // acquire: see the memory-order note above
      for (;;) {
        const bool older = mod_less<kCycleBits>(cycle_of_word(e), c);
        if (!(older && is_bot(index_of(e)) && (safe_of(e) || (int64_t)(load<mo::seq_cst>(head()) - t) <= 0))) break;
        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, pack(c, 1, index));
        if (seen == e) {
          if ((int64_t)load<mo::seq_cst>(threshold()) != threshold_max()) store<mo::seq_cst>(threshold(), (uint64_t)threshold_max());
          return true;
        }
        e = seen;  // lost the race for this slot; decide again on what is there now
        stat.add(kStatCasFails);
      }
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteScqEnqueue, t)) return false;
    }
  }

  // Dequeue an index, or kEmpty. Linearizes at CONSUME (success) or at the empty observation
  // (observed_empty's Tail read, or the Tail read after a burnt ticket).
  // The relaxed hint first (unless `hint` is false: then this is dequeue_ticketed), then the
  // claim; the planted-fault builds' Threshold test is dequeue_ticketed's own. `plenty_at` and
  // `plenty` as in wave_claim (`*plenty` left alone when no ticket was taken); `blind` as above.
  GQ_HD uint32_t dequeue(const ErrorFlag& err, StatRow stat = {}, bool hint = true, int64_t plenty_at = 0,
                         bool* plenty = nullptr, bool blind = false) const {
    if constexpr (kTicketlessEmpty) {
      if (hint && looks_empty() && observed_empty()) return kEmpty;
    }
    return dequeue_ticketed(err, stat, plenty_at, plenty, blind);
  }

  // sCQ's ticketed path without the hint in front: its claim's reads of Head and Tail are the
  // empty test (Glfq::operate says when that pays).
  GQ_HD uint32_t dequeue_ticketed(const ErrorFlag& err, StatRow stat = {}, int64_t plenty_at = 0,
                                  bool* plenty = nullptr, bool blind = false) const {
    // The planted-fault builds keep the seed's dequeue, which answers EMPTY from a spent Threshold
    // before it takes a ticket.
    if constexpr (!kTicketlessEmpty) {
      if (observed_empty()) return kEmpty;
    }
    Spin spin(GQ_CLAIM_BUDGET);  // lock-free retries, not a wait on one partner
    for (;;) {
      uint64_t h;
      const bool blind_now = blind;
      blind = false;  // the first ticket only; a retry claims
      if (blind_now) {
        stat.add(kStatBlind);
        if constexpr (kBlindPerLane)
          h = fetch_add<mo::seq_cst>(head(), 1ull);  // each lane's own: the stress build (above)
        else
          h = wave_faa<mo::seq_cst>(head());
      } else if constexpr (kTicketlessEmpty) {
        // No more tickets than Tail is ahead (wave_claim). A lane left without one has seen the
        // ring (nearly) empty: EMPTY if the fenced test agrees, else try again. A lane whose
        // leader lost its CAS already knows the ring was not empty (another claim took the
        // tickets it saw), so it tries again without the fenced test's three loads of the ring's
        // hottest lines. (On its own this moved seed 001's splits by under a fifth either way on
        // the H200, run 174; it keeps a swarm of losers off those lines.)
        const Claim got = wave_claim<mo::seq_cst>(head(), tail(), h, 1, plenty_at, plenty);
        if (got != kClaimed) {
          if (got == kClaimNone && observed_empty()) return kEmpty;
          stat.add(kStatRetries);
          if (!spin.step(err, kSiteScqDequeue, 0)) return kEmpty;
          continue;
        }
      } else {
        h = wave_faa<mo::seq_cst>(head());
      }
      const uint64_t j = h % (2 * n);
      const uint64_t c = cycle_of_ticket(h);
      uint64_t e = load<mo::acquire>(entry(j));  // acquire: see the memory-order note above
      // Plenty after a blind ticket: every lane found its value (no reading of Tail to go by).
      if (blind_now && plenty)
        *plenty = ballot(active_mask(), !(cycle_of_word(e) == c && !is_bot(index_of(e)))) == 0u;
      uint32_t wait = GQ_BURN_WAIT;
      uint32_t ns = 8;
      // Whether to wait for an enqueuer's install before burning an empty slot. sCQ waits only
      // when Tail is past h (an enqueuer holds this ticket). Here a ticket past Tail comes only
      // from a herd of claims (wave_claim's fetch-add, made on relaxed reads by many warps at
      // once), while enqueuers keep drawing tickets: burning it at once wasted the ticket of the
      // enqueuer that drew it next, and in seed 001's 25 % split that was most of the enqueuers'
      // retries (run 178: 0.45 burns past Tail a successful operation, and 0.38 enqueue tickets
      // found burnt; the wait on an installer that holds its ticket ran out 0.001 times). So the
      // ticketless build waits either way: a delay before the same step, as below (run 179: G-LFQ's
      // 25 % split 0.91 -> 6.5 G ops/s at 2^18 threads). The planted-fault builds keep sCQ's
      // rule: their dequeues fetch-add past Tail on every poll of an empty ring.
      for (;;) {
        const uint64_t ec = cycle_of_word(e);
#if defined(GQ_FAULT_SKIP_CYCLE)
        // Planted fault for the checkers: take whatever value sits in the slot, whatever its cycle.
        const bool mine = !is_bot(index_of(e));
#else
        const bool mine = ec == c && !is_bot(index_of(e));
#endif
        if (mine) {
          fetch_or<mo::relaxed>(entry(j), kBotC);  // CONSUME: index := ⊥c, cycle and safe kept (relaxed: above)
          return (uint32_t)index_of(e);
        }
        if (!mod_less<kCycleBits>(ec, c)) break;  // the slot is already ahead of this ticket
        if (is_bot(index_of(e)) && wait != 0u && (kTicketlessEmpty || (int64_t)(load<mo::relaxed>(tail()) - h) > 0)) {
          --wait;  // an enqueuer holds (or will draw) this ticket: give its CAS a moment (GQ_BURN_WAIT)
          backoff(ns);
          e = load<mo::seq_cst>(entry(j));
          continue;
        }
        // Burn the slot for this ticket: an empty slot moves to our cycle; a slot still holding a
        // value of an older cycle is marked unsafe so that no late enqueuer reuses it blindly.
        const uint64_t want = is_bot(index_of(e)) ? pack(c, safe_of(e), kBot) : pack(ec, 0, index_of(e));
        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
        if (seen == e) break;
        e = seen;
        stat.add(kStatCasFails);
      }
      const uint64_t t = load<mo::seq_cst>(tail());
      if ((int64_t)(t - (h + 1)) <= 0) {
        if (t != h + 1) catchup(t, h + 1, err, stat);  // Tail at h + 1 already: nothing to drag
        fetch_add<mo::seq_cst>(threshold(), ~0ull);
        return kEmpty;
      }
      if ((int64_t)fetch_add<mo::seq_cst>(threshold(), ~0ull) <= 0) return kEmpty;
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteScqDequeue, h)) return kEmpty;
    }
  }
};

}  // namespace gq
