// gq/blocking.cuh — whether a queue kind offers a blocking interface besides try_enqueue and
// try_dequeue: enqueue(v, tid, err) and dequeue(&v, tid, err), which take a ticket and wait for its
// slot instead of answering FULL or EMPTY, and enqueue_batch<K>(v, use, err), several enqueues a
// lane with one ticket draw (of the kinds here only SFQ, sfq.cuh). Callers that know an element
// waits for every dequeue they make (the FIFO conformance run's balanced threads and its split
// run's producers, fifo_tokens.cuh; the queue BFS, whose level knows its frontier's size,
// sssp/bfs_queue.h) use it.
#pragma once

namespace gq {

template <class Q, class = void> struct has_blocking { static constexpr bool value = false; };
template <class Q>
struct has_blocking<Q, decltype((void)&Q::enqueue)> { static constexpr bool value = true; };

}  // namespace gq
