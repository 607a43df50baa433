// sssp/level_bucket_heap.h — parBucketHeap with one thread block a level (seed 000, Section 3:
// "each thread block (i.e., level of the parBucketHeap) has a designated global memory location
// that is used to signal the particular thread block to execute Empty(S_i) and/or Fill(B_i)"),
// running the block form's Empty and Fill (block_bucket_heap.h) under the LevelSched below.
//
// Block 0 owns level 0 and runs the client's operations (BulkUpdate, ExtractMin). Block i >= 1
// serves level i: it waits for a request in its mailbox (req[i] = sequence << 2 | op), runs
// Empty(S_i) or Fill(B_i), and acknowledges (ack[i] = sequence). Where the one-block form recurses
// into level i + 1, block i asks block i + 1 and waits for the acknowledgement. Requests only go
// down, and a block waits only on the block below it, so no wait can close a cycle.
//
// Levels that are not adjacent work at once: after block i merges entries down into S_{i+1} and
// S_{i+1} is at least half full, it asks block i + 1 to empty it and does NOT wait (the seed's
// "if its signal buffer becomes sufficiently full ... it is emptied"). Block i goes on with its own
// work while block i + 1 empties S_{i+1}, and block i + 1 may in turn start block i + 2.
// Before block i touches level i + 1 again (reads its sizes, merges into S_{i+1}, takes from
// B_{i+1}), it waits until block i + 1 has acknowledged (settle), so one block at a time touches a
// level's lists. Fill is always waited for.
//
// The one reading across that rule is deeper_nonempty(i): whether any level below i holds an
// entry, read by block i while blocks further down may be emptying. Those moves only go down, and
// each writes the level it moves entries into before it clears the level they leave (empty_at's
// order of set_sizes), with both sizes of a level in one 64-bit word. Reading the levels top
// down, each with an acquire load, a reader that finds a level emptied by a move then sees the
// level below as that move left it, so it cannot miss entries in flight: it may only see entries
// that are about to leave, which makes it answer "nonempty" when the rest below is nothing but
// DELs about to be dropped. That answer only sends entries or DELs down needlessly; the other
// (a false "empty") would break the buckets' order, and cannot happen. Thread 0 reads, and the
// block takes its answer (Block::uniform), so every thread takes one path.
//
// Each level has two scratch lists of its own (a level's Empty may run while the level above
// merges), of 2d 4^(i+1) entries each: what Empty(S_i) merges (at most |S_i| + |B_i| = 3d 4^i)
// and what Fill(B_i) lifts from B_{i+1} (at most 2d 4^(i+1)).
//
// Every wait counts against a spin budget (gq::Spin, about a second): a lost partner ends the run
// with kSpinBudget at kSiteBucketHeap (detail: the level) instead of hanging it, and once the
// error flag is up every wait gives up at once, so all blocks leave. That includes a serving
// block's wait for its next request: a client that leaves a level alone for longer than the
// budget ends the run too (programs of heap operations do not; a parDijkstra on this form would
// have to keep its levels' waits apart from its relaxation rounds).
#pragma once
#include "block_bucket_heap.h"

namespace sssp {

enum LevelOp : uint32_t { kLevelEmpty = 1, kLevelFill = 2, kLevelStop = 3 };

struct LevelSched {
  const BlockBucketHeap* heap;
  gq::HeapEntry* scratch_mem;  // scratch_entries(d, levels) entries
  uint32_t* req;               // [levels]: sequence << 2 | op, written by block i - 1 (thread 0)
  uint32_t* ack;               // [levels]: the last sequence block i finished, written by block i

  GQ_HD static uint64_t scratch_len(uint32_t d, uint32_t i) { return (uint64_t)d << (2 * i + 3); }
  // Levels 0 .. i-1's two lists each: sum of 2 * 2d 4^(j+1) = 16 d (4^i - 1) / 3.
  GQ_HD static uint64_t scratch_offset(uint32_t d, uint32_t i) { return 16ull * d * ((1ull << (2 * i)) - 1) / 3; }
  GQ_HD static uint64_t scratch_entries(uint32_t d, uint32_t levels) { return scratch_offset(d, levels); }

  GQ_HD uint32_t levels() const { return heap->h.levels; }
  GQ_HD gq::HeapEntry* scratch(uint32_t i, uint32_t k) const {
    return scratch_mem + scratch_offset(heap->h.d, i) + k * scratch_len(heap->h.d, i);
  }

  // Every thread calls it; returns once block j has acknowledged every request it was sent
  // (at once for a level that does not exist). Thread 0 waits; the barrier after it passes the
  // acquire on to the block's other threads.
  GQ_HD void wait_idle(const Block& b, uint32_t j) const {
    if (j >= levels()) return;
    if (b.thread == 0) {
      const uint32_t want = gq::load<gq::mo::relaxed>(req + j) >> 2;  // this block alone writes req[j]
      gq::Spin spin;
      while (gq::load<gq::mo::acquire>(ack + j) != want)
        if (!spin.step(b.err, gq::kSiteBucketHeap, j)) break;
      gq::fence<gq::mo::acq_rel>();  // as grid.h's barrier: what block j wrote, for every thread here
    }
    b.sync();
  }
  // Sends `op` to block j once it is idle. Its barrier orders this block's writes of level j's
  // lists before thread 0's release of the request.
  GQ_HD void post(const Block& b, uint32_t j, uint32_t op) const {
    wait_idle(b, j);
    if (b.thread == 0 && !b.err.raised()) {
      gq::fence<gq::mo::acq_rel>();
      const uint32_t seq = (gq::load<gq::mo::relaxed>(req + j) >> 2) + 1;
      gq::store<gq::mo::release>(req + j, (seq << 2) | op);
    }
  }
  // Sends `op` to block j and waits for it; false (the same in every thread) if the run failed.
  GQ_HD bool call(const Block& b, uint32_t j, uint32_t op) const {
    post(b, j, op);
    wait_idle(b, j);
    return b.uniform(!b.err.raised());
  }

  // The Sched interface of BlockBucketHeap::empty_at and fill_at.
  GQ_HD bool empty(const Block& b, uint32_t j) const { return call(b, j, kLevelEmpty); }
  GQ_HD bool fill(const Block& b, uint32_t j) const { return call(b, j, kLevelFill); }
  GQ_HD void settle(const Block& b, uint32_t i) const { wait_idle(b, i + 1); }
  GQ_HD void spilled(const Block& b, uint32_t j) const {
    if (j < levels() && 2ull * heap->ns(j) >= gq::BucketHeap::s_cap(heap->h.d, j)) post(b, j, kLevelEmpty);
  }
  GQ_HD bool deeper_nonempty(const Block& b, uint32_t i) const {
    bool any = false;
    if (b.thread == 0)
      for (uint32_t j = i + 1; j < levels() && !any; ++j)
        any = gq::load<gq::mo::acquire>(reinterpret_cast<const uint64_t*>(heap->h.sizes + 2 * j)) != 0u;
    return b.uniform(any);
  }
  // Both sizes of level i in one release store (|B_i| in the low word, as BucketHeap lays them).
  GQ_HD void set_sizes(const Block& b, uint32_t i, uint32_t nb, uint32_t ns) const {
    b.sync();  // every thread has read the old sizes
    if (b.thread == 0)
      gq::store<gq::mo::release>(reinterpret_cast<uint64_t*>(heap->h.sizes + 2 * i), ((uint64_t)ns << 32) | nb);
    b.sync();
  }
};

// Block i >= 1: serve level i until told to stop (or the run fails).
GQ_HD inline void serve_level(const Block& b, uint32_t i, const LevelSched& sched) {
  const BlockBucketHeap& heap = *sched.heap;
  uint32_t done = 0;
  for (;;) {
    if (b.thread == 0) {
      uint32_t word = gq::load<gq::mo::acquire>(sched.req + i);
      gq::Spin spin;
      while ((word >> 2) == done && spin.step(b.err, gq::kSiteBucketHeap, i))
        word = gq::load<gq::mo::acquire>(sched.req + i);
      gq::fence<gq::mo::acq_rel>();  // what the block above wrote of this level, for every thread
      b.scratch->words[1] = (word >> 2) == done || b.err.raised() ? 0u : word;  // 0: the run failed
    }
    b.sync();
    const uint32_t word = b.scratch->words[1];
    b.sync();
    if (word == 0u) return;
    const uint32_t op = word & 3u;
    if (op == kLevelStop) {
      if (i + 1 < heap.h.levels) sched.call(b, i + 1, kLevelStop);
    } else if (op == kLevelEmpty) {
      heap.empty_at(b, i, sched);
    } else {
      heap.fill_at(b, i, sched);
    }
    b.sync();  // the block's writes of levels i and i + 1, before the acknowledgement
    done = word >> 2;
    if (b.thread == 0) {
      gq::fence<gq::mo::acq_rel>();
      gq::store<gq::mo::release>(sched.ack + i, done);
    }
    if (op == kLevelStop) return;
  }
}

}  // namespace sssp
