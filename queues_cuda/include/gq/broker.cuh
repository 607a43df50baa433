// gq/broker.cuh — the Broker Queue (Kerbl, Kenzel, Mueller, Schmalstieg and Steinberger, "The
// Broker Queue: A Fast, Linearizable FIFO Queue for Fine-Granular Work Distribution on the GPU",
// ICS 2018). The paper's names: Count (the element count that admits operations), Head and Tail
// (ticket counters), the ring of N slots and its tickets; ensureEnqueue / ensureDequeue reserve in
// Count, putData / readData take a ticket and wait for the slot's turn.
//
//   enqueue(v): ensureEnqueue: read Count; if it is N or more, FULL. Else fetch-add +1; a result
//               below N reserved room, otherwise undo with fetch-add -1 and decide again from what
//               the undo returned. putData: t = fetch-add Tail; wait until slot t mod N shows turn
//               2 floor(t / N); write v with turn 2 floor(t / N) + 1.
//   dequeue():  ensureDequeue: the same on Count with -1 and limit 0 (EMPTY). readData:
//               h = fetch-add Head; wait for turn 2 floor(h / N) + 1; read; hand the slot on with
//               turn 2 floor(h / N) + 2.
// The paper keeps values and tickets in two arrays (value written, then ticket published); here a
// slot is one word {turn:32 | value:32}, so one release store publishes both. Turns advance one
// ticket at a time and a waiting thread is at most a few laps ahead of its slot's turn, far from
// the 2^31 laps at which 32-bit turns would alias, so comparing them for equality is safe.
//
// NOT LINEARIZABLE against the strict bounded FIFO (queues.py registers it apart from the queues
// that claim it; `gq queues check --queue broker` shows a refuting history). The order in which
// operations reserve units of Count need not be the order in which they take Head (Tail) tickets,
// and an EMPTY (FULL) answer is decided by Count alone. The shortest refutation (the replay in
// queues_cuda/broker_history.py, checked by tests/queues_cuda/test_broker.py):
//   E1(x) completes (Count 1, x in slot 0). D1 reserves x's unit (Count 1 -> 0) and is delayed
//   before its Head ticket. D2 reads Count 0 and returns EMPTY. E2(y) completes (Count 1, y in
//   slot 1). D3 reserves (Count 1 -> 0), takes Head ticket 0 and returns x; D1 takes ticket 1 and
//   returns y. D2's EMPTY needs x removed before it, but only D3, invoked after D2 returned,
//   removes x: no order of the five operations explains the answers.
// The paper's fetch-add reservations add a second cause: a reservation about to be undone moves
// Count outside [0, N] for a moment, so a FULL (EMPTY) answer can also come while the queue holds
// fewer than N (more than 0) elements. A compare-and-swap reservation would remove only this one.
// Measured on the CPU runtime (64 threads, 512 operations a history): 54 of 200 histories at
// capacities 1, 2, 3 and 1024 refuted, 32 still with their FULL answers removed, 19 still with
// their EMPTY answers removed; 14 of 40 at capacity 1024, where nothing is ever FULL.
//
// What does hold: every execution's SUCCESSFUL operations alone are linearizable. Enqueue t at
// E(t) = max(its Tail fetch-add, D(t - N)) (just the fetch-add for t < N), dequeue h at
// D(h) = max(its Head fetch-add, E(h)), a dequeue first where two points coincide: both sequences
// increase with the ticket, each point lies inside its operation (an enqueue waits for dequeue
// t - N before it writes, a dequeue for enqueue h before it reads), the queue never holds more
// than N elements at an E(t), and the element at the front at D(h) is ticket h's.
// FIFO order per producer follows. Both are checked: the history check on histories with their
// FULL and EMPTY answers removed (none of the 240 above refuted), and the FIFO token run.
//
// Every wait is bounded (arch.cuh Spin): a reservation loop that keeps undoing, or a slot whose
// partner never arrives, raises the error flag and gives up instead of hanging.
#pragma once
#include "arch.cuh"
#include "queue_stats.cuh"

namespace gq {

struct Broker {
  static constexpr const char* kName = "broker";
  static constexpr uint64_t kMaxCapacity = 1ull << 40;
  static constexpr uint64_t kLine = kHotStride;  // Count, Head and Tail served apart (arch.cuh)
  static constexpr uint64_t kCount = 0, kHead = kLine, kTail = 2 * kLine, kSlots = 3 * kLine;

  uint64_t* base;
  uint64_t n;
  uint64_t* stats;  // counter rows after the slots (queue_stats.cuh; none without GQ_QUEUE_STATS)

  // `threads` sizes only the counter rows.
  GQ_HD static uint64_t words(uint64_t n, uint64_t threads) { return hot_round_up(kSlots + n + stat_words(threads)); }
  GQ_HD static Broker view(uint64_t* base, uint64_t n, uint64_t) { return Broker{base, n, base + kSlots + n}; }
  GQ_HD static const uint64_t* stat_rows(const uint64_t* base, uint64_t n, uint64_t) { return base + kSlots + n; }
  GQ_HD static void stats_sum(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
    stat_sum(stat_rows(base, n, threads), threads, out);
  }
  GQ_HD static uint64_t initial_word(uint64_t, uint64_t, uint64_t) { return 0; }

  GQ_HD uint64_t* count() const { return base + kCount; }
  GQ_HD uint64_t* head() const { return base + kHead; }
  GQ_HD uint64_t* tail() const { return base + kTail; }
  GQ_HD uint64_t* slot(uint64_t t) const { return base + kSlots + t % n; }
  GQ_HD static uint32_t turn_of(uint64_t w) { return (uint32_t)(w >> 32); }
  GQ_HD uint32_t lap(uint64_t t) const { return (uint32_t)(t / n); }

  GQ_HD bool refused(int64_t delta, int64_t num) const { return delta > 0 ? num >= (int64_t)n : num <= 0; }

  // ensureEnqueue (`delta` +1: room, refused at N) and ensureDequeue (`delta` -1: an element,
  // refused at 0). Count is a signed number in a 64-bit word. seq_cst throughout: FULL and EMPTY
  // are decided by these reads alone. A fetch-add that overshot is undone, and the undo's result
  // is the next reading; each undo counts as a retry (kStatRetries).
  GQ_HD bool reserve(int64_t delta, const ErrorFlag& err, const StatRow& stat) const {
    int64_t num = (int64_t)load<mo::seq_cst>(count());
    Spin spin(GQ_CLAIM_BUDGET);
    for (;;) {
      if (refused(delta, num)) return false;
      if (!refused(delta, (int64_t)fetch_add<mo::seq_cst>(count(), (uint64_t)delta))) return true;
      num = (int64_t)fetch_add<mo::seq_cst>(count(), (uint64_t)-delta) - delta;
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteBrokerReserve, (uint64_t)num)) return false;
    }
  }

  // putData: ticket t is committed; the dequeuer of ticket t - N (reserved before this thread's
  // room was) hands the slot over.
  GQ_HD bool put_data(uint32_t v, const ErrorFlag& err) const {
    const uint64_t t = fetch_add<mo::seq_cst>(tail(), 1ull);
#if defined(GQ_FAULT_BROKER_SWAP_PAIRS)
    // Planted fault for the tests: tickets 2k and 2k + 1 write each other's slot, so their
    // elements come out in swapped order. With an even capacity both lie in one lap and the turns
    // stay consistent: nothing waits forever, only the order is wrong.
    const uint64_t s = t ^ 1ull;
#else
    const uint64_t s = t;
#endif
    const uint32_t want = 2u * lap(t);
    Spin spin;
    while (turn_of(load<mo::acquire>(slot(s))) != want)
      if (!spin.step(err, kSiteBrokerTurn, t)) return false;
    store<mo::release>(slot(s), ((uint64_t)(want + 1u) << 32) | v);
    return true;
  }

  // readData: ticket h is committed; its enqueuer (reserved before this thread's element was)
  // writes the slot.
  GQ_HD bool read_data(uint32_t* out, const ErrorFlag& err) const {
    const uint64_t h = fetch_add<mo::seq_cst>(head(), 1ull);
    const uint32_t want = 2u * lap(h) + 1u;
    Spin spin;
    uint64_t w;
    while (turn_of(w = load<mo::acquire>(slot(h))) != want)
      if (!spin.step(err, kSiteBrokerTurn, h)) return false;
    *out = (uint32_t)w;
    store<mo::release>(slot(h), (uint64_t)(want + 1u) << 32);
    return true;
  }

  // false: FULL / EMPTY (or, with the error flag raised, gave up). There is no blocking form:
  // the paper's queue answers FULL and EMPTY. An EMPTY answer on an empty queue is one load of
  // Count and writes nothing, so pollers of many queues just call try_dequeue.
  GQ_HD bool try_enqueue(uint32_t v, uint32_t tid, const ErrorFlag& err) const {
    const StatRow stat{stats, tid};
    if (!reserve(+1, err, stat) || !put_data(v, err)) return false;
    stat.add(kStatOk);
    return true;
  }
  GQ_HD bool try_dequeue(uint32_t* out, uint32_t tid, const ErrorFlag& err) const {
    const StatRow stat{stats, tid};
    if (!reserve(-1, err, stat) || !read_data(out, err)) return false;
    stat.add(kStatOk);
    return true;
  }
};

}  // namespace gq
