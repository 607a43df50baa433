// gq/multi_queue.cuh — several queues driven by one warp at once.
//
// Applications keep many queue instances (the tile renderer has one per tile), so the lanes of
// one warp can enqueue into different queues in the same instruction. Every warp-aggregated step
// of the queue layer must then group lanes by the word they target (arch.cuh `peers`); a leader
// that fetch-adds for lanes of another queue hands them that queue's tickets. This thread program
// catches it: thread t uses queue t % queues, so neighbouring lanes always differ; each round it
// enqueues a value naming itself and dequeues one from the same queue. Every value must come out
// exactly once, from the queue it went into.
#pragma once
#include "arch.cuh"

namespace gq {

struct MultiQueueArgs {
  uint64_t* base;     // queues back to back
  uint64_t stride;    // words per queue
  uint64_t capacity;  // each queue's capacity: at least the threads that use it
  uint32_t queues, nthreads, rounds;
  uint32_t* seen;     // nthreads * rounds counters, one per value
};

template <class Queue>
GQ_HD void multi_queue_thread(const MultiQueueArgs& a, uint32_t tid, const ErrorFlag& err) {
  const uint32_t mine = tid % a.queues;
  const Queue q = Queue::view(a.base + (uint64_t)mine * a.stride, a.capacity, a.nthreads);
  for (uint32_t r = 0; r < a.rounds && !err.raised(); ++r) {
    const uint32_t v = tid * a.rounds + r;
    Spin put;
    while (!q.try_enqueue(v, tid, err))
      if (!put.step(err, kSiteMultiQueue, v)) return;
    uint32_t w = 0;
    Spin get;
    while (!q.try_dequeue(&w, tid, err))
      if (!get.step(err, kSiteMultiQueue, tid)) return;
    if (w >= a.nthreads * a.rounds || (w / a.rounds) % a.queues != mine) {
      err.raise(kCorrupt, kSiteMultiQueue, w);  // a value from another queue, or none at all
      return;
    }
    fetch_add<mo::relaxed>(a.seen + w, 1u);
  }
}

}  // namespace gq
