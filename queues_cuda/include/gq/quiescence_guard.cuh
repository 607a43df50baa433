// gq/quiescence_guard.cuh — lets G-LFQ prove that it is full at one instant.
//
// Why it exists: G-LFQ keeps payload indices in two sCQ rings, `aq` (queued) and `fq` (free). The
// seed's queue reports FULL when `fq` is empty, but an index can be out of `fq` without being in
// `aq`: an enqueuer that took it has not installed it yet, or a dequeuer that consumed it has not
// given it back. At such an instant the queue holds fewer than n elements, and a FULL answer is
// not linearizable against the strict bounded FIFO model (a failed enqueue is legal only while the
// queue holds n elements). The guard closes that gap.
//
// Every operation that may move an index between the rings runs inside enter()/exit() on one of
// kShards words. A shard word is {epoch:32 | active:32}: enter adds 2^32 + 1, exit adds 2^32 - 1,
// so the word strictly grows on every change and `active` counts operations inside. A would-be
// FULL answer sums all shards (collect 1), observes fq empty (observed_empty: Threshold spent, or
// Tail <= Head), sums them again (collect 2). If no operation was active and nothing changed
// between the collects, no index was in transit and no ring was touched in between, so at that
// observation fq was empty and all n indices were in aq: the queue held n elements, and the FULL
// answer linearizes there.
//
// Cost: one warp-aggregated fetch-add on entry and one on exit, on a shard shared by few warps.
#pragma once
#include "arch.cuh"

namespace gq {

struct QuiescenceGuard {
  static constexpr uint64_t kShards = 64;
  // One shard per 128-byte line, not kHotStride apart (arch.cuh): neighbouring shards may share
  // an L2 server, but each shard takes only the warps of 1/kShards of the threads, two fetch-adds
  // an operation, far below a server's rate; a stride apart, the 64 shards would be 256 KB a queue.
  static constexpr uint64_t kLine = 16;
  static constexpr uint64_t kEnter = (1ull << 32) + 1ull;
  static constexpr uint64_t kExit = (1ull << 32) - 1ull;

  uint64_t* base;

  GQ_HD static uint64_t words() { return kShards * kLine; }
  GQ_HD static uint64_t initial_word(uint64_t) { return 0; }

  // A warp shares its shard (so entry and exit aggregate); host threads spread over all shards.
  GQ_HD static uint64_t shard_of(uint32_t tid) {
#if GQ_DEVICE_BUILD
    return (tid >> 5) % kShards;
#else
    return tid % kShards;
#endif
  }

  // One leader adds for the whole warp, so the lanes must be ordered against the leader's add:
  // every lane's ring operations after the entry, and before the exit (sync_lanes). Without the
  // barriers a lane could touch a ring while its shard still reads "nobody inside".
  // Only lanes on the same shard word aggregate (peers): lanes of one warp may be inside
  // different queues, or hold tids of different shards.
  //
  // The entry is a relaxed fetch-add; the exit stays seq_cst. What the FULL argument needs of an
  // entry is that a collector that misses it also misses every ring write the operation makes
  // after it. Every such write (a claim, a ticket, a slot CAS) comes after a seq_cst access of the
  // queue's own, whose fence.sc (arch.cuh) stands between the entry and it, in the leader or,
  // through sync_lanes, in the lane that writes. So with fences F (the operation's) and C (before
  // the collector's second collect): if F precedes C in the fences' order, the second collect sees
  // the entry; if C precedes F, every write past F comes after the collector's observation of fq,
  // so nothing was in transit at it. The entry's own fence (in front of it, as the ABI spells
  // seq_cst) ordered only what came before the entry, which the argument never uses. An exit has
  // no fenced access of the queue behind it, and a FULL answer must not see it before the
  // operation's last ring write (an index back in fq, Threshold reset): it keeps its fence. Every
  // lane leaving on its own with a relaxed fetch-add, its own queue fence behind its last ring
  // write making that a release, was tried (a fence left behind each Threshold reset): 32
  // same-address fetch-adds a warp swamped the shard lines (H200, run 225: G-LFQ's balanced kernel
  // at 2^18 threads 21 -> 9.7 G ops/s, though 15 % faster at 2^12). So was one fence for both
  // the exit (the leader's, after sync_lanes) and the Threshold read that follows an install, the
  // reset then waiting for that fence and the warp's slowest install (run 229: G-LFQ 8-15 % faster
  // in every kernel but its 50 % split, which lost 30-35 % from 2^14 threads, as in run 225; run
  // 230 reset a spent Threshold at once behind a fence of its own, and the split still lost 30-35 %).
  GQ_HD void enter(uint32_t tid) const {
    uint64_t* word = base + shard_of(tid) * kLine;
    const uint32_t mask = peers(active_mask(), word);
    if (lane_id() == first_lane(mask)) fetch_add<mo::relaxed>(word, kEnter * popcount(mask));
    sync_lanes(mask);
  }
  GQ_HD void exit(uint32_t tid) const {
    uint64_t* word = base + shard_of(tid) * kLine;
    const uint32_t mask = peers(active_mask(), word);
    sync_lanes(mask);
    if (lane_id() == first_lane(mask)) fetch_add<mo::seq_cst>(word, kExit * popcount(mask));
  }

  // Sum of all shard words, and whether any operation was inside. The loop stays rolled: its loads
  // are fenced one by one anyway, and unrolled, its 64 copies took every kernel that inlines a queue
  // operation to far more registers (G-LFQ's benchmark kernel 182 against 66; on the H200 G-WFQ's
  // 75 % split 36 -> 50 % of balanced at 2^16 threads rolled, run 204). test_register_budget.py.
  GQ_HD uint64_t collect(bool& any_active) const {
    uint64_t sum = 0;
#pragma unroll 1
    for (uint64_t s = 0; s < kShards; ++s) {
      const uint64_t w = load<mo::seq_cst>(base + s * kLine);
      any_active |= (uint32_t)w != 0u;
      sum += w;
    }
    return sum;
  }

  // What an enqueue that found the free ring `fq` empty does next (confirm_full).
  enum Verdict : uint32_t { kFull = 0, kRetry = 1, kGaveUp = 2 };

  // Confirm FULL at a quiescent instant (collect, fq.observed_empty, collect, as above), or say
  // when to go back for an index that may have come back (kRetry); kGaveUp once `spin` ran out
  // (the flag is then raised). `on_sweep()` is called once a sweep (G-WFQ counts its steps).
  //
  // `polls`: 1 sweeps at every step. More: the producer polls fq's relaxed hint (looks_empty: three
  // loads) at every step, backing off, goes back at once when fq no longer looks empty, and sweeps
  // only every `polls` steps. A sweep is 131 fenced loads and cannot succeed while consumers are
  // active: in seed 001's 75 % split, a swarm of producers waiting on a nearly full queue that
  // sweeps at every step keeps the shards' lines busy with loads in front of every operation's
  // enter and exit. A relaxed poll gives no answer by itself (FULL still comes from a sweep alone);
  // it only says when a sweep is worth making. The price: a queue that really is full answers FULL
  // only after `polls` steps (32 steps of the GPU's backoff: about 7 us).
  template <class Ring, class OnSweep>
  GQ_HD Verdict confirm_full(const Ring& fq, Spin& spin, const ErrorFlag& err, uint32_t site, uint32_t polls,
                             OnSweep on_sweep) const {
    for (uint32_t poll = 1;; ++poll) {
      if (polls > 1u && !fq.looks_empty()) return kRetry;  // an index may be back: retry the fast path
      if (poll % polls == 0u) {
        on_sweep();
        bool active = false;
        const uint64_t before = collect(active);
        const bool drained = fq.observed_empty();
        const uint64_t after = collect(active);
        if (!active && before == after && drained) return kFull;
        if (!drained) return kRetry;
      }
      if (!spin.step(err, site, poll)) return kGaveUp;
    }
  }
};

}  // namespace gq
