// gq/queue_select.cuh — picks the queue a build is made for: `-DGQ_QUEUE_KIND=<id>` (Python
// injects it; the ids are those of queues_cuda/queues.py). Every queue offers the same surface:
//   words(n, threads), view(base, n, threads), initial_word(i, n, threads),
//   try_enqueue(v, tid, err), try_dequeue(&v, tid, err)
// for capacity n used by at most `threads` threads,
// and, where the algorithm has one, the blocking enqueue/dequeue; queues with slow-path counters
// (queue_stats.cuh) also offer stats_sum(base, n, threads, out). try_dequeue on an empty queue
// takes no ticket and writes nothing (a few loads), so pollers of many queues just call it.
// queue_op(q, enqueue, &v, tid, err) (queue_op.cuh) makes either operation, chosen at run time;
// G-LFQ and G-WFQ overload it with their one transfer path (Glfq::operate, Gwfq::operate).
#pragma once

#ifndef GQ_QUEUE_KIND
#error "define GQ_QUEUE_KIND (1 = glfq, 2 = sfq, 3 = gwfq, 4 = ymc, 5 = broker)"
#endif

#if GQ_QUEUE_KIND == 1
#include "glfq.cuh"
namespace gq { using Queue = Glfq; }
#elif GQ_QUEUE_KIND == 2
#include "sfq.cuh"
// GQ_SFQ_ONE_LAP (a test hook): the build's SFQ is its one-lap view, the one the queue BFS drives
// (sfq.cuh), so that the checkers run on it too, with capacities no run fills twice.
#ifndef GQ_SFQ_ONE_LAP
#define GQ_SFQ_ONE_LAP 0
#endif
namespace gq { using Queue = SfqView<GQ_SFQ_ONE_LAP != 0>; }
#elif GQ_QUEUE_KIND == 3
#include "gwfq.cuh"
namespace gq { using Queue = Gwfq; }
#elif GQ_QUEUE_KIND == 4
#include "ymc.cuh"
namespace gq { using Queue = Ymc; }
#elif GQ_QUEUE_KIND == 5
#include "broker.cuh"
namespace gq { using Queue = Broker; }
#else
#error "unknown GQ_QUEUE_KIND"
#endif
