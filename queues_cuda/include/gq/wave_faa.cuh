// gq/wave_faa.cuh — wave-batched ticket reservation (WaveFAA, seed 001 Algorithm 1 lines 1-13).
//
// The active lanes of a warp that target the same counter form a mask; one leader performs a
// single fetch-add by the number of those lanes; the base ticket is broadcast with a shuffle and
// each lane adds its rank in the mask. (Lanes of one warp may target different counters at the
// same time, e.g. different queues: each such group gets its own leader.) The tickets handed out are exactly those per-lane fetch-adds would give
// (Lemma III.1), with one atomic per warp instead of one per lane. On the host a warp is one lane
// wide and this is a plain fetch-add.
//
// `unit` is what one ticket adds to the counter word: 1 for a bare counter; 2^k for a counter
// that shares its word with k low bits of other state (G-WFQ's Head/Tail carry a helper's thread
// index there, wcq_ring.cuh). The returned word is the old word plus rank * unit, so the other
// bits come back as the leader found them.
//
// wave_claim (below) is the dequeue side's variant: no more tickets than the enqueue counter is
// ahead, which keeps a swarm of dequeuers from running Head past Tail.
//
// The leader's branch holds the fetch-add alone; the fence of a seq_cst fetch-add (arch.cuh spells
// it fence, then acquire RMW) is taken by every lane before it. Why (H200, CuPy's NVRTC 13.0, runs
// 254-267): with the fence inside the branch, a G-LFQ build that draws blind dequeue tickets here
// (then the stress GQ_STRESS_BLIND_WAVE, since run 309 scq_ring.cuh's shipped ones; 8 blocks, 2^18
// threads) gave some lanes their rank as their ticket, base 0 read from a leader that had not yet
// fetch-added, and each such lane stranded the element at the ticket it should have held (logged
// one for one in run 262). In that SASS the leader's branch holds the fence and a YIELD, and the
// shuffle after the branch's reconvergence takes its fast path on one lane's mask (R2UR; BRA.DIV)
// rather than on every active lane's (REDUX.OR, as NVRTC 13.5 and other 13.0 sites emit). Our
// reading, not NVIDIA's word: a leader that yields may be left behind at the reconvergence point,
// and if the lane whose mask the check reads belongs to a group that is whole, the group that lacks
// its leader shuffles anyway. The evidence: built off the device by NVRTC 13.0.88 and run there
// (run 267), the old spelling lost elements in 18 of 18 runs of the 25 % split; the shuffle over
// the entry's active mask in place of the peers mask, which put the one-lane check on G-LFQ's hot
// claims too, lost 50 times as many (and in the 75 % split, which the old one never did); the fence
// before the branch lost none in 27. In the shipped 13.0 builds, G-WFQ's claims and YMC's tickets
// had one-lane checks after a leader's branch with a fence; now no shuffle or lane barrier with a
// one-lane check follows a region with a fence or YIELD in any of them
// (tools/sass_collective_scan.py, over every module built by NVRTC 13.0.88). GQ_STRESS_LEADER_FENCE
// keeps the old spelling for tests/queues_cuda/test_ring_stress_gpu.py's control.
#pragma once
#include "arch.cuh"

// Blind tickets (Glfq::operate, Gwfq::operate): with 1, the default, a thread whose last claim on a
// ring found plenty there draws its next ticket by a bare wave_faa; with 0 the queues are built
// without that code. A caller whose views are made afresh for every operation never finds plenty
// and loses nothing by 0 but the code: G-WFQ's tile renderer (raytrace/kernels/render.cu) builds
// so, where that code cost its tile kernel 5 % on spheres100 in spills (H200, runs 320-321).
#ifndef GQ_BLIND_TICKETS
#define GQ_BLIND_TICKETS 1
#endif

namespace gq {

constexpr bool kBlindTickets = GQ_BLIND_TICKETS != 0;

template <mo O = mo::seq_cst>
GQ_HD GQ_INLINE uint64_t wave_faa(uint64_t* counter, uint64_t unit = 1) {
  const uint32_t mask = peers(active_mask(), counter);
  const uint32_t lane = lane_id();
  const uint32_t leader = first_lane(mask);
  const uint32_t count = popcount(mask);
  uint64_t base = 0;
#if defined(GQ_STRESS_LEADER_FENCE)
  if (lane == leader) base = fetch_add<O>(counter, (uint64_t)count * unit);  // the stress control (above)
#else
  fence_before<O>();  // every lane's, so that the leader's branch holds the fetch-add alone (above)
  if (lane == leader) base = fetch_add<after_fence(O)>(counter, (uint64_t)count * unit);
#endif
#if defined(GQ_FAULT_NO_BROADCAST)
  // Planted fault for the checkers: lanes other than the leader guess the base from a plain read
  // instead of receiving the leader's, so two lanes can hold the same ticket.
  if (lane != leader) base = load<mo::relaxed>(counter) - count * unit;
#else
  base = shuffle(mask, base, leader);
#endif
  // Each lane's later accesses must follow the fetch-add that reserved its ticket, as they would
  // had the lane done it itself (Lemma III.1's equivalence); the shuffle alone orders nothing.
  sync_lanes(mask);
  return base + (uint64_t)popcount(mask & lanes_below(lane)) * unit;
}

// WaveFAA in two halves, for a warp with work to do while its fetch-add is in flight (wave_faa's
// broadcast waits for the leader's reply). wave_faa_begin: the lanes present call it together,
// `want` marks those that take a ticket, and the first of them issues the group's one fetch-add;
// wave_faa_finish: the same lanes together again, later, and each lane that wanted gets the ticket
// wave_faa would have given it. The queue BFS draws a warp's next run of dequeue tickets so,
// while it expands the vertices its last run brought (sssp/bfs_queue.h).
struct WaveFaaPending {
  uint64_t base;   // the leader's fetch-add result (the leader's alone until finish)
  uint32_t lanes;  // the lanes present at begin
  uint32_t mask;   // those that wanted
};
template <mo O = mo::seq_cst>
GQ_HD GQ_INLINE WaveFaaPending wave_faa_begin(uint64_t* counter, bool want, uint64_t unit = 1) {
  const uint32_t lanes = active_mask();
  const uint32_t mask = ballot(lanes, want);
  uint64_t base = 0;
  fence_before<O>();  // as in wave_faa: the leader's branch holds the fetch-add alone
  if (mask && lane_id() == first_lane(mask)) base = fetch_add<after_fence(O)>(counter, (uint64_t)popcount(mask) * unit);
  return WaveFaaPending{base, lanes, mask};
}
GQ_HD GQ_INLINE uint64_t wave_faa_finish(const WaveFaaPending& p, uint64_t unit = 1) {
  const uint32_t lane = lane_id();
  const uint64_t base = shuffle(p.lanes, p.base, p.mask ? first_lane(p.mask) : lane);
  sync_lanes(p.lanes);  // as in wave_faa: a lane's accesses with its ticket follow the fetch-add
  return base + (uint64_t)popcount(p.mask & lanes_below(lane)) * unit;
}

// WaveFAA for lanes that each want several tickets: lane i asks for n_i <= kMaxN (0 allowed) and
// gets the n_i tickets from base + (the n of the lanes of its group below it) on, one fetch-add
// of the group's sum. A lane with n tickets stands for n lanes of wave_faa's group, so these are
// the tickets of n_0 + n_1 + ... per-lane fetch-adds in lane order (Lemma III.1). The sums come
// from ballots of n's bits (one per bit of kMaxN), not shuffles, so any set of lanes may call it.
// The leader fetch-adds only if the group asks for anything.
// kWholeWarp: the caller promises that all 32 lanes are here and all name one counter (the queue
// BFS's emits, which come after a full-warp ballot), so the group is the warp and is not worked
// out: no MATCH.ANY on the counter's address, and no check of a computed mask before each ballot
// and shuffle (a MATCH.ANY and a REDUX.OR). In SFQ's BFS kernel these were the only ones inside a
// level (three inlined sites, sm_90 SASS); compaction's appends have none. Run 378 (H100): about
// 1% off SFQ's BFS on road-2M, road-24M and Delaunay-21 (12.05 -> 11.94, 49.31 -> 48.97 and
// 5.94 -> 5.88 ms), none on Kron-21.
template <mo O = mo::seq_cst, uint32_t kMaxN = 4, bool kWholeWarp = false>
GQ_HD GQ_INLINE uint64_t wave_faa_n(uint64_t* counter, uint32_t n) {
  const uint32_t mask = kWholeWarp && GQ_DEVICE_BUILD ? 0xffffffffu : peers(active_mask(), counter);
  const uint32_t lane = lane_id();
  const uint32_t leader = first_lane(mask);
  const uint32_t below = mask & lanes_below(lane);
  uint64_t total = 0, before = 0;
  for (uint32_t b = 0; (1u << b) <= kMaxN; ++b) {
    const uint32_t bits = ballot(mask, ((n >> b) & 1u) != 0u);
    total += (uint64_t)popcount(bits) << b;
    before += (uint64_t)popcount(bits & below) << b;
  }
  uint64_t base = 0;
  fence_before<O>();  // as in wave_faa: the leader's branch holds the fetch-add alone
  if (lane == leader && total) base = fetch_add<after_fence(O)>(counter, total);
#if defined(GQ_FAULT_NO_BROADCAST)
  if (lane != leader) base = load<mo::relaxed>(counter) - total;  // wave_faa's planted fault
#else
  base = shuffle(mask, base, leader);
#endif
  sync_lanes(mask);
  return base + before;
}

// WaveClaim: WaveFAA for dequeue tickets, bounded by the enqueue counter. A swarm of dequeuers
// that fetch-add Head whenever Tail is ahead runs Head far past Tail, and each ticket past Tail
// burns the slot an enqueuer will draw next: under seed 001's split kernels the enqueuers' tickets
// are then burnt faster than they install (G-WFQ sends them to its slow path). So the group's
// leader reads both counters (relaxed: a hint) and
//   - at least one ticket per lane below `bound`: fetch-adds for all of them, as WaveFAA does;
//   - fewer: claims only those, with one CAS from the Head word it read (lost: nobody gets one);
//   - none: claims nothing.
// The fetch-add rests on relaxed reads that many warps make at once, so a herd of them can take
// tickets past Tail; each such ticket then waits for an enqueuer to draw and fill it, or is burnt
// (ScqRing::dequeue_ticketed). Fetch-adding only when Tail is 64 lanes' worth ahead (CAS below
// that) was tried: on the H200 it lifted G-LFQ's 75 % split by up to a quarter and moved the
// other splits within noise, but road-2M's G-LFQ BFS went from 67 to 173 ms (runs 179-181), its
// small frontiers presumably claimed one winning CAS at a time. So the rule stays one ticket a
// lane.
// Lanes ranked past the claimed tickets get none; the caller decides EMPTY or tries again, and the
// answer tells it which case it is in:
//   kClaimed    this lane holds a ticket (ticket_word);
//   kClaimLost  the leader saw tickets ahead but lost its CAS to another claim: the ring was not
//               empty, someone else took them;
//   kClaimNone  nothing was ahead, or fewer tickets than lanes and this lane ranked past them.
// A claim moves Head by exactly the tickets it hands out, as a fetch-add would, so the rings'
// arguments (one holder per ticket, Head only grows) are untouched. `unit` as in wave_faa; the
// counters are word / unit. `plenty`, when given, is set in every lane to whether the leader saw at
// least `plenty_at` tickets ahead (relaxed readings, a hint; false when its CAS lost), at no cost
// beyond a bit of the broadcast.
enum Claim : uint32_t { kClaimed = 0, kClaimLost = 1, kClaimNone = 2 };

template <mo O = mo::seq_cst>
GQ_HD GQ_INLINE Claim wave_claim(uint64_t* counter, const uint64_t* bound, uint64_t& ticket_word, uint64_t unit = 1,
                                 int64_t plenty_at = 0, bool* plenty = nullptr) {
  const uint32_t mask = peers(active_mask(), counter);
  const uint32_t lane = lane_id();
  const uint32_t leader = first_lane(mask);
  const uint32_t count = popcount(mask);
  // granted: tickets handed out, or kLost (the leader's CAS lost), broadcast in one shuffle, with
  // kPlenty set when `plenty` asks and the leader saw at least plenty_at ahead.
  constexpr uint64_t kLost = ~0ull, kPlenty = 1ull << 62;
  uint64_t base = 0, granted = 0;
  fence_before<O>();  // as in wave_faa: not in the leader's branch
  if (lane == leader) {
    const uint64_t word = load<mo::relaxed>(counter);
    const int64_t ahead = (int64_t)(load<mo::relaxed>(bound) / unit - word / unit);
    if (ahead >= (int64_t)count) {
      base = fetch_add<after_fence(O)>(counter, (uint64_t)count * unit);
      granted = count;
    } else if (ahead > 0) {
      if (cas<after_fence(O)>(counter, word, word + (uint64_t)ahead * unit) == word) {
        base = word;
        granted = (uint64_t)ahead;
      } else {
        granted = kLost;
      }
    }
    if (plenty && granted != kLost && ahead >= plenty_at) granted |= kPlenty;
  }
#if defined(GQ_FAULT_NO_BROADCAST)
  // The planted fault of wave_faa, here too: without it the fault reaches only enqueue tickets,
  // where a shared ticket costs one lost slot CAS and a retry, and the checkers rarely see it.
  granted = shuffle(mask, granted, leader);
  sync_lanes(mask);
  if (lane != leader) base = load<mo::relaxed>(counter) - count * unit;
#else
  base = shuffle(mask, base, leader);
  granted = shuffle(mask, granted, leader);
#endif
  if (plenty) {
    *plenty = granted != kLost && (granted & kPlenty) != 0;
    if (granted != kLost) granted &= ~kPlenty;
  }
  sync_lanes(mask);  // as in wave_faa: each lane's accesses follow the claim that gave its ticket
  const uint32_t rank = popcount(mask & lanes_below(lane));
  ticket_word = base + (uint64_t)rank * unit;
  if (granted == kLost) return kClaimLost;
  return rank < granted ? kClaimed : kClaimNone;
}

}  // namespace gq
