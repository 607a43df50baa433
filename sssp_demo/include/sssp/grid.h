// sssp/grid.h — the grid a persistent shortest-path kernel runs on, and its software grid
// barrier. The grid forms of the algorithms (advance.h, near_far_grid.h, par_dijkstra_grid.h)
// are written once against this struct and compiled twice:
//   * GPU: a block is a CUDA block, `block_sync` is __syncthreads, the clock is %globaltimer;
//   * CPU: a block is ONE std::thread (a warp is one lane wide there, arch.cuh), `block_sync` is
//     nothing, the clock is CLOCK_MONOTONIC. So CI runs the same round loops, counters and
//     barrier with real concurrency, just not the same widths.
//
// The barrier (the arrival counter of CUDA's cooperative grid.sync(), cooperative_groups/details/
// sync.h, with a stop and bounded waits): each block's thread 0 publishes the block's writes with
// a gpu-scope fence and adds to one counter, every block 1 but block 0, which adds 2^31 minus the
// others' count: the sum of a round is 2^31, so the counter's bit 31 flips exactly at the last
// arrival, whoever it is, and the others wait for the flip. Nobody resets anything, so the last
// arriver's add is the release itself (one round trip fewer than a last arriver that bumps a
// generation after its fetch-add: 2.24 -> 1.79 us a barrier at one block an SM, run 84, 1.51 us
// since the error flag sets the stop bits, run 286, in tools/gpu_barrier_probe.py, whose kernel
// also counts each block's passes in device memory; the barrier alone about 1.0 us, run 283, as
// CUDA's grid.sync(), 0.99 us). The counter is the low half of a 64-bit word; the carry of every
// second round goes into the bits above it, and the two stop bits sit at the top (below).
// It is only safe with every block resident, so launches never exceed the occupancy API's count.
// Every wait is a bounded gq::Spin: a missing partner ends the kernel with the error flag
// (kSiteGridBarrier), never a hang; once the flag is up every later wait gives up at once, so all
// blocks leave. A raise of the grid's error flag also sets both stop bits (sync() says why).
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
// arrival counter in the low half, its carries and the stop bits in the high half; every
// launcher's words are 8-byte aligned), then per-algorithm use. kAbort is the stop as the host and
// the pollers read it.
enum CtlWord : uint32_t { kBarCount = 0, kBarHigh = 1, kAbort = 2, kCtlFirstFree = 3 };
constexpr uint32_t kBarFlip = 1u << 31;  // the counter's bit that each barrier flips
// Stop at the barrier that flips kBarFlip to p: bit kBarStopShift + p of the word (the carries
// below would need 2^31 barriers to reach them).
constexpr uint32_t kBarStopShift = 62;
constexpr uint64_t kBarStopBits = 3ull << kBarStopShift;  // both: every barrier from now on stops
// Polls of the barrier word between two checks of the error flag and the budget (each poll is a
// device-memory round trip already; a wait here is usually on the critical path).
constexpr uint32_t kBarPollBurst = 8;
// Polls at the start of a wait with no sleep between them (grid.h's sync()).
constexpr uint32_t kBarHotPolls = GQ_DEVICE_BUILD ? 2048u : 0u;

struct Grid {
  uint32_t block, blocks;    // this block, and how many run (all resident)
  uint32_t thread, width;    // this thread in its block, and the block's width
  uint32_t* ctl;             // device words: kBarCount, kBarHigh, kAbort, then the algorithm's
  uint32_t* verdict;         // words the block shares (shared memory on the GPU): one, K + 1 for sync_read<K>
  gq::ErrorFlag err;          // its raise() also sets kBarStopBits in the barrier word

  // Block `block` of `blocks`, thread `thread` of `width`, over the control words `ctl` (zeroed by
  // the host before the launch) and the error words `err_words`.
  GQ_HD Grid(uint32_t block, uint32_t blocks, uint32_t thread, uint32_t width, uint32_t* ctl, uint32_t* verdict,
             uint32_t* err_words)
      : Grid(block, blocks, thread, width, ctl, verdict,
             gq::ErrorFlag{err_words, reinterpret_cast<uint64_t*>(ctl + kBarCount), kBarStopBits}) {}

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
  GQ_HD Grid block_only() const { return Grid(0, 1, thread, width, ctl, verdict, err); }

  // Block 0, before it works alone while the others wait at the next grid barrier: wait until
  // every other block has arrived there, so none still reads a word block 0 is about to change.
  // (Block 0 then arrives last and releases them.) Bounded like the barrier's own wait.
  GQ_HD void wait_for_others() const {
    if (thread == 0) {
      gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET : GQ_SPIN_BUDGET);
      // The counter's low 31 bits are the same after every round, 0 as the host cleared them, and
      // each block but 0 adds 1 when it arrives.
      uint32_t count;
      while ((count = (uint32_t)gq::load<gq::mo::acquire>(bar_word()) & ~kBarFlip) != blocks - 1)
        if (!spin.step(err, gq::kSiteGridBarrier, count)) break;
    }
    block_sync();
  }

  // The leader, between barriers: every block leaves at the next barrier (sync returns false),
  // and kAbort tells the host and the loops that poll it. The next barrier cannot flip the
  // counter before the leader's block arrives, so the flip it will make is the one after the
  // counter's bit as the leader reads it now.
  GQ_HD void request_stop() const {
    gq::store<gq::mo::relaxed>(ctl + kAbort, 1u);
    const uint32_t next = ((uint32_t)gq::load<gq::mo::relaxed>(bar_word()) & kBarFlip) ? 0u : 1u;
    gq::fetch_or<gq::mo::relaxed>(bar_word(), 1ull << (kBarStopShift + next));
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
  // is raised or the leader asked everyone to stop (kAbort): callers leave their loop then.
  //
  // The stop of a barrier is the stop bit of the flip it makes, read in the word that shows the
  // flip: the leader sets it before its block arrives (request_stop), so it is in the word before
  // the flip, for every block. A block still reading the word of the barrier before (a slow one:
  // run 20 saw one leave at a barrier the others had passed, when each block read kAbort for
  // itself) reads the other parity's bit. Once a barrier stops, block 0 also sets the other
  // parity's bit, which nobody reads any more (everyone has arrived at this barrier), so every
  // later barrier stops too.
  //
  // An error stops the barrier the same way: the grid's error flag sets both stop bits when it is
  // raised. A raise in a round comes before its block's arrival (block_sync, then thread 0's
  // fence), so before the flip, which then stops every block: no block passes the barrier after a
  // failed round, and one still waiting at the barrier before it may leave there, one barrier
  // early (tests/sssp_demo/test_grid_barrier.py). Nobody reads the flag after the wait: that read
  // was one more round trip on every barrier's critical path (H200, run 283: 1.34 -> 1.02 us a
  // barrier without it, at one block of 256 an SM; read before the arrival instead it cost as
  // much, run 284; tools/gpu_barrier_probe.py 1.69 -> 1.51 us, and 1.76 -> 1.60 at two blocks, run
  // 286). The flag still ends a long wait. The one raise a flip may come before is a
  // wait's own, on its budget: that block leaves at once, the others at the next barrier.
  //
  // Ordering by fences around relaxed accesses, as grid.sync() does: a fence before the arrival
  // releases the block's writes; the arrivals form one chain of read-modify-writes, which the
  // last one ends; a waiter fences after it sees the flip, the last arriver after its own add.
  GQ_HD bool sync() const {
    block_sync();
    if (thread == 0) {
      gq::store<gq::mo::relaxed>(verdict, arrive_and_wait() ? 1u : 0u);
    }
    block_sync();
    return gq::load<gq::mo::relaxed>(verdict) != 0u;
  }

  // sync(), then the words `words[0..K)` as they are after the barrier, in `*values[k]`, for every
  // thread: thread 0 reads them for its block and hands them on through verdict[1..K]. A level's
  // every warp wants the next frontier's size at once, and one read a block instead of one a warp
  // spares the line that holds it (and the barrier word) a queue of requests at every level: at two
  // blocks of 256 an SM, 264 reads of two words against 4,224. H200, run 289 (kernel ms, two blocks
  // an SM, against every warp reading them): road-24M compaction 50.9 -> 46.3, SFQ's queue BFS 59.8
  // -> 56.2; road-2M 11.3 -> 10.3 and 14.6 -> 13.9; Kron-21 within 2 %. The BFS's words 4 KB from
  // the barrier word and from each other instead gained about half as much, and with this, nothing.
  template <uint32_t K>
  GQ_HD bool sync_read(const uint32_t* const (&words)[K], uint32_t* const (&values)[K]) const {
    NoPoll none;
    return sync_read(words, values, none);
  }

  // What a barrier's waiters do meanwhile (sync_read below): nothing.
  struct NoPoll {
    static constexpr bool kPolls = false;
    static constexpr uint32_t kWord = 0;
    uint32_t epoch = 0;
    GQ_HD void step() {}
  };

  // sync_read, while the block's other warps do something useful (`Poll::kPolls`): every thread
  // of warps 1 and on runs `poll.step()` until thread 0 has seen the barrier flip and says so
  // through verdict[Poll::kWord] (the count of such barriers, which every thread keeps alike in
  // poll.epoch). Warp 0, whose thread 0 waits, does not step (the queue BFS gives it nothing to
  // poll for: its waiter warp, bfs_queue.h). A step may read what it may read before the barrier,
  // and nothing a decision of the grid hangs on (the queue BFS looks at its next level's slots), so
  // the word is a hint: a poller that stops early (on shared memory's first contents) only polls
  // less. Thread 0's wait is bounded, so this one is. On the CPU a block is thread 0 alone, which
  // steps once before its arrival instead.
  template <uint32_t K, class Poll>
  GQ_HD bool sync_read(const uint32_t* const (&words)[K], uint32_t* const (&values)[K], Poll& poll) const {
    static_assert(!Poll::kPolls || Poll::kWord > K, "sync_read: the poll word after the values");
    if constexpr (Poll::kPolls)
      if (!GQ_DEVICE_BUILD) poll.step();
    block_sync();
    if (thread == 0) {
      const bool go = arrive_and_wait();
      if constexpr (Poll::kPolls) gq::store<gq::mo::relaxed>(verdict + Poll::kWord, poll.epoch + 1u);
      uint32_t v[K];
      for (uint32_t k = 0; k < K; ++k) v[k] = go ? gq::load<gq::mo::relaxed>(words[k]) : 0u;  // all in flight
      for (uint32_t k = 0; k < K; ++k) gq::store<gq::mo::relaxed>(verdict + 1 + k, v[k]);
      gq::store<gq::mo::relaxed>(verdict, go ? 1u : 0u);
    } else if (thread >= kWarp) {
      if constexpr (Poll::kPolls)
        while (gq::load<gq::mo::relaxed>(verdict + Poll::kWord) != poll.epoch + 1u) poll.step();
    }
    if constexpr (Poll::kPolls) ++poll.epoch;
    block_sync();
    for (uint32_t k = 0; k < K; ++k) *values[k] = gq::load<gq::mo::relaxed>(verdict + 1 + k);
    return gq::load<gq::mo::relaxed>(verdict) != 0u;
  }

 private:
  GQ_HD Grid(uint32_t block, uint32_t blocks, uint32_t thread, uint32_t width, uint32_t* ctl, uint32_t* verdict,
             gq::ErrorFlag err)
      : block(block), blocks(blocks), thread(thread), width(width), ctl(ctl), verdict(verdict), err(err) {}

  // Thread 0's part of sync() and sync_read(): the fence that releases its block's writes, the
  // arrival and the wait for the flip. True when the barrier flipped and asked for no stop.
  GQ_HD bool arrive_and_wait() const {
    gq::fence<gq::mo::acq_rel>();  // the block's writes (ordered before by block_sync) go first
    uint64_t* word = bar_word();
    const uint64_t add = block == 0 ? (uint64_t)(kBarFlip - (blocks - 1u)) : 1ull;
    const uint64_t was = gq::fetch_add<gq::mo::relaxed>(word, add);
    const uint32_t before = (uint32_t)was & kBarFlip;
    uint64_t now = was + add;
    if (((uint32_t)now & kBarFlip) == before) {  // not the last arrival: wait for the flip
      // The first kBarHotPolls polls back to back, the error flag read every kBarPollBurst of
      // them: a barrier is usually over within a few round trips. A longer wait (block 0's
      // serial heap work in parDijkstra can take milliseconds) then sleeps, the Spin's growing
      // backoff after every poll, with the flag and the budget every kBarPollBurst polls. The
      // budget counts bursts, so a quarter of the steps keeps about the wall time it allowed.
      gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET / 4u : GQ_SPIN_BUDGET);
      for (uint32_t polls = 1;; ++polls) {
        if (((uint32_t)(now = gq::load<gq::mo::relaxed>(word)) & kBarFlip) != before) break;
        if (polls % kBarPollBurst) {
          if (polls > kBarHotPolls) gq::backoff(spin.ns);
          continue;
        }
        if (polls <= kBarHotPolls ? err.raised() : !spin.step(err, gq::kSiteGridBarrier, was)) break;
      }
    }
    gq::fence<gq::mo::acq_rel>();
    if (((uint32_t)now & kBarFlip) == before) return false;  // the wait gave up
    const uint32_t parity = ((uint32_t)now & kBarFlip) ? 1u : 0u;
    const bool stop = ((now >> (kBarStopShift + parity)) & 1ull) != 0ull;
    if (stop && block == 0) gq::fetch_or<gq::mo::relaxed>(word, 1ull << (kBarStopShift + (parity ^ 1u)));
    return !stop;
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
