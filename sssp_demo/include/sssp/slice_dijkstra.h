// sssp/slice_dijkstra.h — parDijkstra's rounds (seed 000, Section 4: extract the minimum, relax
// all its out-edges in parallel, lower the improved keys) over a priority queue cut into vertex
// slices, one per block: `pardijkstra-sliced`.
//
// Why not parBucketHeap here. On the seed DAG a round hands the heap thousands of updates (the
// minimum's out-degree), and one block resolving them costs about a millisecond a round at 300 M
// edges (par_dijkstra_grid.h). The round itself is one dependent step; what it must cost is what
// the machine needs to agree on one minimum and to read one row. So:
//   * block b owns vertices [b S, (b + 1) S) and keeps their keys (distance bits) in its own
//     shared memory: a decrease-key is a shared-memory atomic minimum by the block that owns the
//     vertex, with no device-memory traffic at all;
//   * the edges are laid out by slice (SlicedEdges): block b's edges are those whose target it
//     owns, grouped by source, so in a round block b reads exactly the edges of u that land in
//     its slice, from where its offset table (in its shared memory when it fits) says;
//   * ExtractMin is a tournament: each block offers its slice's least key (key, vertex), and
//     every block reads all the offers and takes the same least one (ties to the lower vertex).
//     Two tournaments, one round loop (slice_dijkstra):
//       - SlotTournament, for a grid of one block per SM: the offers are round-stamped slots in
//         device memory, and the slots are the round's only barrier;
//       - ClusterTournament, for one thread-block cluster (sm_90): each block pushes its offer
//         into every peer's shared memory (distributed shared memory, st.async), where a
//         transaction-counting mbarrier says when all of them have landed: no barrier over the
//         whole cluster, no remote read.
// A round is then: the block's least key (each warp's, then the block's), the tournament, then
// the whole block reads u's edges in its slice (one device-memory round trip) and relaxes them in
// shared memory, and the owner settles u. Every block computes the same minimum from the same
// offers, so every block takes the same path through the rounds.
//
// The follower: a second vertex settled in the same round. Let w_min be the least edge weight
// and x a target of one of u's edges of weight w_min (the launcher's `light` table: for each
// vertex, the least such target, if any). Once u's edges are relaxed, x's key is at most
// d_u + w_min, and such a key is final: any other path to x leaves the settled vertices through
// an unsettled vertex, whose distance is at least d_u, and then takes at least one more edge
// (Crauser et al.'s out-criterion with the graph's least weight; in floating point too, since
// fl(a + w) is monotone in a and in w). So every block relaxes x's edges in its slice with
// d_x = fl(d_u + w_min) in the same pass as u's, their loads in flight together, and x's owner
// settles x at the end of the round if its key is exactly d_x (a key already below it means x's
// relaxation used too large a distance: x is then left to be extracted later, and relaxed again,
// which only lowers keys to path lengths, so nothing is lost but the work). Every block knows x
// from u alone: the cluster's offers carry their vertex's light successor (each block keeps its
// slice's part of the table in shared memory where it fits), so x comes with u; the grid form
// loads it from `light` after its tournament. On the seed DAG x is u + 1 (the chain's edge of
// weight 1), so the rounds halve; on graphs whose least weight is rare it costs that load.
//
// The slice is scanned whole only before the first round. After that a slice's least key is the
// least of what could have become it: the block's last offer, which lost and is still a key of
// the slice (keys only go down), and every key this round's relaxation lowered (each thread
// remembers the least it lowered). Only the block that owns u must look again, since its offer
// was u: it rescans its slice, u left out, while the round's edge loads are in flight. A stale
// value in that scan is harmless: a key it read before a lowering is above the lowered one, which
// the lowering thread offers. So a round's critical path has no scan and one block barrier.
//
// Exactness: a settled vertex keeps its distance with the top bit set (kSettledBit: no longer a
// candidate, never lowered: fl(d_u + w) >= d_u >= d_v anyway); the keys are the float64 sums
// scipy forms (advance.h), so distances equal scipy's bit for bit. Vertices beyond `limit`
// never get a key, so they stay unreached, as in scipy. Each block writes its slice's final
// distances once, at the end.
//
// The slice must fit the block's shared memory (the launcher checks: about 28,000 vertices a
// block on an H200, so graphs up to about 230,000 vertices as a cluster (the launcher's limit is
// the portable 8 blocks' room; it runs 16) and 3.8 M as a grid of 132). On the CPU build a block
// is one std::thread, its "warp" that thread, its slice and table live in ordinary memory, and
// the grid barrier stands in for the cluster's mbarriers.
#pragma once
#include "advance.h"

namespace sssp {

constexpr uint64_t kSettledBit = 1ull << 63;  // on a key: settled (non-negative doubles never have it)
constexpr uint64_t kKeyStampBit = 1ull << 63; // on a slot's key: its round's stamp (slots never hold settled keys)
constexpr uint32_t kStopBit = 1u << 31;       // in block 0's tag: stop after this round (time budget)
constexpr uint32_t kMaxWarps = 32;
constexpr uint32_t kRelaxBatch = 4;  // edges a thread loads at once in a round's relaxation

// A slot is a block's published minimum for one round parity: its key word, then its tag word,
// alone on a 128-byte line. Every block polls every slot each round; packed slots put all that
// polling on a few L2 slices (5.34 against 4.75 us a round at 1 M edges, run 37). The launchers
// allocate 2 x blocks x kSlotWords words.
constexpr uint32_t kSlotWords = 16;
// Polls of a slot between two short sleeps (each poll is a device-memory round trip already).
constexpr uint32_t kPollBurst = 8;

// The edges by slice: for block b, the edges whose target is in [b S, (b + 1) S), grouped by
// source. Block b's edges out of u are [offsets[b (n + 1) + u], offsets[b (n + 1) + u + 1]) of
// these arrays; each block is handed its row of that table. Offsets are 32-bit (the launchers
// refuse m >= 2^32).
struct SlicedEdges {
  const int32_t* indices;
  const double* weights;
};

// Per-warp partial minima: of the slice's candidates (warp 0 reduces them to the block's offer),
// then of the gathered offers (the grid's tournament: every thread reduces those itself), and each
// gathering warp's stop.
struct SliceScratch {
  uint64_t key[kMaxWarps];
  uint32_t vertex[kMaxWarps];
  uint64_t got_key[kMaxWarps];
  uint32_t got_vertex[kMaxWarps];
  uint32_t got_stop[kMaxWarps];
};

struct SliceDijkstraState {
  uint64_t* dist;          // [n] distance bits: each block writes its slice's at the end
  SlicedEdges edges;
  uint64_t* slots;         // [2 blocks kSlotWords], zero to start: slot (parity, block) at (parity blocks + block)
                           // kSlotWords: the published key with a stamp bit, then (round + 1) << 32 | stop | vertex
  uint64_t* stats;         // rounds, relaxations, decrease-keys, decrease-keys (added to)
  uint32_t slice;          // S: vertices a block owns
  uint64_t budget_ns;
  uint64_t* profile;       // null, or [kProfileWords blocks]: block b's time in reduce (the block's least key),
                           // tournament, relax, its slot re-reads, then its time in relax and its count of
                           // the rounds whose u it owned, at kProfileWords b (its thread 0's clock; added to)
  const uint32_t* light;   // null (no follower), or [n]: a target of the vertex's edges of weight w_light, or
                           // kNoVertex (the header's follower; the least such target, from the launcher)
  double w_light;          // the graph's least edge weight
};

constexpr uint32_t kNoVertex = ~0u;
constexpr uint32_t kLightInTable = ~0u - 1;  // Winner::light: the tournament did not carry it (read `light`)

constexpr uint32_t kProfileWords = 6;  // a block's words of SliceDijkstraState::profile

// Where each block's rounds go, for tools/gpu_slice_probe.py: SM cycles on the GPU, ns on the CPU.
GQ_HD GQ_INLINE uint64_t slice_clock() {
#if GQ_DEVICE_BUILD
  return (uint64_t)clock64();
#else
  return gq::host_now_ns();
#endif
}

struct Candidate {
  uint64_t key;
  uint32_t vertex;
  GQ_HD GQ_INLINE bool below(const Candidate& o) const {
    return key < o.key || (key == o.key && vertex < o.vertex);
  }
};
constexpr Candidate kNoCandidate{kInfBits, ~0u};  // +inf keys are not candidates (unreached)

// The least candidate over a full warp, for every lane (the CPU's warp is one thread). Three
// warp-wide 32-bit minima (redux.sync, sm_80+): the key's high word, its low word among the lanes
// that hold the least high word, the vertex among the lanes that hold the least key: the order
// of Candidate::below in three dependent steps. A shuffle butterfly takes five, each three
// shuffles and a 64-bit compare; a round runs three of these reductions one after another, and
// the butterfly's cost about 0.8 us of a 3.3 us round (run 67: 1 M edges, cluster form, 99.3 ms
// with the butterfly, 73.9 ms with this; the grid form 143.8 -> 85.5 ms).
GQ_HD GQ_INLINE Candidate warp_least(Candidate c) {
#if GQ_DEVICE_BUILD
  const uint32_t hi = (uint32_t)(c.key >> 32), lo = (uint32_t)c.key;
  const uint32_t min_hi = __reduce_min_sync(kFullWarp, hi);
  const uint32_t min_lo = __reduce_min_sync(kFullWarp, hi == min_hi ? lo : ~0u);
  const bool least = hi == min_hi && lo == min_lo;
  const uint32_t vertex = __reduce_min_sync(kFullWarp, least ? c.vertex : ~0u);
  return Candidate{(uint64_t)min_hi << 32 | min_lo, vertex};
#else
  return c;
#endif
}

// A round's tournament, as every thread of the block learns it: the least offer, and whether
// block 0 asked every block to stop (or a wait failed); for warp 0's threads, what this block
// offered (its slice's least key: the next round starts from it when another block won); and
// the least offer's light successor (the follower, or kNoVertex), or kLightInTable.
struct Winner {
  Candidate best;
  bool stop;
  Candidate offered;
  uint32_t light;
};

// This slice's least key, from the warps' partial minima: called by all of warp 0, every lane
// gets it (one warp reduction, not a loop over up to 32 partials in one thread).
GQ_HD GQ_INLINE Candidate slice_least(const Grid& grid, const SliceScratch* sc) {
  const uint32_t warps = (grid.width + kWarp - 1) / kWarp;
  Candidate mine = kNoCandidate;
  for (uint32_t w = grid.thread; w < warps; w += kWarp) {
    const Candidate c{sc->key[w], sc->vertex[w]};
    if (c.below(mine)) mine = c;
  }
  return warp_least(mine);
}

// ---------------------------------------------------------------------- the grid's tournament
// Blocks anywhere on the GPU, exchanging minima through round-stamped slots in device memory.

// One thread: this slice's least key, published for round r. The key word carries one stamp bit,
// the tag the whole round number; why one bit is enough is at gather_slot.
GQ_HD inline void publish(const Grid& grid, uint32_t round, bool stop, Candidate mine, const SliceDijkstraState& s) {
  uint64_t* slot = s.slots + (uint64_t)((round & 1u) * grid.blocks + grid.block) * kSlotWords;
  gq::store<gq::mo::relaxed>(slot, mine.key | (((round >> 1) + 1u) & 1u ? kKeyStampBit : 0u));
  // Release: the key above and every read of the last round's slots come before this tag.
  gq::store<gq::mo::release>(slot + 1,
                           ((uint64_t)(round + 1u) << 32) | (stop ? kStopBit : 0u) | (mine.vertex & ~kStopBit));
}

// Block t's slot of round r, waited for; false if the wait ran out (the flag is then up). The
// key word is read relaxed just before the tag's acquire, so both loads are in flight together;
// the pair is taken once both carry round r's stamp. A slot of r's parity holds round r - 2's
// words or round r's, never older (coherence: this block read r - 2's) and never r + 2's (its
// owner publishes r + 2 only after acquiring this block's r + 1 tag, released after this read),
// so one stamp bit on the key word (its sign bit: keys are non-negative) tells the two apart.
GQ_HD inline bool gather_slot(const Grid& grid, uint32_t round, uint32_t t, const SliceDijkstraState& s,
                              Candidate* c, bool* stop, uint32_t* rereads) {
  uint64_t* slot = s.slots + (uint64_t)((round & 1u) * grid.blocks + t) * kSlotWords;
  const uint64_t stamp = (uint64_t)(round + 1u) << 32, key_stamp = ((round >> 1) + 1u) & 1u ? kKeyStampBit : 0u;
  gq::Spin spin(GQ_DEVICE_BUILD ? SSSP_BARRIER_BUDGET : GQ_SPIN_BUDGET);
  for (uint32_t polls = 1;; ++polls) {
    const uint64_t key = gq::load<gq::mo::relaxed>(slot);
    const uint64_t tag = gq::load<gq::mo::acquire>(slot + 1);
    if ((tag & ~0xffffffffull) == stamp && (key & kKeyStampBit) == key_stamp) {
      *c = Candidate{key & ~kKeyStampBit, (uint32_t)tag & ~kStopBit};
      *stop = t == 0 && ((uint32_t)tag & kStopBit);
      return true;
    }
    ++*rereads;
    if (polls % kPollBurst) continue;
    if (!spin.step(grid.err, gq::kSiteSliceRound, ((uint64_t)round << 32) | t)) return false;
#if GQ_DEVICE_BUILD
    spin.ns = 8;  // short sleeps only: this wait is the round's critical path, a slot is due within ~1 us
#endif  // (the CPU build's backoff must reach its yield: its threads oversubscribe the cores)
  }
}

struct SlotTournament {
  const SliceDijkstraState& s;

  // The round's tournament: warp 0 reduces the warps' minima and publishes this slice's least
  // key; the gathering warps (one slot a thread where the block is wide enough: the GPU's 256
  // threads cover 256 blocks, so every slot's loads are in flight at once) wait for every
  // block's; their warps' results go to sc->got_*, then a block barrier, then every thread
  // reduces them itself: all take the same decision.
  GQ_HD Winner operator()(const Grid& grid, uint32_t round, bool stop_now, SliceScratch* sc,
                            uint32_t* rereads) const {
    const uint32_t lane = grid.thread % kWarp, warp = grid.thread / kWarp, warps = (grid.width + kWarp - 1) / kWarp;
    const uint32_t need = (grid.blocks + kWarp - 1) / kWarp, gather_warps = need < warps ? need : warps;
    Candidate mine = kNoCandidate;
    if (warp == 0) {
      mine = slice_least(grid, sc);
      if (lane == 0) publish(grid, round, stop_now, mine, s);
    }
    if (warp < gather_warps) {
      Candidate got = kNoCandidate;
      bool stop = false;
      for (uint32_t i = grid.thread; i < grid.blocks && !stop; i += gather_warps * kWarp) {
        // Thread 0 waits for the next block's slot, not its own: its re-reads (the profile) then
        // say how long a remote slot takes.
        const uint32_t t = (i + grid.block + 1) % grid.blocks;
        Candidate c;
        bool stop_bit = false;
        if (!gather_slot(grid, round, t, s, &c, &stop_bit, rereads)) stop = true;  // the flag is up
        else if (c.below(got)) got = c;
        stop = stop || stop_bit;
      }
      got = warp_least(got);
#if GQ_DEVICE_BUILD
      stop = __any_sync(kFullWarp, stop);
#endif
      if (lane == 0) {
        sc->got_key[warp] = got.key;
        sc->got_vertex[warp] = got.vertex;
        sc->got_stop[warp] = stop ? 1u : 0u;
      }
    }
    grid.block_sync();
    Winner w{kNoCandidate, false, mine, kLightInTable};
    for (uint32_t g = 0; g < gather_warps; ++g) {
      const Candidate c{sc->got_key[g], sc->got_vertex[g]};
      if (c.below(w.best)) w.best = c;
      w.stop = w.stop || sc->got_stop[g];
    }
    return w;
  }
};

// ------------------------------------------------------------------- the cluster's tournament
// The blocks of one thread-block cluster (sm_90), each pushing its offer into every block's
// inbox in shared memory (st.async to distributed shared memory). A push carries its bytes to
// the receiver's mbarrier of the round's parity (complete_tx); the receiver expects one offer a
// block (expect_tx) and its threads wait for the phase to complete. So an exchange costs one
// remote write's latency, where a cluster barrier (every thread of every block) followed by
// remote reads of each peer's offer cost a barrier and a read's round trip: 0.34 against 0.57 us
// a round with nothing else to do (tools/gpu_cluster_exchange_probe.py, run 87; plain remote
// stores polled for a round stamp took 0.69). On the CPU build the blocks are the grid's threads,
// a push is a plain store into the peer's inbox, and the grid barrier stands in for the mbarrier.

// An offer: its key with block 0's stop in the top bit (an offered key never has it: settled
// keys are never candidates), its vertex, and that vertex's light successor (the follower).
struct ClusterCandidate {
  uint64_t key;
  uint32_t vertex, light;
};
constexpr uint64_t kOfferStopBit = 1ull << 63;

// Every thread of every block of the cluster arrives; what any wrote before is visible to every
// thread after. False only on the CPU build, when the error flag is up.
GQ_HD GQ_INLINE bool cluster_sync(const Grid& grid) {
#if GQ_DEVICE_BUILD
  (void)grid;
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  return true;
#else
  return grid.sync();
#endif
}

#if GQ_DEVICE_BUILD
// The inbox's mbarriers: one arrival a phase (the owner's expect_tx), made visible to the cluster
// before any peer may push (the launcher's cluster barrier after this).
GQ_DEV GQ_INLINE void inbox_init(uint64_t* bars) {
  for (uint32_t p = 0; p < 2; ++p)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((uint32_t)__cvta_generic_to_shared(bars + p))
                 : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
#endif

struct ClusterTournament {
  // GPU: this block's inbox, [2 parities][blocks] offers (a peer's is at the same address in the
  // peer's shared memory), and its two mbarriers, one a parity. CPU: every block's inbox,
  // block-major; `bars` unused.
  ClusterCandidate* inboxes;
  uint64_t* bars;
  // The light successors of this block's slice, the slice's first vertex at light[0] (shared
  // memory), or of every vertex (light_lo 0: device memory, or the CPU build); null: no follower.
  const uint32_t* light;
  uint32_t light_lo;

  // This block's offer for round parity `parity`, into block `to`'s inbox.
  GQ_HD GQ_INLINE void push(const Grid& grid, uint32_t to, uint32_t parity, const ClusterCandidate& c) const {
#if GQ_DEVICE_BUILD
    const uint32_t slot = (uint32_t)__cvta_generic_to_shared(inboxes + parity * grid.blocks + grid.block);
    const uint32_t bar = (uint32_t)__cvta_generic_to_shared(bars + parity);
    uint32_t remote_slot, remote_bar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote_slot) : "r"(slot), "r"(to));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote_bar) : "r"(bar), "r"(to));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u64 [%0], {%1, %2}, [%3];" ::"r"(remote_slot),
                 "l"(c.key), "l"((uint64_t)c.light << 32 | c.vertex), "r"(remote_bar)
                 : "memory");
#else
    inboxes[((uint64_t)to * 2 + parity) * grid.blocks + grid.block] = c;
#endif
  }

  // Every offer of round `round` is in this block's inbox (each thread waits for itself); false
  // when the wait ran out (the flag is then up) or, on the CPU build, the flag was already up.
  GQ_HD bool arrived(const Grid& grid, uint32_t round) const {
#if GQ_DEVICE_BUILD
    const uint32_t bar = (uint32_t)__cvta_generic_to_shared(bars + (round & 1u));
    const uint32_t phase = (round >> 1) & 1u;  // each mbarrier takes every second round
    gq::Spin spin(SSSP_BARRIER_BUDGET);
    for (uint32_t polls = 1;; ++polls) {
      uint32_t done;
      asm volatile(
          "{\n\t.reg .pred p;\n\t"
          "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
          "selp.u32 %0, 1, 0, p;\n\t}"
          : "=r"(done)
          : "r"(bar), "r"(phase)
          : "memory");
      if (done) return true;
      if (polls % kPollBurst) continue;
      if (!spin.step(grid.err, gq::kSiteSliceRound, ((uint64_t)round << 32) | grid.block)) return false;
      spin.ns = 8;  // as gather_slot: short sleeps only, a round's offers are due within a microsecond
    }
#else
    (void)round;
    return grid.sync();
#endif
  }

  // Warp 0 reduces the warps' minima to this slice's least key and pushes it to every block
  // (itself too), announcing one offer a block to its own inbox; every thread waits for its inbox
  // to fill and reduces the offers itself, so no block barrier follows. The inbox alternates by
  // round parity, which is enough: a peer pushes round r + 2's offer only after it has every
  // offer of round r + 1, this block's among them, which warp 0 pushes after a block barrier that
  // every thread reaches after reading round r's.
  GQ_HD Winner operator()(const Grid& grid, uint32_t round, bool stop_now, SliceScratch* sc, uint32_t*) const {
    const uint32_t parity = round & 1u, lane = grid.thread % kWarp;
    Candidate mine = kNoCandidate;
    if (grid.thread < kWarp) {
      mine = slice_least(grid, sc);
#if GQ_DEVICE_BUILD
      // Only the leader (lane 0) decides a stop, and every lane pushes: the stop goes to them all.
      stop_now = __any_sync(kFullWarp, stop_now);
#endif
      const uint32_t light_of = light && mine.key < kInfBits ? light[mine.vertex - light_lo] : kNoVertex;
      const ClusterCandidate offer{mine.key | (stop_now ? kOfferStopBit : 0u), mine.vertex, light_of};
#if GQ_DEVICE_BUILD
      if (lane == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                         (uint32_t)__cvta_generic_to_shared(bars + parity)),
                     "r"(grid.blocks * (uint32_t)sizeof(ClusterCandidate))
                     : "memory");
#endif
      for (uint32_t t = lane; t < grid.blocks; t += kWarp) push(grid, t, parity, offer);
    }
    const bool ok = arrived(grid, round);
    const ClusterCandidate* inbox = inboxes + (GQ_DEVICE_BUILD ? 0u : (uint64_t)grid.block * 2 * grid.blocks);
    Candidate got = kNoCandidate;
    uint32_t got_light = kNoVertex;
    bool stop = !ok;
    for (uint32_t t = lane; t < grid.blocks; t += kWarp) {
      const ClusterCandidate c = inbox[parity * grid.blocks + t];
      const Candidate offer{c.key & ~kOfferStopBit, c.vertex};
      if (offer.below(got)) {
        got = offer;
        got_light = c.light;
      }
      stop = stop || (c.key & kOfferStopBit);
    }
    const Candidate best = warp_least(got);
#if GQ_DEVICE_BUILD
    stop = __any_sync(kFullWarp, stop);
    // The lanes that hold the least offer hold its light successor.
    got_light = __reduce_min_sync(kFullWarp, best.key == got.key && best.vertex == got.vertex ? got_light : ~0u);
#endif
    return Winner{best, stop, mine, got_light};
  }
};

// Lower a key of this block's slice to `nd` if that is smaller; true iff this call lowered it
// (the GPU's shared-memory 64-bit atomic minimum; advance.h's CAS loop on the CPU).
GQ_HD GQ_INLINE bool lower_key(uint64_t* keys, uint32_t v, double nd) {
#if GQ_DEVICE_BUILD
  const unsigned long long want = (unsigned long long)to_bits(nd);
  return atomicMin(reinterpret_cast<unsigned long long*>(keys + v), want) > want;
#else
  return lower_distance(keys, v, nd);
#endif
}

// ----------------------------------------------------------------------------------- a run
// The whole run, for one block, with either tournament. `keys` is this block's slice, `offsets`
// its row of the sliced edges' offset table (both in shared memory on the GPU; the table may
// stay in device memory).
template <class Tournament>
GQ_HD inline void slice_dijkstra(const Grid& grid, uint32_t n, uint32_t source, double limit, uint64_t* keys,
                                 const uint32_t* offsets, SliceScratch* sc, const SliceDijkstraState& s,
                                 const Tournament& tournament) {
  const uint32_t S = s.slice;
  const uint64_t lo64 = (uint64_t)grid.block * S;
  const uint32_t lo = lo64 < n ? (uint32_t)lo64 : n;
  const uint32_t count = n - lo < S ? n - lo : S;
  const uint32_t lane = grid.thread % kWarp, warp = grid.thread / kWarp;
  const uint64_t started = grid.leader() ? grid.now_ns() : 0;
  uint64_t relaxations = 0, improvements = 0, rounds = 0;
  const bool profiled = s.profile && grid.thread == 0;
  uint64_t spent[kProfileWords] = {}, mark = profiled ? slice_clock() : 0;
  auto lap = [&](uint32_t part) {
    if (profiled) {
      const uint64_t now = slice_clock();
      spent[part] += now - mark;
      mark = now;
    }
  };
  for (uint32_t i = grid.thread; i < count; i += grid.width) keys[i] = lo + i == source ? to_bits(0.0) : kInfBits;
  // This thread's candidates for the slice's least key: the whole slice before the first round
  // (the source's key is the only finite one), then what each round changed (the header).
  Candidate mine = kNoCandidate;
  for (uint32_t i = grid.thread; i < count; i += grid.width)
    if (lo + i == source) mine = Candidate{keys[i], source};
  for (uint32_t round = 0;; ++round) {
    // Each warp's least candidate, then (the block barrier) the block's, in the tournament.
    mine = warp_least(mine);
    if (lane == 0) {
      sc->key[warp] = mine.key;
      sc->vertex[warp] = mine.vertex;
    }
    grid.block_sync();
    lap(0);
    // The tournament: this slice's minimum out, every block's in.
    uint32_t rereads = 0;
    const bool stop_now = grid.leader() && s.budget_ns && grid.now_ns() - started > s.budget_ns;
    const Winner won = tournament(grid, round, stop_now, sc, &rereads);
    if (profiled) spent[3] += rereads;
    lap(1);
    const Candidate best = won.best;
    if (won.stop) {
      // Every block sees block 0's stop bit in the same round, so all leave together; a failed
      // wait leaves the error flag up, which ends every other block's waits too.
      if (grid.leader() && !grid.err.raised()) gq::store<gq::mo::relaxed>(grid.ctl + kAbort, 1u);
      break;
    }
    if (best.key >= kInfBits || from_bits(best.key) > limit || best.vertex >= n) break;  // nothing left
    const uint32_t u = best.vertex;
    const double du = from_bits(best.key);
    const bool owner = u - lo < count;  // this block's slice holds u (u < lo wraps past count)
    // The follower x (the header), the same in every block: kNoVertex when u has no edge of the
    // least weight, or x would lie beyond the limit.
    uint32_t x = won.light == kLightInTable ? (s.light ? s.light[u] : kNoVertex) : won.light;
    const double dx = du + s.w_light;
    if (x >= n || x == u || !(dx <= limit)) x = kNoVertex;
    const bool x_owner = x - lo < count;
    if (grid.leader()) ++rounds;
    // The next round's candidates: another block's u leaves this block's offer standing (thread 0,
    // of warp 0, holds it); the owner's offer was u, so it rescans (below). So does x's owner,
    // whose offer may have been x (offered again once settled, x would win a round for nothing):
    // x is left out of both scans and of the lowered keys, and its owner decides at the end of
    // the round whether x is settled or still a candidate.
    const bool rescan = owner || x_owner;
    mine = !rescan && grid.thread == 0 ? won.offered : kNoCandidate;
    const uint32_t first = offsets[u], last = offsets[u + 1];
    const uint32_t x_first = x < n ? offsets[x] : 0, x_last = x < n ? offsets[x + 1] : 0;
    // One edge from `from` (at distance d) to `target` with weight w; a decrease-key is a
    // shared-memory minimum. Neither u nor x is offered: u is leaving, x is decided below.
    auto relax = [&](uint32_t from, double d, int32_t target, double w) {
      ++relaxations;
      const uint32_t v = (uint32_t)target - lo;
      if (v >= count) {  // a layout that does not match the slices: never write outside this one
        grid.err.raise(gq::kCorrupt, gq::kSiteSliceRound, ((uint64_t)from << 32) | (v + lo));
        return;
      }
      // An edge into u never lowers u (fl(d + w) >= d >= d_u), and is skipped: its atomic minimum
      // could otherwise land after the settle below and clear the settled bit; so is x's self-loop.
      if (v + lo == u || v + lo == from) return;
      const double nd = d + w;
      if (nd <= limit && !(keys[v] & kSettledBit) && lower_key(keys, v, nd)) {
        ++improvements;
        const Candidate c{to_bits(nd), v + lo};
        if (v + lo != x && c.below(mine)) mine = c;
      }
    };
    // Relax the edges of u and of x that land in this slice. A thread loads kRelaxBatch edges of
    // each before it relaxes any, so their loads are in flight together (at 300 M edges on the
    // seed DAG each of the cluster's 16 blocks above u takes about 1,250 edges of a row a round:
    // kRelaxBatch 2 or 8 was slower than 4, run 91). Every thread makes the first pass, edges or
    // not: the rescans run under its loads.
    for (uint32_t k = grid.thread, pass = 0; pass == 0 || first + k < last || x_first + k < x_last;
         k += kRelaxBatch * grid.width, ++pass) {
      int32_t target[kRelaxBatch], x_target[kRelaxBatch];
      double weight[kRelaxBatch], x_weight[kRelaxBatch];
      for (uint32_t j = 0; j < kRelaxBatch; ++j)
        if (first + k + j * grid.width < last) {
          target[j] = s.edges.indices[first + k + j * grid.width];
          weight[j] = s.edges.weights[first + k + j * grid.width];
        }
      for (uint32_t j = 0; j < kRelaxBatch; ++j)
        if (x_first + k + j * grid.width < x_last) {
          x_target[j] = s.edges.indices[x_first + k + j * grid.width];
          x_weight[j] = s.edges.weights[x_first + k + j * grid.width];
        }
      if (pass == 0 && rescan)
        for (uint32_t i = grid.thread; i < count; i += grid.width) {
          const Candidate c{keys[i], lo + i};  // settled keys are never below +inf
          if (lo + i != u && lo + i != x && c.below(mine)) mine = c;
        }
      for (uint32_t j = 0; j < kRelaxBatch && first + k + j * grid.width < last; ++j)
        relax(u, du, target[j], weight[j]);
      for (uint32_t j = 0; j < kRelaxBatch && x_first + k + j * grid.width < x_last; ++j)
        relax(x, dx, x_target[j], x_weight[j]);
    }
    // The owner settles u: no thread of this round touches u's key (edges into u are skipped
    // above, and the rescans leave u out), so this plain write races with nothing; the next
    // round's block barrier publishes it before any thread reads u's key again.
    if (owner && grid.thread == 0) keys[u - lo] |= kSettledBit;
    // x's owner, once every lowering of x's key this round is done (the block barrier: only this
    // block's threads write its slice): x's key exactly d_x is final and x's edges went out with
    // it, so x is settled; any other unsettled key of x (below d_x) is a candidate again.
    if (x_owner) {
      grid.block_sync();
      if (grid.thread == 0) {
        const uint64_t kx = keys[x - lo];
        if (kx == to_bits(dx)) {
          keys[x - lo] = kx | kSettledBit;
        } else if (!(kx & kSettledBit)) {
          const Candidate c{kx, x};
          if (c.below(mine)) mine = c;
        }
      }
    }
    if (profiled && owner) {
      spent[4] += slice_clock() - mark;
      ++spent[5];
    }
    lap(2);
  }
  if (profiled)
    for (uint32_t i = 0; i < kProfileWords; ++i)
      gq::fetch_add<gq::mo::relaxed>(s.profile + kProfileWords * grid.block + i, spent[i]);
  for (uint32_t i = grid.thread; i < count; i += grid.width) {
    const uint64_t k = keys[i];
    gq::store<gq::mo::relaxed>(s.dist + lo + i, (k & kSettledBit) ? k & ~kSettledBit : kInfBits);
  }
  if (relaxations) gq::fetch_add<gq::mo::relaxed>(s.stats + 1, relaxations);
  if (improvements) {
    gq::fetch_add<gq::mo::relaxed>(s.stats + 2, improvements);
    gq::fetch_add<gq::mo::relaxed>(s.stats + 3, improvements);
  }
  if (grid.leader()) gq::fetch_add<gq::mo::relaxed>(s.stats + 0, rounds);
}

}  // namespace sssp
