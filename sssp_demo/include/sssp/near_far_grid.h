// sssp/near_far_grid.h — Near-Far delta-stepping as ONE persistent grid (Davidson et al., "Work-
// Efficient Parallel GPU Methods for Single-Source Shortest Paths", IPDPS 2014), the parallel form
// of near_far.h; frontier Bellman-Ford is the same loop with Delta = threshold = +inf (every
// improved vertex is "near", the far pile stays empty).
//
// Rounds: `advance_batches` relaxes the near frontier's items with an atomic minimum on the distance
// bits; a vertex whose distance this thread lowered goes, if it is below the threshold, into the
// next near frontier (once per generation: an exchange on its stamp), else into the far pile
// (once: a flag). When the near frontier runs dry, the far phase: (F1) the grid finds the nearest
// far vertex that is not stale (stale: below the threshold, so it was relaxed as a near vertex);
// (F2) the threshold rises by whole deltas past it, and the pile splits into the new near frontier
// and the pile that stays. Rounds and phases are separated by the grid barrier, and every loop
// decision is read by all threads from the same words after a barrier, so all leave together.
//
// Words (after grid.h's): three item-list lengths used in rotation (round r reads r % 3, fills
// (r + 1) % 3, and its leader clears (r + 2) % 3, which nobody touches in round r), the two
// far-pile lengths; two 64-bit slots (NearFarState::nearest) hold the far phases' minima.
//
// Small frontiers (a maze's corridors, a road graph's edge of the search) are block 0's alone:
// it runs local rounds while the others wait at one grid barrier. Those rounds keep their
// frontiers in block 0's shared memory (`own`), counted there, as OwnItems that carry the edge
// range the pusher read from v's row; so a local round's critical path is two device-memory
// round trips (u's edges and distance, then the atomic minimum with v's row read beside it) and
// two block barriers. A one-chunk vertex goes in without the `mark` exchange (a vertex lowered
// twice in a round is then relaxed twice, with the same distance: the second finds nothing to
// lower), so a round's items stay at most its relaxations. What does not fit `own` spills to the
// device list, and block 0 then hands the frontier back to the grid.
#pragma once
#include "advance.h"

namespace sssp {

enum NearFarWord : uint32_t {
  kNfItems0 = kCtlFirstFree,      // three item-list lengths
  kNfFar0 = kCtlFirstFree + 3,    // two far-pile lengths
  kNfRound = kCtlFirstFree + 5,   // round and generation after block 0's local rounds
  kNfGen = kCtlFirstFree + 6,
  kNfWords = kCtlFirstFree + 7
};

// An item of block 0's own lists: v's edges [begin, begin + count), one chunk, as the pusher
// read them from v's row (the chunk's number is (begin - indptr[v]) / ch).
struct OwnItem {
  int64_t begin;
  uint32_t v, count;
};

struct NearFarState {
  uint64_t* dist;        // [n] distance bits, +inf but the source's +0
  uint64_t* items[2];    // near frontiers, cap `item_cap` each
  uint32_t item_cap;
  uint32_t* far[2];      // far piles, n each
  uint32_t* in_far;      // [n] 0/1
  uint32_t* mark;        // [n] generation stamp of the last near frontier that took the vertex
  uint64_t* nearest;     // [2] the far phases' minima, used in turn, +inf at start
  uint64_t* stats;       // rounds, relaxations, improvements (added to)
  uint32_t lanes, ch;    // advance shape
  uint64_t budget_ns;    // 0: none; else the leader stops the grid (kAbort) once past it
  uint32_t local_items;  // frontiers of at most this many items are relaxed by block 0 alone
  OwnItem* own[2];       // block 0's frontiers in its local rounds, own_cap items each (GPU: shared memory)
  uint32_t* own_count;   // [2] their lengths (GPU: shared memory)
  uint32_t own_cap;
};

// The GPU kernel's own lists, items each (kernels/near_far.cu): twice the largest local round of
// the launchers' default shape (one pass of 512 one-lane items). A launch may ask for rounds of
// up to 2,048 items (4 passes); a next round past 1,024 spills and goes back to the grid anyway.
constexpr uint32_t kOwnItems = 1024;

// advance_batches over block 0's own items: each item names its edges, so the edges and u's
// distance are read at once.
template <class Visit>
GQ_HD GQ_INLINE void advance_own(const Grid& grid, const uint64_t* dist, const OwnItem* items, uint32_t nitems,
                                 uint32_t lanes, uint32_t ch, Visit visit) {
  walk_items(grid, dist, nitems, lanes, ch, [&](uint32_t i) {
    const OwnItem item = items[i];
    return EdgeRange{item.v, item.begin, item.begin + item.count};
  }, visit);
}

// Items the device lists need beyond n + m / ch (one generation's pushes, deduplicated by `mark`)
// for block 0's local rounds: the pushes made without the exchange, at most a round's
// relaxations, and `own`, copied after them when block 0 hands the frontier back. A local round
// takes at most local_items items, and no more than the device list (n + m / ch + 1) or own
// list holds, of at most ch edges each: 4,096 relaxations with the GPU launchers' shapes.
// (sssp_demo/grid_forms.py's run_cuda sizes the lists the same way.)
GQ_HD GQ_INLINE uint64_t local_spare(uint64_t n, uint64_t m, uint32_t local_items, uint32_t ch, uint32_t own_cap) {
  const uint64_t held = n + (m + ch - 1) / ch + 1 + own_cap;
  return (local_items < held ? local_items : held) * ch + own_cap;
}

// The smallest threshold + k * delta (k >= 1) above `nearest` (> threshold), found by one division
// and a few steps; where delta is too small to move a threshold that large, the next double above
// `nearest` (any threshold above it keeps the result exact: it only sorts near from far).
GQ_HD inline double raise_threshold(double threshold, double nearest, double delta) {
  const double steps = (nearest - threshold) / delta;
  double t = threshold + (steps < 9.0e18 ? (double)(int64_t)steps : steps) * delta;
  for (int i = 0; i < 4 && t <= nearest; ++i) t += delta;
  return t > nearest ? t : from_bits(to_bits(nearest) + 1);
}

GQ_HD inline void near_far_grid(const Grid& grid, const Csr& g, uint32_t source, double limit, double delta,
                                const NearFarState& s) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  const uint64_t started = grid.leader() ? grid.now_ns() : 0;
  uint64_t relaxations = 0, improvements = 0, rounds = 0;
  if (grid.leader()) {  // the first frontier: the source's chunks
    const uint32_t n0 = chunks_of(g, source, s.ch);
    for (uint32_t c = 0; c < n0; ++c) s.items[0][c] = ((uint64_t)c << 32) | source;
    gq::store<gq::mo::relaxed>(ctl + kNfItems0, n0);
  }
  double threshold = delta;  // Bellman-Ford: +inf
  uint32_t r = 0, gen = 1, fp = 0;
  bool go = grid.sync();
  // Every near round ends here: the leader clears the list two rounds ahead, counts the round
  // and checks the time budget.
  auto end_round = [&]() {
    if (grid.leader()) {
      gq::store<gq::mo::relaxed>(ctl + kNfItems0 + (r + 2) % 3, 0u);
      ++rounds;
      if (s.budget_ns && grid.now_ns() - started > s.budget_ns) grid.request_stop();
    }
    ++r;
  };
  // A lane's batch of edges out of a frontier item (advance_batches), relaxed with the batch's
  // loads, then its atomic minima (with v's row length read beside them, for its chunks), then
  // its exchanges each in flight together. Improved vertices go to the next frontier: block 0's
  // own lists in its local rounds (`own` not null), else the device list; or to the far pile.
  // Grid rounds read each distance before the atomic (lower_distance's reason); local rounds,
  // short and uncontended, take the atomic at once. Warp-wide.
  auto relax_batch = [&](double du, int64_t k, int64_t end, uint32_t stride, uint32_t stamp, OwnItem* own,
                         uint32_t* own_count, const ItemList& next) {
    uint32_t v[kEdgeBatch], chunks[kEdgeBatch], got[kEdgeBatch], take[kEdgeBatch];
    uint64_t want[kEdgeBatch], old[kEdgeBatch];
    int64_t row[kEdgeBatch], row_end[kEdgeBatch];
    bool ok[kEdgeBatch], far[kEdgeBatch];
    for (uint32_t j = 0; j < kEdgeBatch; ++j) {
      const int64_t e = k + (int64_t)j * stride;
      const bool live = e < end;
      v[j] = live ? (uint32_t)g.indices[e] : 0u;
      const double nd = du + (live ? g.weights[e] : 0.0);
      want[j] = to_bits(nd);
      ok[j] = live && nd <= limit;
      relaxations += live ? 1u : 0u;
    }
    for (uint32_t j = 0; j < kEdgeBatch; ++j) {
      row[j] = ok[j] ? g.indptr[v[j]] : 0;
      row_end[j] = ok[j] ? g.indptr[v[j] + 1] : 0;
      old[j] = ok[j] && !own ? gq::load<gq::mo::relaxed>(s.dist + v[j]) : 0u;
    }
    for (uint32_t j = 0; j < kEdgeBatch; ++j)
      if (ok[j] && (own || want[j] < old[j])) old[j] = fetch_min_bits(s.dist, v[j], want[j]);
    // What each lowered vertex needs: the far pile's flag, or (a near vertex of several chunks,
    // or any near vertex in a grid round) its generation stamp; a local round's one-chunk near
    // vertex goes in without one.
    for (uint32_t j = 0; j < kEdgeBatch; ++j) {
      chunks[j] = (uint32_t)((row_end[j] - row[j] + s.ch - 1) / s.ch);
      const bool lowered = ok[j] && old[j] > want[j];
      improvements += lowered ? 1u : 0u;
      far[j] = lowered && from_bits(want[j]) >= threshold;
      take[j] = lowered && !far[j] ? chunks[j] : 0u;
      got[j] = 0u;
      if (far[j]) got[j] = gq::exchange<gq::mo::relaxed>(s.in_far + v[j], 1u);
      else if (take[j] && !(own && take[j] == 1u)) got[j] = gq::exchange<gq::mo::relaxed>(s.mark + v[j], stamp);
    }
    for (uint32_t j = 0; j < kEdgeBatch; ++j) {
      far[j] = far[j] && got[j] == 0u;
      if (take[j] && !(own && take[j] == 1u) && got[j] == stamp) take[j] = 0u;
    }
    push_batch(own_count, s.own_cap, [&](uint32_t slot, uint32_t j, uint32_t c) {
      const int64_t b = row[j] + (int64_t)c * s.ch, left = row_end[j] - b;
      own[slot] = OwnItem{b, v[j], (uint32_t)(left < s.ch ? left : s.ch)};
    }, next, v, take, err);
    push_vertices(s.far[fp], ctl + kNfFar0 + fp, g.n, v, far, err);
  };
  // One near round over the grid: relax the current frontier's items, fill the next one (the
  // device list) and the far pile.
  auto near_round = [&](uint32_t nitems) {
    const uint32_t stamp = ++gen;
    const ItemList next{s.items[(r + 1) & 1], ctl + kNfItems0 + (r + 1) % 3, s.item_cap};
    advance_batches(grid, g, s.dist, s.items[r & 1], nitems, s.lanes, s.ch,
                    [&](uint32_t, double du, int64_t k, int64_t end, uint32_t stride) {
                      relax_batch(du, k, end, stride, stamp, nullptr, nullptr, next);
                    });
    end_round();
  };
  // One of block 0's local rounds (`blk`: block 0 as a grid of one): the frontier `cur` of
  // `nitems` items (the device list, or one of its own), the next into own[to] while it fits,
  // the rest spilling into the device list.
  auto local_round = [&](const Grid& blk, uint32_t j, uint32_t nitems, uint32_t to) {
    const uint32_t stamp = ++gen;
    const ItemList spill{s.items[(r + 1) & 1], ctl + kNfItems0 + (r + 1) % 3, s.item_cap};
    auto visit = [&](uint32_t, double du, int64_t k, int64_t end, uint32_t stride) {
      relax_batch(du, k, end, stride, stamp, s.own[to], s.own_count + to, spill);
    };
    if (j == 0) advance_batches(blk, g, s.dist, s.items[r & 1], nitems, s.lanes, s.ch, visit);
    else advance_own(blk, s.dist, s.own[j & 1], nitems, s.lanes, s.ch, visit);
    end_round();
  };
  while (go) {
    const uint32_t nitems = gq::load<gq::mo::relaxed>(ctl + kNfItems0 + r % 3);
    if (nitems && nitems <= s.local_items) {
      // A small frontier: block 0 runs rounds on its own (block barriers only) until the frontier
      // empties or outgrows it, then tells everyone where it is: one grid barrier for the lot.
      if (grid.block == 0) {
        const Grid blk = grid.block_only();
        if (grid.thread == 0) s.own_count[0] = s.own_count[1] = 0u;
        grid.wait_for_others();  // they have read this round's length; block 0 now rotates the lists
        // Round j reads the device list (j = 0) or own[j & 1], and fills own[(j + 1) & 1]; thread
        // 0 decides whether to go on and clears the list just read (read again only in round j + 2).
        uint32_t n = nitems, held = 0;
        for (uint32_t j = 0;; ++j) {
          local_round(blk, j, n, (j + 1) & 1);
          grid.block_sync();
          if (grid.thread == 0) {
            const uint32_t next = s.own_count[(j + 1) & 1];
            // The error flag and the stop word are device reads: every 32nd round is soon enough.
            const bool stopping = (j & 31u) == 31u && (err.raised() || gq::load<gq::mo::relaxed>(ctl + kAbort) != 0u);
            const bool again = next && next <= s.own_cap && next <= s.local_items && j + 1 < kMaxLocalRounds && !stopping;
            s.own_count[j & 1] = 0u;
            gq::store<gq::mo::relaxed>(grid.verdict, again ? 1u : 0u);
          }
          grid.block_sync();
          n = s.own_count[(j + 1) & 1];
          if (!gq::load<gq::mo::relaxed>(grid.verdict)) {
            held = (j + 1) & 1;
            break;
          }
        }
        // Back to the grid: this round's frontier is what spilled to the device list, then own[held].
        const uint32_t kept = n < s.own_cap ? n : s.own_cap;
        uint32_t* length = ctl + kNfItems0 + r % 3;
        const uint32_t spilled = gq::load<gq::mo::relaxed>(length);
        grid.block_sync();  // every thread has read the spilled count before thread 0 moves it on
        if ((uint64_t)spilled + kept > s.item_cap) err.raise(gq::kCapacity, gq::kSiteFrontier, (uint64_t)spilled + kept);
        else
          for (uint32_t i = grid.thread; i < kept; i += grid.width) {
            const OwnItem& item = s.own[held][i];
            const uint64_t chunk = (uint64_t)((item.begin - g.indptr[item.v]) / s.ch);
            s.items[r & 1][spilled + i] = (chunk << 32) | item.v;
          }
        if (grid.thread == 0) {
          gq::store<gq::mo::relaxed>(length, spilled + kept);
          gq::store<gq::mo::relaxed>(ctl + kNfRound, r);
          gq::store<gq::mo::relaxed>(ctl + kNfGen, gen);
        }
      }
      go = grid.sync();
      r = gq::load<gq::mo::relaxed>(ctl + kNfRound);
      gen = gq::load<gq::mo::relaxed>(ctl + kNfGen);
      continue;
    }
    if (nitems) {
      near_round(nitems);
      go = grid.sync();
      continue;
    }
    // The near frontier ran dry: the far phase. (F1) the nearest live far vertex.
    const uint32_t nfar = gq::load<gq::mo::relaxed>(ctl + kNfFar0 + fp);
    if (nfar == 0) break;
    for_each_warp_uniform(grid, nfar, [&](uint32_t i, bool live) {
      if (!live) return;
      const uint32_t v = s.far[fp][i];
      const uint64_t b = gq::load<gq::mo::relaxed>(s.dist + v);
      if (!(from_bits(b) < threshold)) {
        uint64_t seen = gq::load<gq::mo::relaxed>(s.nearest + fp);
        while (b < seen) {
          const uint64_t found = gq::cas<gq::mo::relaxed>(s.nearest + fp, seen, b);
          if (found == seen) break;
          seen = found;
        }
      }
    });
    if (!grid.sync()) break;
    const double nearest = from_bits(gq::load<gq::mo::relaxed>(s.nearest + fp));
    if (!(nearest < 1.0 / 0.0)) break;  // every far vertex was stale
    // (F2) the threshold passes the nearest, the new near frontier splits off the pile.
    const double next_threshold = raise_threshold(threshold, nearest, delta);
    const uint32_t stamp = ++gen;
    const ItemList now{s.items[r & 1], ctl + kNfItems0 + r % 3, s.item_cap};  // empty: refill it
    for_each_warp_uniform(grid, nfar, [&](uint32_t i, bool live) {
      bool near = false, stays = false;
      uint32_t v = 0;
      if (live) {
        v = s.far[fp][i];
        const double dv = read_distance(s.dist, v);
        if (dv < threshold) {
          gq::store<gq::mo::relaxed>(s.in_far + v, 0u);  // stale: relaxed as a near vertex already
        } else if (dv < next_threshold) {
          gq::store<gq::mo::relaxed>(s.in_far + v, 0u);
          near = gq::exchange<gq::mo::relaxed>(s.mark + v, stamp) != stamp;
        } else {
          stays = true;
        }
      }
      push_chunks(g, now, s.ch, v, near, err);
      push_vertex(s.far[fp ^ 1], ctl + kNfFar0 + (fp ^ 1), g.n, v, stays, err);
    });
    if (grid.leader()) {
      gq::store<gq::mo::relaxed>(ctl + kNfFar0 + fp, 0u);
      // The other phase's minimum: last read before the previous barrier, next used after this one
      // (this phase's is still being read by threads that have not reached F2).
      gq::store<gq::mo::relaxed>(s.nearest + (fp ^ 1), kInfBits);
    }
    threshold = next_threshold;
    fp ^= 1;
    go = grid.sync();
  }
  if (relaxations) gq::fetch_add<gq::mo::relaxed>(s.stats + 1, relaxations);  // most threads of a small run: none
  if (improvements) gq::fetch_add<gq::mo::relaxed>(s.stats + 2, improvements);
  if (grid.leader()) gq::fetch_add<gq::mo::relaxed>(s.stats + 0, rounds);
}

}  // namespace sssp
