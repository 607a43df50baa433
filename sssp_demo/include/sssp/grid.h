// sssp/grid.h — the grid a persistent shortest-path kernel runs on, and its software grid
// barrier. The grid forms of the algorithms (advance.h, near_far_grid.h, par_dijkstra_grid.h)
// are written once against this struct and compiled twice:
//   * GPU: a block is a CUDA block, `block_sync` is __syncthreads, the clock is %globaltimer;
//   * CPU: a block is ONE std::thread (a warp is one lane wide there, arch.cuh), `block_sync` is
//     nothing, the clock is CLOCK_MONOTONIC. So CI runs the same round loops, counters and
//     barrier with real concurrency, just not the same widths.
//
// The barrier (Xiao and Feng's "GPU lock-based synchronization", generation-counted): each block's
// thread 0 publishes the block's writes with a gpu-scope fence, arrives on one counter, and the
// last arriver resets it and bumps the generation that the others wait on. The counter and the
// generation are the two halves of one 64-bit word, so the arrival's fetch-add also returns the
// generation to wait on, and a stop the leader asked for (a bit in the counter half) reaches the
// last arriver with it: one device-memory round trip to arrive, where a load of the generation,
// the fetch-add and a load of the stop word took three. It is only safe with every block
// resident, so launches never exceed the occupancy API's count. Every wait is a bounded
// gq::Spin: a missing partner ends the kernel with the error flag (kSiteGridBarrier), never a
// hang; once the flag is up every later wait gives up at once, so all blocks leave.
#pragma once
#include <gq/arch.cuh>

namespace sssp {

// A warp on this build, and the mask of all its lanes (the grid forms call warp collectives only
// where every lane of the warp is present: their loops are warp-uniform).
constexpr uint32_t kWarp = GQ_DEVICE_BUILD ? 32u : 1u;
constexpr uint32_t kFullWarp = GQ_DEVICE_BUILD ? 0xffffffffu : 1u;

// Waiting at a barrier behind a long serial step (the heap work of parDijkstra's rank 0, which
// can take milliseconds on a large heap) is legitimate, so the barrier gets 16x the default wait.
#ifndef SSSP_BARRIER_BUDGET
#define SSSP_BARRIER_BUDGET (GQ_SPIN_BUDGET * 16u)
#endif

// Rounds block 0 runs alone before it lets the others through the grid barrier once: bounds how
// long they wait there (a long search on a maze could otherwise outlast the barrier's spin budget).
constexpr uint32_t kMaxLocalRounds = 1024;

// Control words shared by every grid form: the barrier's two words first (one 64-bit word: the
// count in the low half, the generation in the high half; every launcher's words are 8-byte
// aligned), then per-algorithm use. kAbort is the stop as the host and the pollers read it.
enum CtlWord : uint32_t { kBarCount = 0, kBarGeneration = 1, kAbort = 2, kCtlFirstFree = 3 };
constexpr uint32_t kBarStopBit = 1u << 31;  // in the count half: stop at the next barrier
// Polls of the generation between two checks of the error flag and the budget (each poll is a
// device-memory round trip already; a wait here is usually on the critical path).
constexpr uint32_t kBarPollBurst = 8;
// Polls at the start of a wait with no sleep between them (grid.h's sync()).
constexpr uint32_t kBarHotPolls = GQ_DEVICE_BUILD ? 2048u : 0u;

struct Grid {
  uint32_t block, blocks;    // this block, and how many run (all resident)
  uint32_t thread, width;    // this thread in its block, and the block's width
  uint32_t* ctl;             // device words: kBarCount, kBarGeneration, kAbort, then the algorithm's
  uint32_t* verdict;         // one word the block shares (shared memory on the GPU)
  gq::ErrorFlag err;

  GQ_HD uint32_t rank() const { return block * width + thread; }
  GQ_HD GQ_INLINE uint64_t* bar_word() const { return reinterpret_cast<uint64_t*>(ctl + kBarCount); }
  GQ_HD uint32_t size() const { return blocks * width; }
  GQ_HD bool leader() const { return block == 0 && thread == 0; }

  GQ_HD GQ_INLINE void block_sync() const {
#if GQ_DEVICE_BUILD
    __syncthreads();
#endif
  }

  // Nanoseconds on a clock every block reads alike (for the time budget only).
  GQ_HD GQ_INLINE uint64_t now_ns() const {
#if GQ_DEVICE_BUILD
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
#else
    return gq::host_now_ns();
#endif
  }

  // This block alone, as a grid of one block (for rounds small enough for one block: the other
  // blocks wait at the grid barrier meanwhile).
  GQ_HD Grid block_only() const { return Grid{0, 1, thread, width, ctl, verdict, err}; }

  // Block 0, before it works alone while the others wait at the next grid barrier: wait until
  // every other block has arrived there, so none still reads a word block 0 is about to change.
  // (Block 0 then arrives last and releases them.) Bounded like the barrier's own wait.
  GQ_HD void wait_for_others() const {
    if (thread == 0) {
      gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET : GQ_SPIN_BUDGET);
      uint32_t count;
      while ((count = (uint32_t)gq::load<gq::mo::acquire>(bar_word()) & ~kBarStopBit) != blocks - 1)
        if (!spin.step(err, gq::kSiteGridBarrier, count)) break;
    }
    block_sync();
  }

  // The leader, between barriers: every block leaves at the next barrier (sync returns false),
  // and kAbort tells the host and the loops that poll it.
  GQ_HD void request_stop() const {
    gq::store<gq::mo::relaxed>(ctl + kAbort, 1u);
    gq::fetch_or<gq::mo::relaxed>(bar_word(), (uint64_t)kBarStopBit);
  }

  // Thread 0's value of `v` for every thread of the block (a decision that must not diverge).
  GQ_HD GQ_INLINE bool block_uniform(bool v) const {
    block_sync();
    if (thread == 0) gq::store<gq::mo::relaxed>(verdict, v ? 1u : 0u);
    block_sync();
    const bool r = gq::load<gq::mo::relaxed>(verdict) != 0u;
    block_sync();
    return r;
  }

  // Every thread of the grid arrives before any leaves; what any thread wrote before is visible
  // to every thread after. Returns false, for every thread of a block alike, once the error flag
  // is up or the leader asked everyone to stop (kAbort): callers leave their loop then.
  //
  // The stop is decided once per barrier, by the last block to arrive, and published in the low
  // bit of the generation it bumps (the generation moves by 2). Each block reading kAbort for
  // itself after the bump let the leader, already past the barrier, raise kAbort before a slower
  // block had read it: that block left while the others went on to the next barrier and waited
  // there for it until the spin budget ran out (the BFS benchmark's budget stops on road-24M and
  // delaunay-21, run 20). A stop requested before the leader arrives is in the word before the
  // last arrival's read-modify-write (all of them are ordered on the one word), so it is this
  // barrier's; the bit stays, so every later barrier stops too. An error stays each block's own
  // test: it also ends every wait.
  //
  // Ordering by fences around relaxed accesses, as CUDA's cooperative grid.sync() does: a fence
  // before the arrival releases the block's writes; the last arriver, whose fetch-add read every
  // earlier arrival's through the word's chain of read-modify-writes, fences before its bump
  // (acquiring them all and releasing them with its own); a waiter fences after it sees the
  // bump. An acq_rel read-modify-write, acquire polls and a release store took 2.37 us a barrier
  // at one block an SM, the fences 2.24 us (runs 82-83); grid.sync() itself takes 0.99 us (run
  // 81), and what else makes ours slower is not known.
  GQ_HD bool sync() const {
    block_sync();
    if (thread == 0) {
      gq::fence<gq::mo::acq_rel>();  // the block's writes (ordered before by block_sync) go first
      uint64_t* word = bar_word();
      const uint64_t was = gq::fetch_add<gq::mo::relaxed>(word, 1ull);
      const uint32_t gen = (uint32_t)(was >> 32), stop = (uint32_t)was & kBarStopBit;
      uint32_t now = gen;
      if (((uint32_t)was & ~kBarStopBit) == blocks - 1) {
        // Nobody arrives again before the bump, so the count goes back to 0 with it.
        now = ((gen | 1u) + 1u) | (stop ? 1u : 0u);
        gq::fence<gq::mo::acq_rel>();
        gq::store<gq::mo::relaxed>(word, (uint64_t)now << 32 | stop);
      } else {
        // The first kBarHotPolls polls back to back, the error flag read every kBarPollBurst of
        // them: a barrier is usually over within a few round trips (a sleep after every poll:
        // 2.43 us a barrier at one block an SM, without 2.37, runs 81-82). A longer wait (block
        // 0's serial heap work in parDijkstra can take milliseconds) then sleeps, the Spin's
        // growing backoff after every poll, with the flag and the budget every kBarPollBurst
        // polls. The budget counts bursts, so a quarter of the steps keeps about the wall time it
        // allowed.
        gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET / 4u : GQ_SPIN_BUDGET);
        for (uint32_t polls = 1;; ++polls) {
          if ((now = (uint32_t)(gq::load<gq::mo::relaxed>(word) >> 32)) != gen) break;
          if (polls % kBarPollBurst) {
            if (polls > kBarHotPolls) gq::backoff(spin.ns);
            continue;
          }
          if (polls <= kBarHotPolls ? err.raised() : !spin.step(err, gq::kSiteGridBarrier, gen)) break;
        }
        gq::fence<gq::mo::acq_rel>();
      }
      const bool go = !err.raised() && (now & 1u) == 0u;
      gq::store<gq::mo::relaxed>(verdict, go ? 1u : 0u);
    }
    block_sync();
    return gq::load<gq::mo::relaxed>(verdict) != 0u;
  }
};

// The uniform loop every grid form uses to spread `count` items over the grid a warp at a time:
// `f(i, live)` runs for i = the lane's item, with every lane of the warp present (live says
// whether i < count), so `f` may use warp collectives.
template <class F> GQ_HD GQ_INLINE void for_each_warp_uniform(const Grid& grid, uint32_t count, F f) {
  const uint32_t lanes = grid.size();
  for (uint32_t base = grid.rank() - gq::lane_id(); base < count; base += lanes) {
    const uint32_t i = base + gq::lane_id();
    f(i, i < count);
  }
}

}  // namespace sssp
