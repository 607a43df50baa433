// gq/queue_fill.cuh — a queue constructed already holding items: word for word the state one
// thread leaves by enqueuing item(0), ..., item(k - 1) into a fresh queue, written by a plain
// initialisation pass instead of k operations.
//
// Why: a caller that starts with work to hand out (the tile renderer's primary blocks, 64,800 at
// 1920x1080) paid a launch of k real enqueues, each a chain of dependent atomics, before its
// workers could start (0.05 ms of a 0.9 ms cornell render on the H200, run 161). The state those
// enqueues reach from a fresh queue is fixed: each takes the next free index in order and puts it
// behind the last. A queue whose state it can write (G-LFQ, G-WFQ and SFQ: Glfq::filled_word,
// Gwfq::filled_word, SfqView::filled_word) is built in it; any other is built empty and the caller enqueues
// (queue_can_fill says which). Nothing about the queue's operations changes, and a state reached
// by sequential operations before any concurrent one is a legal start for every history.
// tests/queues_cuda/test_queue_fill.py holds each filled state against real enqueues.
#pragma once
#include "arch.cuh"

namespace gq {

// Word w of the payload pool (uint32 pool[n], two to a word, low half first) of G-LFQ and G-WFQ
// after the enqueues of items 0 .. k-1, which took indices 0 .. k-1; past the pool's words (the
// counter rows), 0.
template <class Items>
GQ_HD uint64_t pool_word(uint64_t w, uint64_t n, uint64_t k, const Items& item) {
  if (w >= (n + 1) / 2) return 0;
  const uint64_t j = 2 * w;
  const uint64_t lo = j < k ? (uint64_t)item(j) : 0u, hi = j + 1 < k ? (uint64_t)item(j + 1) : 0u;
  return hi << 32 | lo;
}

struct NoItems {
  GQ_HD uint32_t operator()(uint64_t) const { return 0; }
};

// Whether Q offers filled_word(i, n, threads, k, item).
template <class Q, class = void>
struct QueueCanFill {
  static constexpr bool value = false;
};
template <class Q>
struct QueueCanFill<Q, decltype((void)Q::filled_word(0, 1, 1, 0, NoItems{}))> {
  static constexpr bool value = true;
};
template <class Q>
constexpr bool queue_can_fill = QueueCanFill<Q>::value;

// Word i of a queue of capacity n for `threads` users holding item(0) .. item(k - 1), k <= n, or
// of an empty one where Q cannot be built filled (the caller then enqueues them itself).
template <class Q, class Items>
GQ_HD uint64_t queue_filled_word(uint64_t i, uint64_t n, uint64_t threads, uint64_t k, const Items& item) {
  if constexpr (queue_can_fill<Q>)
    return Q::filled_word(i, n, threads, k, item);
  else
    return Q::initial_word(i, n, threads);
}

// Whether word i is one Q's filled build leaves as a fresh queue has it (Q::fill_skips; none where
// Q cannot be built filled).
template <class Q>
GQ_HD bool queue_fill_skips(uint64_t i, uint64_t n, uint64_t threads) {
  if constexpr (queue_can_fill<Q>)
    return Q::fill_skips(i, n, threads);
  else
    return false;
}

}  // namespace gq
