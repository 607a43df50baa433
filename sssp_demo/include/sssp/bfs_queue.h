// sssp/bfs_queue.h — queue-driven level-synchronous BFS (seed 001, Sec. V.B.a and VI.D) as one
// persistent grid: the frontier of each level lives in a concurrent FIFO queue of the queue layer
// (gq::Queue, chosen at build time by GQ_QUEUE_KIND: G-LFQ, SFQ, G-WFQ, G-WFQ-YMC), and two
// queues alternate: level r dequeues queue r % 2 until it answers EMPTY (or the level's dequeues
// add up to the frontier's size) and enqueues the vertices it discovers into queue (r + 1) % 2.
// The levels are separated by the grid barrier (grid.h); the neighbour expansion is bfs_levels.h's.
//
// Why EMPTY ends a warp's level (the non-waiting kinds): nobody enqueues into the queue being
// drained during its level, so a linearizable EMPTY answer means every element has been taken. An
// EMPTY answer takes no ticket (ScqRing::observed_empty), so a hundred thousand threads meeting an
// empty ring at every level's end leave its slots alone for the next level's enqueuers. The keeper
// still checks after each level that the dequeues counted equal the enqueues (else kCorrupt: an
// element was lost, never a silently wrong depth).
//
// A queue kind with a blocking interface (SFQ, gq/blocking.cuh) is used through it. A blocking
// dequeue is a ticket drawn from Head, then a wait for its slot's element, so the tickets are drawn
// ahead: every lane holds a ticket on each queue, the level that drains a queue has the lanes whose
// tickets fall below the queue's Tail take their elements, and a warp draws its next tickets
// while it expands what it took (bfs_queue_blocking_levels). The level's size is what the queue's
// Tail gained, read after the barrier, so no other count is kept: SFQ's run 292 against drawing
// at the level's start (kernel ms, road-24M / road-2M / Kron-21 / Delaunay-21 at one block an SM,
// H200): tickets ahead 55.6 / 13.5 / 1.65 / 6.71, and the size from Tail instead of a count in C
// 54.1 / 13.2 / 1.57 / 6.52, where drawing at the level's start gave 55.7-56.0 / 13.9 / 1.65 / 6.6-6.7.
// (Run 291 had the ahead step at 57.2 -> 55.7 on road-24M.) It gains less than the round trip
// it was meant to hide: per-level stamps (run 295) have a level's last warp holding its element
// 1.02 us after the barrier, compaction's 0.51 us. Not the draw's doing: the SASS has the take's
// read wait for no result of the draw's fetch-add, and with no draw inside a level (runs 305-306)
// the element still came 1.02 us after the barrier; the cause is open (benchmarks/results/README.md,
// runs 299-306). The enqueues of the next frontier read no turn: a
// vertex is enqueued once, and the host makes each queue's capacity the vertex count, so no
// ticket leaves lap 0 (Sfq::put), and the levels use SFQ's one-lap view (SfqView<true>: no
// division and no later lap's wait compiled in; a ticket past lap 0 would raise kCapacity). They
// go in a visit_edges batch at a time, several a lane
// (BatchEmit, below). SFQ's non-waiting claim is a CAS loop on Head, which a level's dequeuers
// would take one at a time (over its 1 s budget on every graph, run 226); its blocking tickets
// come a warp at a time (H200, run 234: road-24M 86 ms and Kron-21 1.98 ms, G-LFQ's 199 and
// 3.55). A lost vertex leaves a take waiting on its slot's turn: the spin budget ends the kernel
// with an error (the site names the wait).
//
// A queue holds at most one frontier; `capacity` (<= the queue kind's limit) bounds it. A full
// queue ends the kernel with kCapacity at kSiteFrontier (detail: the level); a blocking queue is
// never fuller than its capacity, which the host makes the vertex count (sssp_demo/bfs.py).
#pragma once
#include <gq/blocking.cuh>
#include <gq/queue_select.cuh>
#include "bfs_levels.h"

namespace sssp {

struct BfsQueues {
  uint64_t* base[2];  // two queues of gq::Queue::words(capacity, threads) words, initialised
  uint64_t capacity;
};

// Vertices a lane may hold back before its warp enqueues them (QueueEmit).
constexpr uint32_t kEmitBatch = 8;

// The queue form's emit. An enqueue is a chain of a dozen dependent atomics (run 59: a road
// graph's levels cost 51 us with G-LFQ against 9 us with compaction), and an emit per edge step
// made one chain per step that found a vertex. So a lane holds the vertices it wins (up to
// kEmitBatch), and its warp enqueues them together when a lane is full and at the end of its
// drain or chunk phase: numbered lane by lane, a warp's worth at a time, lane l taking number
// base + l, so a warp pays one chain per 32 vertices. The frontier count is still taken at each
// emit; the level's barrier comes after the last flush, so the next level finds them all.
struct QueueEmit {
  LevelPair<gq::Queue> q;  // the two queues; a vertex of depth `level` goes into q[level]
  uint32_t tid;
  uint32_t* ctl;
  const gq::ErrorFlag& err;
  uint32_t held[kEmitBatch] = {};
  uint32_t count = 0, level = 0;

  // Warp-uniform, as expand's emits are.
  GQ_HD void operator()(uint32_t v, bool fresh, uint32_t lvl) {
    if (gq::ballot(kFullWarp, count == kEmitBatch)) flush();
    level = lvl;  // every emit between two flushes is for one level
    for (uint32_t j = 0; j < kEmitBatch; ++j)
      if (fresh && j == count) held[j] = v;  // constant indices: `held` stays in registers
    count += fresh ? 1u : 0u;
    warp_count(ctl + kBfsFrontier0 + lvl % 3, fresh);
  }

  // Warp-uniform: the emits of one visit_edges batch.
  GQ_HD void batch(const uint32_t* v, const bool* fresh, uint32_t lvl) {
    for (uint32_t j = 0; j < kEdgeBatch; ++j) (*this)(v[j], fresh[j], lvl);
  }

  // Warp-uniform. Lane l enqueues vertex number base + l of the warp's held ones; its owner is
  // the first lane whose running count passes that number (a binary search over the lanes'
  // running counts, by shuffles), and it is that lane's k-th.
  GQ_HD void flush() {
    const uint32_t lane = gq::lane_id();
    const uint32_t incl = warp_inclusive_sum(count);
    const uint32_t total = gq::shuffle(kFullWarp, incl, kWarp - 1);
    const gq::Queue out = q[level];
    for (uint32_t base = 0; base < total; base += kWarp) {
      const uint32_t want = base + lane;
      uint32_t owner = 0;
      for (uint32_t step = kWarp / 2; step; step >>= 1)
        if (gq::shuffle(kFullWarp, incl, owner + step - 1) <= want) owner += step;
      const uint32_t k = want - (gq::shuffle(kFullWarp, incl, owner) - gq::shuffle(kFullWarp, count, owner));
      uint32_t v = 0;
      for (uint32_t j = 0; j < kEmitBatch; ++j) {
        const uint32_t x = gq::shuffle(kFullWarp, held[j], owner);
        if (j == k) v = x;
      }
      if (want < total && !out.try_enqueue(v, tid, err) && !err.raised())
        err.raise(gq::kCapacity, gq::kSiteFrontier, level);
    }
    count = 0;
  }
};

// The blocking form's emit: each visit_edges batch goes straight into the next frontier's queue,
// a lane's fresh vertices with one enqueue_batch (one fetch-add a warp, the lane's slots read
// together and written together), as the compaction form appends a batch with one fetch-add and
// its stores. Holding vertices back for QueueEmit's flush made every level's end a chain of its
// own: on road-24M, per level (H200, run 277, %globaltimer stamps), 2.3 us from the last edge's
// CAS to the flush's tickets (the held vertices' shuffles and the code that emits them), then
// 1.2 us of ticket and put, where compaction's append took 0.06 us after the same CASes. With
// BatchEmit (run 278, against c65f409 in one call): road-24M 84.6 -> 72.7 ms, road-2M 20.3 ->
// 17.5, Kron-21 1.89 -> 1.67; Delaunay-21 8.37 -> 8.63 (its rows of about six edges take two
// batches, so two enqueues a lane where the flush made one).
// Nothing else counts the frontier: the next level reads its size off the queue's Tail
// (TicketsAhead, below).
// The enqueues are relaxed (Sfq::put's `Publish`), and so are the dequeues: a level only enqueues
// into the queue the next level drains, and the grid barrier between the two levels orders every
// thread's writes before every thread's reads (grid.h). H200, run 280 (kernel ms, road-2M /
// road-24M / Kron-21 / Delaunay-21): with the release and acquire 16.9 / 68.6 / 1.61 / 7.99,
// relaxed 16.1 / 65.5 / 1.40 / 7.29; relaxed but reading every turn (before lap 0 skipped them)
// 17.3 / 70.8 / 1.50 / 8.18; before both 18.1 / 74.2 / 1.69 / 8.84.
template <class Q>
struct BatchEmit {
  LevelPair<Q> q;  // as QueueEmit's
  const gq::ErrorFlag& err;

  GQ_HD void batch(const uint32_t* v, const bool* fresh, uint32_t lvl) const {
    bool any = false;
    for (uint32_t j = 0; j < kEdgeBatch; ++j) any = any || fresh[j];
    if (!gq::ballot(kFullWarp, any)) return;  // warp-uniform: nothing found
    // The whole warp is here (the ballot above), on one queue (lvl is warp-uniform).
    if (!q[lvl].template enqueue_batch<kEdgeBatch, gq::mo::relaxed, true>(v, fresh, err) && !err.raised())
      err.raise(gq::kCapacity, gq::kSiteFrontier, lvl);
  }
  GQ_HD void flush() const {}
};

// The level loop of the non-waiting form (G-LFQ, G-WFQ, G-WFQ-YMC): sizes counted in C.
template <class Q>
GQ_HD inline void bfs_queue_levels(const Grid& grid, const BfsGraph& g, const BfsState& s, LevelPair<Q> q) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  const uint32_t tid = grid.rank();
  QueueEmit emit{q, tid, ctl, err};
  auto drain = [&](uint32_t level, uint32_t count, BfsCounts& c) {
    const Q cur = q[level];
    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;
    uint32_t* took = ctl + kBfsTaken0 + level % 3;
    const bool look = looks_first(grid, count);
    // A frontier of `count` vertices no larger than the grid is taken in one round: the threads
    // of rank below `count` make one dequeue each and stop. Exactly `count` dequeues then meet
    // `count` elements while nobody enqueues, so each gets one (a failed one would linearize at
    // an instant the queue is empty, which needs `count` successful ones besides it). The rest
    // go straight to the barrier, as the compaction form's threads without an item do, so a road
    // graph's small frontiers do not meet a hundred thousand pollers at every level, and nobody
    // asks again to be told EMPTY (a chain of its own at every level).
    // A larger frontier is drained by every warp until one of its lanes has seen EMPTY (nobody
    // enqueues into this queue during the level, so it stays empty), or until the level's
    // running count of dequeues T reaches the frontier's size.
    // T is added to as the warp dequeues (the add in flight while it expands), so the keeper's
    // no-loss check reads the same total: a lost vertex keeps T short, and the check fails.
    const bool one_round = count <= grid.size();
    const bool tries = !one_round || grid.rank() < count;
    for (;;) {
      uint32_t u = 0;
      const bool got = tries && cur.try_dequeue(&u, tid, err);
      const uint32_t mask = gq::ballot(kFullWarp, got);
      if (!mask) break;
      uint32_t before = 0;
      if (gq::lane_id() == gq::first_lane(mask)) before = gq::fetch_add<gq::mo::relaxed>(took, gq::popcount(mask));
      expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
      before = gq::shuffle(kFullWarp, before, gq::first_lane(mask));
      const bool all_taken = before + gq::popcount(mask) >= count;
      if (one_round || all_taken || gq::ballot(kFullWarp, tries && !got) || gq::ballot(kFullWarp, err.raised()))
        break;
    }
    emit.flush();
  };
  auto check = [&](uint32_t level) {
    const uint32_t put = gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3);
    const uint32_t took = gq::load<gq::mo::relaxed>(ctl + kBfsTaken0 + level % 3);
    if (put != took && !err.raised()) err.raise(gq::kCorrupt, gq::kSiteFrontier, level);
  };
  BfsCounts c;
  CountedSize size{ctl};
  bfs_levels(grid, g, s, size, drain, emit, check, c);
}

// The blocking form's dequeue tickets, drawn ahead (the header): this lane's next ticket on the
// queue the level drains (ahead) and on the other (ahead_next), and the elements the levels so far
// have put into each (end, end_next): a ticket below its queue's end holds an element. The two
// swap roles with every level. As bfs_levels' `size`: a level's frontier is what its queue's Tail
// has gained since the level before last, read after the barrier (no count of its own in C).
//
// It is also what the threads of a level's barrier do while they wait (Grid::sync_read's Poll).
// After a level's drain, `ahead` is the lane's ticket on the queue the next level drains and
// `end` that queue's end before this level's emits, which are putting the next level's elements
// in now. A ticket a little past the end (kPollWindow) is likely one of them, so the lane looks at
// its slot (Sfq::peek) until it finds the element or the barrier is over, and the next level's
// first turn starts from the element in hand (`held`) rather than from the slot's read, a round
// trip after the barrier that compaction's frontier read matches and nothing here overlapped.
// With the element the lane reads its row's bounds (indptr), the next round trip of that chain,
// and then a small row's first heads (RowHeads, bfs_levels.h): graph data, so the level's first
// turn starts with the CASes, the first step that must wait for the barrier.
// Only a look: the element counts as taken when the level takes it (Sfq::hand_back), and expanding
// it still waits for the barrier. A ticket whose element is seen is below the next level's end: the
// element was put, so its ticket had been drawn from Tail before the barrier.
// Measured (H100, run 379, kernel ms in alternating rounds of one call, one block an SM): road-2M
// 11.89 -> 11.43 ms (0.91x -> 0.94x compaction), road-24M 48.76 -> 47.05 (0.96x -> 1.00x),
// Delaunay-21 5.85 -> 5.62 (0.95x -> 0.98x), Kron-21 1.44 -> 1.42; the look without the row's
// bounds gained less than half of that (road-2M 11.69). A block's warp 0 cannot look then: its
// thread 0 waits at the grid barrier. It looked once just after the release (run 380: road-2M
// 11.48 -> 11.20 ms) until it became a waiter warp with no tickets (run 388, below). The heads
// (run 395, an H100, the same measure): road-2M 11.00 -> 10.27 ms (0.99x -> 1.06x compaction),
// road-24M 44.85 -> 42.47 (1.05x -> 1.11x), Delaunay-21 5.57 -> 5.34 (1.00x -> 1.04x), Kron-21
// even; 80 registers, as before. The level's last item is in hand later (0.51 -> 0.64 us after the
// first release on road-2M: a block leaves its wait with its slowest poller's step) and its
// expansion ends sooner (2.78 -> 2.40 us). Two batches' heads (8) gained Delaunay-21 another 1 %
// and cost the road graphs 2 % (90 registers).
constexpr uint64_t kTaken = ~0ull;  // a lane's ticket once its element is taken (below)
constexpr bool kBfsWaiterWarp = GQ_DEVICE_BUILD;  // a warp a block that only waits (below)
template <class Q>
struct TicketsAhead {
  static constexpr uint64_t kPollWindow = 8192;
  static constexpr bool kPolls = true;
  static constexpr uint32_t kWord = 3;  // verdict's word after sync_read's two values
  LevelPair<Q> q;
  BfsGraph g;
  uint64_t ahead = 0, ahead_next = 0, end = 0, end_next = 0;
  uint32_t epoch = 0, next = 0;  // next: the level whose queue `ahead` is on (after swap)
  uint32_t item = 0;             // the element of ticket `ahead`, when held
  bool held = false;
  int64_t row_begin = 0, row_end = 0;  // its row, when held (a step reads both)
  RowHeads heads;                      // and the row's first heads (the same step)

  // A ticket a little past the end whose element this lane has not seen yet.
  GQ_HD bool wants() const { return !held && ahead != kTaken && ahead - end < kPollWindow; }

  GQ_HD void step() {
    if (wants()) {
      held = q[next].template peek<gq::mo::relaxed>(ahead, &item);
      if (held) {
        row_begin = g.indptr[item];
        row_end = g.indptr[item + 1];
        heads.read(g, row_begin, row_end);
      }
    } else {
      uint32_t ns = 64;
      gq::backoff(ns);
    }
  }

  GQ_HD GQ_INLINE const uint32_t* word(uint32_t level) const { return q[level].tail_low(); }
  GQ_HD GQ_INLINE uint32_t count(uint32_t, uint32_t tail) const { return tail - (uint32_t)end; }
  GQ_HD GQ_INLINE void swap() {
    const uint64_t a = ahead, e = end;
    ahead = ahead_next;
    end = end_next;
    ahead_next = a;
    end_next = e;
    ++next;
  }
};

// The level loop of the blocking form (SFQ). A warp holds one run of kWarp consecutive tickets on
// each queue, lane l the run's l-th: a lane that has taken its element marks its ticket kTaken, and
// the warp draws its next run (one fetch-add, as wave_faa) in the turn where its last lanes take.
// So a level's tickets fall to about count / kWarp whole warps, as the compaction form's items do.
// Drawn a lane at a time, runs split wherever a level's end cuts one, and a road graph's small
// frontiers spread, level after level, over more warps with a lane or two each, each warp with a
// fetch-add on Head and Tail of its own. Measured alone it changed nothing (H200, run 294:
// road-24M 54.1 -> 54.3 ms, road-2M 13.2 -> 13.2); it bounds the warps a level touches.
// On the GPU, a block's warp 0 only waits at the grid barrier (kBfsWaiterWarp): it holds no
// tickets and takes no part in a level's drain, and the block has a ninth warp for it
// (kernels/bfs.cu). So every warp with tickets polls its slots through the barrier, where a warp 0
// with tickets could look only after the release and fetched its row a round trip later. Per-level
// stamps (H100, run 388, road-2M): the grid's last first item 0.74 -> 0.61 us after the first
// release (compaction's 0.45), the level 5.31 -> 5.15 us. Kernel ms in alternating rounds of one
// call, one block an SM: road-2M 11.21 -> 10.93 (0.98x -> 1.00x compaction), road-24M 46.41 ->
// 44.71 (1.02x -> 1.06x), Delaunay-21 5.63 -> 5.57 (0.99x -> 1.00x), Kron-21 1.431 -> 1.394;
// two blocks an SM gained alike. On the CPU a block is one thread, which works.
template <class Q>
GQ_HD inline void bfs_queue_blocking_levels(const Grid& grid, const BfsGraph& g, const BfsState& s,
                                            LevelPair<Q> q) {
  uint32_t* ctl = grid.ctl;
  const gq::ErrorFlag& err = grid.err;
  BatchEmit<Q> emit{q, err};
  TicketsAhead<Q> tickets{q, g};
  if (kBfsWaiterWarp && grid.thread < kWarp) {
    tickets.ahead = tickets.ahead_next = kTaken;  // the waiter: no tickets, no level work
  } else {
    tickets.ahead = gq::wave_faa<gq::mo::relaxed>(q.even.head());  // every lane's first run on each queue
    tickets.ahead_next = gq::wave_faa<gq::mo::relaxed>(q.odd.head());
  }
  auto drain = [&](uint32_t level, uint32_t count, BfsCounts& c) {
    const Q cur = q[level];
    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;
    const bool look = looks_first(grid, count);
    // A lane whose ticket is below the queue's end takes its element and goes on while its next
    // one is below the end too. Tickets are drawn in order and each is held until taken, so the
    // level takes exactly the tickets [end before, end): its `count` elements, each enqueued
    // before the level's barrier, so no take waits.
    const uint64_t end = tickets.end += count;
    uint64_t ahead = tickets.ahead;
    // An element seen at the barrier is the first turn's (its ticket is below the end).
    bool held = tickets.held;
    tickets.held = false;
    if (held && ahead >= end) err.raise(gq::kCorrupt, gq::kSiteFrontier, level);
    for (;;) {
      const bool have = ahead < end;
      if (!gq::ballot(kFullWarp, have)) break;
      const bool spent = gq::ballot(kFullWarp, !have && ahead != kTaken) == 0u;
      const gq::WaveFaaPending redraw = gq::wave_faa_begin<gq::mo::relaxed>(cur.head(), spent);
      uint32_t u = tickets.item;
      const bool got = have && (held ? (cur.hand_back(ahead), true) : cur.template take<gq::mo::relaxed>(ahead, &u, err));
      const int64_t begin = !got ? 0 : held ? tickets.row_begin : g.indptr[u];
      const int64_t row_end = !got ? 0 : held ? tickets.row_end : g.indptr[u + 1];
      expand_row(g, s, u, got, begin, row_end, level + 1, look, chunk_count, c, err, emit, held, tickets.heads);
      held = false;
      const uint64_t drawn = gq::wave_faa_finish(redraw);
      ahead = spent ? drawn : have ? kTaken : ahead;
      // The flag only where another turn follows: after the last, the barrier reads it anyway,
      // and this read's round trip was the warp's last step before it.
      if (gq::ballot(kFullWarp, ahead < end && err.raised())) break;
    }
    tickets.ahead = ahead;
    tickets.swap();
  };
  // No count to check: a ticket below the end whose element was lost waits for it until its spin
  // budget raises the error (the site names the wait), and the level takes every ticket below it.
  auto check = [](uint32_t) {};
  BfsCounts c;
  bfs_levels(grid, g, s, tickets, drain, emit, check, c);
}

// The whole run. Before it: depth all kUnvisited but the source's 0, parent all kUnvisited, the
// queues initialised (empty), the control words zero.
template <class Q>
GQ_HD inline void bfs_queue_run(const Grid& grid, const BfsGraph& g, uint32_t source, const BfsState& s,
                                LevelPair<Q> q) {
  if constexpr (gq::has_blocking<Q>::value) {
    const LevelPair<decltype(q.even.one_lap())> one{q.even.one_lap(), q.odd.one_lap()};
    if (grid.leader()) one.even.enqueue(source, grid.rank(), grid.err);
    bfs_queue_blocking_levels(grid, g, s, one);
  } else {
    if (grid.leader() && q.even.try_enqueue(source, grid.rank(), grid.err))
      gq::store<gq::mo::relaxed>(grid.ctl + kBfsFrontier0, 1u);
    bfs_queue_levels(grid, g, s, q);
  }
}
GQ_HD inline void bfs_queue_grid(const Grid& grid, const BfsGraph& g, uint32_t source, const BfsState& s,
                                 const BfsQueues& bq) {
  const LevelPair<gq::Queue> q{gq::Queue::view(bq.base[0], bq.capacity, grid.size()),
                               gq::Queue::view(bq.base[1], bq.capacity, grid.size())};
  bfs_queue_run(grid, g, source, s, q);
}

}  // namespace sssp
