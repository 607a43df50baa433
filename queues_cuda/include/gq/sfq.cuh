// gq/sfq.cuh — SFQ, the Scogland-Feng ticketed ring (the seed's baseline [12]).
//
// n slots; Head and Tail are ticket counters. Ticket t owns slot t mod n on lap floor(t / n). Each
// slot word is {turn:32 | value:32}: an enqueuer of lap L waits for turn 2L, writes its value with
// turn 2L+1; the dequeuer of lap L waits for turn 2L+1 and hands the slot on with turn 2L+2. A
// slot's turns advance one ticket at a time and the thread that waits is always the one whose
// ticket is next, so comparing 32-bit turns for equality is safe across wrap-around.
//
// Two interfaces, as in the original:
//   * blocking  enqueue/dequeue: a fetch-add on Tail/Head takes a ticket, then the thread waits
//     for its slot's turn (it never reports FULL or EMPTY). Here the lanes of a warp that call it
//     together take their tickets with one fetch-add (wave_faa.cuh: the same tickets, in lane
//     order, as one fetch-add each would give; Lemma III.1 of seed 001). A level of the queue BFS
//     dequeues its whole frontier so, a warp at a time: one fetch-add a lane would queue every
//     thread of the level behind one hot word;
//   * non-waiting try_enqueue/try_dequeue: read Tail then Head (or Head then Tail); report FULL
//     (EMPTY) when the difference shows n (0) elements, else claim the ticket with a CAS. The
//     element count is Tail - Head, changed only by those CASes, so FULL and EMPTY linearize at the
//     second read. After a successful claim the thread still waits for its slot's turn, which its
//     partner (the ticket n earlier, or the enqueuer of the same ticket) has already claimed.
// The two interfaces must not be mixed on one queue if FULL answers are to stay exact: blocking
// enqueuers may push Tail past Head + n.
#pragma once
#include "arch.cuh"
#include "queue_stats.cuh"
#include "wave_faa.cuh"

namespace gq {

// kOneLap: the view of a caller whose tickets never leave lap 0 between the queue's resets, so
// that no slot is used twice (the queue BFS: its queues hold n = the vertex count, and each vertex
// goes in once a run, sssp/bfs_queue.h). Such a view has no wrap to work out and no later lap's
// turn to wait for, so its slot and lap take no 64-bit division and its operations no wait loop
// for a turn of lap 1 or later. A ticket past lap 0 (the caller's promise broken) is refused, never
// wrapped: an enqueue returns false with nothing written and the flag as it was, for the caller
// to raise what it knows (the BFS: its frontier's capacity), and a dequeue raises kCapacity,
// since what it would wait for was refused. Why a view of its own: the BFS kernel with
// the general view carried those paths inlined at every slot access: its SFQ build's bfs_queue
// was 4,424 SASS instructions, 2,536 with this view, compaction's 2,008 (sm_90, NVRTC 13.0.88).
// The layout is the same, so either view works on the same words (one_lap()).
template <bool kOneLap>
struct SfqView {
  static constexpr const char* kName = "sfq";
#if defined(GQ_FAULT_SFQ_EVERY_LAP_FRESH)
  // Planted fault for the checkers: every lap's enqueuer skips the turn read that only lap 0 may
  // skip (put), writing over an element its slot's dequeuer has not taken yet.
  static constexpr bool kEveryLapFresh = true;
#else
  static constexpr bool kEveryLapFresh = false;
#endif
  static constexpr uint64_t kMaxCapacity = 1ull << 40;
  static constexpr uint64_t kLine = kHotStride;  // Head and Tail served apart (arch.cuh)
  static constexpr uint64_t kHead = 0, kTail = kLine, kSlots = 2 * kLine;

  uint64_t* base;
  uint64_t n;
  uint64_t* stats;  // counter rows after the slots (queue_stats.cuh; none without GQ_QUEUE_STATS)

  // `threads` sizes only the counter rows: SFQ's own layout does not depend on it.
  GQ_HD static uint64_t words(uint64_t n, uint64_t threads) { return hot_round_up(kSlots + n + stat_words(threads)); }
  GQ_HD static SfqView view(uint64_t* base, uint64_t n, uint64_t) { return SfqView{base, n, base + kSlots + n}; }
  // The same queue through the one-lap view (kOneLap above): for a caller that never draws n
  // tickets of a kind between resets.
  GQ_HD SfqView<true> one_lap() const { return SfqView<true>{base, n, stats}; }
  GQ_HD static const uint64_t* stat_rows(const uint64_t* base, uint64_t n, uint64_t) { return base + kSlots + n; }
  GQ_HD static void stats_sum(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
    stat_sum(stat_rows(base, n, threads), threads, out);
  }
  GQ_HD static uint64_t initial_word(uint64_t, uint64_t, uint64_t) { return 0; }
  // The queue as one thread leaves it after enqueues of item(0), ..., item(k - 1) on a fresh queue,
  // k <= n (queue_fill.cuh): Tail at k and slot j holding item(j) at lap 0's turn 1, word for word
  // (blocking or not: the enqueues take tickets 0 .. k - 1 either way). The tile renderer's queues
  // are built so (rt/tile_queues_blocking.h).
  template <class Items>
  GQ_HD static uint64_t filled_word(uint64_t i, uint64_t n, uint64_t, uint64_t k, const Items& item) {
    if (i == kTail) return k;
    if (i >= kSlots && i - kSlots < (k < n ? k : n)) return (1ull << 32) | item(i - kSlots);
    return 0;
  }
  GQ_HD static bool fill_skips(uint64_t, uint64_t, uint64_t) { return false; }

  GQ_HD uint64_t* head() const { return base + kHead; }
  GQ_HD uint64_t* tail() const { return base + kTail; }
  // Tail's low half (the first word on the little-endian GPU and hosts): the enqueue tickets drawn
  // so far, modulo 2^32, for a reader that knows the queue quiet (the queue BFS reads it after a
  // level's barrier as the number of elements its levels have put in, sssp/bfs_queue.h).
  GQ_HD const uint32_t* tail_low() const { return reinterpret_cast<const uint32_t*>(base + kTail); }
  // Ticket t's slot and lap. On lap 0 (a queue that never wraps, as the queue BFS's, never leaves
  // it) without the 64-bit division, which stands between a ticket and its slot's access: some
  // twenty dependent instructions, a subroutine call once t is past 2^32 (sm_90 SASS).
  GQ_HD uint64_t index_of(uint64_t t) const {
    if constexpr (kOneLap) return t;
    return t < n ? t : t % n;
  }
  GQ_HD uint32_t lap(uint64_t t) const {
    if constexpr (kOneLap) return 0u;
    return t < n ? 0u : (uint32_t)(t / n);
  }

  GQ_HD uint64_t* slot(uint64_t t) const { return base + kSlots + index_of(t); }
  GQ_HD static uint32_t turn_of(uint64_t w) { return (uint32_t)(w >> 32); }

  // Slot hand-over for an already claimed ticket: wait for the turn, then write or read.
  // Memory order. The value travels in the slot word itself, so only one thing needs more than
  // relaxed: what the enqueuer wrote before its enqueue must be visible to the dequeuer that takes
  // the value (message passing: a payload behind an index), hence the value's store is a release
  // and the dequeuer's read of it an acquire. The other two accesses touch only that word: the
  // enqueuer's wait for its turn is followed by its store to the same word, and the dequeuer's
  // hand-back follows its read of the same word, both kept in order by coherence (a write after a
  // read of one location in program order comes later in its order of writes); nobody reads
  // anything else on the strength of either. So both are relaxed, and the hand-back needs no fence.
  // (No decision here reads one location on the strength of another, as sCQ's unsafe-slot test
  // does.)
  // The tickets are acquire fetch-adds: a ticket only has to be unique and to come before its
  // slot's accesses; what the thread did earlier reaches the partner through the release above,
  // and a ticket drawn after another thread's operation returned is a later one, as with a fence.
  //
  // Lap 0 needs no wait: a slot's first writer is the enqueuer of its lap-0 ticket (the slot's
  // dequeuer of lap 0 waits for turn 1, which only that enqueuer writes), so on a queue that
  // started empty, with turns and tickets 0, ticket t < n finds turn 0 without reading it. A queue
  // that never wraps, as the queue BFS's (capacity the vertex count, sssp/bfs_queue.h), so never
  // reads a turn to enqueue. (A 32-bit turn of 0 also comes back at lap 2^31, hence t < n, not
  // want == 0.)
  //
  // `Publish` is the order of that message passing: the default release/acquire pair, or relaxed
  // where the caller orders the enqueuer's writes before the dequeuer's reads by other means (the
  // queue BFS: a level enqueues only into the queue the next level drains, and the grid barrier
  // between them is a release and an acquire for every thread).
  template <mo Publish = mo::release>
  GQ_HD bool put(uint64_t t, uint32_t v, const ErrorFlag& err) const {
    if (kOneLap && t >= n) return false;  // refused (kOneLap)
    const uint32_t want = 2u * lap(t);
    if (!kOneLap && t >= n && !kEveryLapFresh) {
      Spin spin;
      while (turn_of(load<mo::relaxed>(slot(t))) != want)
        if (!spin.step(err, kSiteSfqEnqueueTurn, t)) return false;
    }
    store<Publish>(slot(t), ((uint64_t)(want + 1u) << 32) | v);
    return true;
  }
  template <mo Publish = mo::release>
  GQ_HD bool take(uint64_t t, uint32_t* out, const ErrorFlag& err) const {
    constexpr mo kRead = Publish == mo::relaxed ? mo::relaxed : mo::acquire;
    if (kOneLap && t >= n) {  // its element was refused (kOneLap)
      err.raise(kCapacity, kSiteSfqDequeueTurn, t);
      return false;
    }
    const uint32_t want = 2u * lap(t) + 1u;
    Spin spin;
    uint64_t w;
#if defined(GQ_FAULT_SFQ_NO_TURN)
    // Planted fault for the checkers: read the slot without waiting for the enqueuer's turn.
    w = load<kRead>(slot(t));
    (void)spin;
#else
    while (turn_of(w = load<kRead>(slot(t))) != want)
      if (!spin.step(err, kSiteSfqDequeueTurn, t)) return false;
#endif
    *out = (uint32_t)w;
    hand_back(t);
    return true;
  }
  // The dequeue of ticket t in two steps, for a caller that holds t before its element can be
  // there and would rather look than wait (the queue BFS: during the grid barrier before t's
  // level, sssp/bfs_queue.h). peek: one read of t's slot, true with the element if t's enqueuer
  // has written it; nothing changes. hand_back: the slot to its next lap, which completes the
  // dequeue of an element peek saw (take's last step). Lap 0 only: the one-lap view's.
  template <mo Publish = mo::release>
  GQ_HD bool peek(uint64_t t, uint32_t* out) const {
    static_assert(kOneLap, "peek: lap 0 only (the one-lap view)");
    constexpr mo kRead = Publish == mo::relaxed ? mo::relaxed : mo::acquire;
    if (t >= n) return false;
    const uint64_t w = load<kRead>(slot(t));
    if (turn_of(w) != 1u) return false;
    *out = (uint32_t)w;
    return true;
  }
  GQ_HD void hand_back(uint64_t t) const { store<mo::relaxed>(slot(t), (uint64_t)(2u * lap(t) + 2u) << 32); }

  // For a caller that holds dequeue tickets ahead of the elements (the tile renderer,
  // rt/tile_queues_blocking.h). shows: the elements not yet ticketed, Tail - Head by two relaxed
  // reads, a hint (below zero while tickets wait ahead of the enqueues). claim_once: the
  // non-waiting claim of try_dequeue tried once, a CAS from Head to Head + 1 where Head was below
  // Tail: true with the ticket in *t, whose element has been enqueued or is being written (its
  // enqueuer drew Tail past it), so its slot is never waited for long. Relaxed: a ticket only has to
  // be unique; the slot's read (peek, take) orders the element's payload.
  GQ_HD int64_t shows() const { return (int64_t)(load<mo::relaxed>(tail()) - load<mo::relaxed>(head())); }
  GQ_HD bool claim_once(uint64_t* t) const {
    const uint64_t h = load<mo::relaxed>(head());
    if (h >= load<mo::relaxed>(tail()) || cas<mo::relaxed>(head(), h, h + 1) != h) return false;
    *t = h;
    return true;
  }

  // Blocking interface.
  GQ_HD bool enqueue(uint32_t v, uint32_t, const ErrorFlag& err) const {
    return put(wave_faa<mo::acquire>(tail()), v, err);
  }
  // `Publish` as put's; relaxed, the ticket is a relaxed fetch-add too (the slot's read waits for
  // its value anyway).
  template <mo Publish = mo::release>
  GQ_HD bool dequeue(uint32_t* out, uint32_t, const ErrorFlag& err) const {
    constexpr mo kTicket = Publish == mo::relaxed ? mo::relaxed : mo::acquire;
    return take<Publish>(wave_faa<kTicket>(head()), out, err);
  }

  // Blocking enqueue of several elements a lane: v[j] for each j < K with use[j], in j order, as
  // that many enqueues one after another would. The group's tickets come from one fetch-add
  // (wave_faa_n: a lane's are consecutive), and the slots' turns are read together, then written
  // behind one fence, so the lane's elements cost one round trip, not one each (the queue BFS's
  // emits, sssp/bfs_queue.h); on lap 0 (put says why) no turn is read and the elements cost just
  // the ticket. A slot whose turn has not come is waited for as `put` waits. A lane holds its
  // tickets while it waits for any of them, so with the blocking dequeue it needs the queue to
  // have room for every lane's batch at once (the BFS's: a frontier, at most n). `Publish` as
  // put's (relaxed: no fence, and a relaxed ticket). kWholeWarp as wave_faa_n's: every lane of the
  // warp calls, on this queue.
  template <uint32_t K, mo Publish = mo::release, bool kWholeWarp = false>
  GQ_HD bool enqueue_batch(const uint32_t* v, const bool* use, const ErrorFlag& err) const {
    constexpr mo kTicket = Publish == mo::relaxed ? mo::relaxed : mo::acquire;
    uint32_t count = 0;
    for (uint32_t j = 0; j < K; ++j) count += use[j] ? 1u : 0u;
    const uint64_t first = wave_faa_n<kTicket, K, kWholeWarp>(tail(), count);
    // Ticket first + i is slot (first % n) + i, wrapped, of lap first / n plus the wraps: at most
    // one 64-bit division for the batch (a lane's tickets may wrap more than once when n < K).
    uint64_t at[K];
    uint32_t lap_of[K];
    uint64_t s = index_of(first);
    uint32_t lp = lap(first);
    bool ready = true;
    // The batch's last ticket on lap 0: no turn to read (the test is the whole lane's, so the
    // loop below compiles once without loads).
    if (kOneLap && first + count > n) return false;  // refused (kOneLap); tickets drawn, none written
    const bool fresh = kOneLap || first + count <= n || kEveryLapFresh;
    for (uint32_t j = 0; j < K; ++j) {
      at[j] = s;
      lap_of[j] = lp;
      if (use[j]) {
        // The load first, so that every one of them is issued whatever the others found.
        if (!fresh) ready = turn_of(load<mo::relaxed>(base + kSlots + s)) == 2u * lp && ready;
        if (++s == n && !kOneLap) {
          s = 0;
          ++lp;
        }
      }
    }
    if (ready) {
      fence<Publish>();  // one fence for the batch (none when relaxed): each store is then a release
      for (uint32_t j = 0; j < K; ++j)
        if (use[j]) store<mo::relaxed>(base + kSlots + at[j], ((uint64_t)(2u * lap_of[j] + 1u) << 32) | v[j]);
      return true;
    }
    // Some turn has not come: every element through `put`, in order (a ready slot's turn cannot
    // move on before this lane writes it).
    for (uint32_t j = 0, i = 0; j < K; ++j)
      if (use[j] && !put<Publish>(first + i++, v[j], err)) return false;
    return true;
  }

  // Non-waiting interface: false means FULL / EMPTY (or, with the error flag raised, gave up).
  // Counted (GQ_QUEUE_STATS): a lost claim CAS is both a CAS failure and a retry. The claim's CAS
  // is spelt generic even where a kernel file spells its atomics .global (arch.cuh): so spelt, the
  // balanced benchmark kernel ran 1.3-1.75x faster (H200, run 344: 58c95f7 against b565119; H100,
  // run 349: this CAS alone, all of it), the splits the same. The SASS differs only in what follows
  // the CAS: the generic form's shared-memory emulation, branched over for a global address, inside
  // a convergence region (BSSY/BSYNC), so a warp's lanes meet again after each claim CAS; that
  // this is what pays is a reading, not measured.
  GQ_HD bool try_enqueue(uint32_t v, uint32_t tid, const ErrorFlag& err) const {
    Spin spin(GQ_CLAIM_BUDGET);
    const StatRow stat{stats, tid};
    for (;;) {
      const uint64_t t = load<mo::seq_cst>(tail());
      const uint64_t h = load<mo::seq_cst>(head());
      if ((int64_t)(t - h) >= (int64_t)n) return false;  // FULL, at the Head read
      if (cas_generic<mo::seq_cst>(tail(), t, t + 1) == t) {
        const bool ok = put(t, v, err);
        if (ok) stat.add(kStatOk);
        return ok;
      }
      stat.add(kStatCasFails);
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteSfqClaim, t)) return false;
    }
  }
  GQ_HD bool try_dequeue(uint32_t* out, uint32_t tid, const ErrorFlag& err) const {
    Spin spin(GQ_CLAIM_BUDGET);
    const StatRow stat{stats, tid};
    for (;;) {
      const uint64_t h = load<mo::seq_cst>(head());
      const uint64_t t = load<mo::seq_cst>(tail());
      if ((int64_t)(t - h) <= 0) return false;  // EMPTY, at the Tail read
      if (cas_generic<mo::seq_cst>(head(), h, h + 1) == h) {
        const bool ok = take(h, out, err);
        if (ok) stat.add(kStatOk);
        return ok;
      }
      stat.add(kStatCasFails);
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteSfqClaim, h)) return false;
    }
  }
};
using Sfq = SfqView<false>;

}  // namespace gq
