// gq/queue_op.cuh — one queue operation whose kind (enqueue or dequeue) is known only at run time.
//
// `*value` is the item in for an enqueue, the item out for a dequeue. By default this is a branch
// to try_enqueue or try_dequeue, which inlines both operations' code. A queue whose two operations
// share one code path overloads it (glfq.cuh, gwfq.cuh): a caller that makes both kinds of operation from one
// call site then inlines that path once, and lanes of one warp making different operations run the
// same instructions together instead of one branch after the other. Callers: the tile renderer's
// queue phase (raytrace/include/rt/tile_queues.h), and the recorded histories (history.cuh) and
// the FIFO conformance run's balanced threads (fifo_tokens.cuh), which thereby check the very path
// the renderer runs.
#pragma once
#include "arch.cuh"

namespace gq {

template <class Q>
GQ_HD GQ_INLINE bool queue_op(const Q& q, bool enqueue, uint32_t* value, uint32_t tid, const ErrorFlag& err) {
  return enqueue ? q.try_enqueue(*value, tid, err) : q.try_dequeue(value, tid, err);
}

}  // namespace gq
