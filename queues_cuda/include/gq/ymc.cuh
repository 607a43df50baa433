// gq/ymc.cuh — G-WFQ-YMC: Yang and Mellor-Crummey's wait-free queue (PPoPP 2016) on a segment
// pool preallocated in device memory (seed 001 Sec. III.A).
//
// The queue is YMC's infinite array of cells indexed by two fetch-add counters, Tail (enqueue
// tickets) and Head (dequeue tickets). Each cell has three fields:
//   val  ⊥ (nothing yet), ⊤ (a dequeuer gave up on it), or the enqueued 32-bit value
//   enq  ⊥e, ⊤e, or the enqueue request (thread id) a helper reserved the cell for
//   deq  ⊥d, ⊤d (taken by its own dequeuer), or the dequeue request the cell was given to; in a
//        cell that can never hold a value, the verdict every visitor answers: ⊤d (try on) or ∅d
//        (EMPTY)
// An operation tries the fast path (one ticket, one CAS) GQ_WFQ_PATIENCE + 1 times (default 10
// retries), then publishes a request in its fixed per-thread record: enq {id, val}, deq {id, idx}
// (id > 0 pending from cell id; -i: done, at cell i). Dequeuers help enqueue requests cell by cell
// (help_enq, peer ring `Ep`/`Ei`) and, after a successful dequeue, one peer's dequeue request
// (help_deq, peer ring `Dh`) every GQ_WFQ_HELP_DELAY dequeues (default 1, as in YMC).
//
// GPU adaptation (the seed's): no linked list of segments and no allocation. Cell i lives at
// slot i mod C of a ring of C = P x N cells (P segments of N cells) found by arithmetic. Instead of
// YMC's hazard-pointer cleanup of list nodes, the pool is reused:
//   * every cell field is one 64-bit word {tag = lap + 1 : 32 | payload : 32}, lap = i / C. A
//     word with an older tag reads as the fresh field of the current lap (nothing to clear when a
//     slot is reused), a newer tag as "gone": a laggard's CAS on a reused slot fails instead of
//     writing into another lap's cell;
//   * each thread publishes a hazard `hz`, the lowest cell it may still need (min(Head, Tail)
//     read before its next ticket; refreshed before every fast-path attempt, pinned while a
//     request of its own is pending, ~0 when idle). The reuse frontier O rises to
//     min(Head, Tail, every hz); cells below O are dead (both ticket holders and every request
//     that could claim them are done), and cell i may be touched only while i < O + C;
//   * a ticket at or beyond O + C waits (bounded) for the frontier to move. If it cannot move (a
//     stalled thread holds an old cell, or more than C elements are queued) the spin budget runs
//     out and the error flag reports the exhausted pool: never a hang, never a wild write.
// A helper that helps a finished peer may still touch that peer's dead cells: it can only fail a
// CAS there or write a field no later lap reads (no pending request can claim a cell below O).
//
// Progress: the operations are YMC's and wait-free while the pool has room; waiting for the
// frontier is the price of bounded memory (the seed's YMC preallocates and never reuses). A
// pending slow-path dequeue keeps its hazard at its start cell, so a dequeue whose search spans
// more than C cells (a pool far too small for the threads' skew) ends in the pool error.
// Unbounded: never FULL. `n` (capacity) only sizes the pool (below): the queue holds up to about C
// elements before enqueues wait for dequeues to free cells.
//
// Memory order: every shared access is seq_cst (YMC's proof assumes sequential consistency).
#pragma once
#include "arch.cuh"
#include "queue_stats.cuh"
#include "wave_faa.cuh"

#ifndef GQ_WFQ_PATIENCE
#define GQ_YMC_PATIENCE 10
#else
#define GQ_YMC_PATIENCE GQ_WFQ_PATIENCE
#endif
#ifndef GQ_WFQ_HELP_DELAY
#define GQ_YMC_HELP_DELAY 1
#else
#define GQ_YMC_HELP_DELAY (GQ_WFQ_HELP_DELAY > 0 ? GQ_WFQ_HELP_DELAY : 1)
#endif

// Pool size C = max(GQ_YMC_POOL_MIN, GQ_YMC_CELLS_PER_THREAD x threads + 4 x n) cells, rounded up
// to whole segments. Tests shrink it to make the pool wrap within one history.
#ifndef GQ_YMC_POOL_MIN
#define GQ_YMC_POOL_MIN 4096
#endif
#ifndef GQ_YMC_CELLS_PER_THREAD
#define GQ_YMC_CELLS_PER_THREAD 16
#endif
// Hazards one call of raise_frontier reads (a segment). Tests shrink it so that a few CPU threads
// make several segments.
#ifndef GQ_YMC_SCAN_SEGMENT
#define GQ_YMC_SCAN_SEGMENT 1024
#endif

// Test hook: GQ_YMC_WIDEN_CLAIM_RACE (CPU runtime only) gives the core away between a claimer's
// look at a request and its claim CAS, and between a dequeue helper's find and its announce CAS,
// so the checker meets the races of help_enq and help_deq within a few hundred histories instead
// of 10^4 (tests/queues_cuda/test_ymc_claim_race.py).
#if defined(GQ_YMC_WIDEN_CLAIM_RACE) && !GQ_DEVICE_BUILD
#define GQ_YMC_CLAIM_WINDOW() \
  do { for (int gq_k = 0; gq_k < 16; ++gq_k) sched_yield(); } while (0)
#else
#define GQ_YMC_CLAIM_WINDOW() \
  do { } while (0)
#endif

// Test hook: GQ_YMC_LATE_ENQUEUE_NS (device builds only) holds every eighth fast-path enqueue that
// many nanoseconds between its ticket and its write, so that the cell's dequeuer, done with its
// spin (help_enq), closes it first; at patience 0 both then take the slow path. Without it,
// whether YMC left its fast path in the GPU's forced slow-path test was up to the timing: 0 to 114
// entries (runs 27 and 328-331), and 0 once its frontier scan was quick (run 352)
// (tests/queues_cuda/test_gpu_queues.py).
#if defined(GQ_YMC_LATE_ENQUEUE_NS) && GQ_DEVICE_BUILD
#define GQ_YMC_FAST_WINDOW(i) \
  do { if ((i) % 8u == 0u) __nanosleep(GQ_YMC_LATE_ENQUEUE_NS); } while (0)
#else
#define GQ_YMC_FAST_WINDOW(i) \
  do { } while (0)
#endif

namespace gq {

struct Ymc {
  static constexpr const char* kName = "ymc";
  static constexpr uint64_t kMaxCapacity = 1ull << 26;
  static constexpr uint64_t kSegment = 64;  // N: cells per segment

  // Payloads of the fields (low 32 bits of a cell word).
  static constexpr uint32_t kBotV = 0xFFFFFFFFu, kTopV = 0xFFFFFFFEu;  // val: ⊥, ⊤
  static constexpr uint32_t kBotR = 0u, kTopR = 0xFFFFFFFFu;           // enq/deq: ⊥, ⊤; else tid + 1
  static constexpr uint32_t kEmptyD = 0xFFFFFFFEu;                      // deq: ∅d (threads < 2^32 - 2)
  // Logical reads return a payload, or one of these.
  static constexpr uint64_t kGone = 1ull << 32;   // the slot already holds a later lap's cell
  static constexpr uint64_t kEmptyR = 1ull << 33;  // help_enq: the queue was empty at this cell

  static constexpr uint64_t kLine = kHotStride;  // Tail, Head and Frontier served apart (arch.cuh)
  static constexpr uint64_t kTail = 0, kHead = kLine, kFrontier = 2 * kLine, kRecords = 3 * kLine;
  static constexpr uint64_t kRecordWords = 8;
  enum Field : uint64_t { kHz = 0, kEnqId, kEnqVal, kDeqId, kDeqIdx, kEp, kEi, kDh };
  static constexpr uint64_t kIdle = ~0ull;

  uint64_t* base;
  uint64_t cells;    // C
  uint64_t threads;
  uint64_t* stats;

  GQ_HD static uint64_t pool_cells(uint64_t n, uint64_t threads) {
    uint64_t c = (uint64_t)GQ_YMC_CELLS_PER_THREAD * threads + 4 * n;
    if (c < (uint64_t)GQ_YMC_POOL_MIN) c = GQ_YMC_POOL_MIN;
    if (c < 3 * threads + kSegment) c = 3 * threads + kSegment;  // the ticket gate's room (gate)
    return (c + kSegment - 1) / kSegment * kSegment;
  }
  static constexpr uint64_t kScanSegment = GQ_YMC_SCAN_SEGMENT;
  GQ_HD static uint64_t segments(uint64_t threads) { return (threads + kScanSegment - 1) / kScanSegment; }
  // Each segment's minimum (raise_frontier) follows the records, then the cells.
  GQ_HD static uint64_t minima_at(uint64_t threads) { return kRecords + threads * kRecordWords; }
  GQ_HD static uint64_t cells_at(uint64_t threads) { return minima_at(threads) + segments(threads); }
  GQ_HD static uint64_t stats_at(uint64_t n, uint64_t threads) { return cells_at(threads) + 3 * pool_cells(n, threads); }
  GQ_HD static uint64_t words(uint64_t n, uint64_t threads) {
    return hot_round_up(stats_at(n, threads) + stat_words(threads));
  }
  GQ_HD static Ymc view(uint64_t* base, uint64_t n, uint64_t threads) {
    return Ymc{base, pool_cells(n, threads), threads, base + stats_at(n, threads)};
  }
  // Tickets start at 1 (a request id of 0 means none); cell words start untouched (tag 0).
  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t /*n*/, uint64_t threads) {
    if (i == kTail || i == kHead) return 1;
    if (i >= kRecords && i < minima_at(threads)) {
      const uint64_t r = i - kRecords, tid = r / kRecordWords;
      switch (r % kRecordWords) {
        case kHz: return kIdle;
        case kDeqIdx: return (uint64_t)-1;  // idx < id: no pending dequeue request
        case kEp: case kDh: return (tid + 1) % threads;
        default: return 0;
      }
    }
    return 0;
  }
  GQ_HD static void stats_sum(const uint64_t* base, uint64_t n, uint64_t threads, uint64_t* out) {
    stat_sum(base + stats_at(n, threads), threads, out);
  }

  GQ_HD uint64_t* tail() const { return base + kTail; }
  GQ_HD uint64_t* head() const { return base + kHead; }
  GQ_HD uint64_t* frontier() const { return base + kFrontier; }
  GQ_HD uint64_t* cursor() const { return base + kFrontier + 1; }  // the segment the next scan reads
  GQ_HD uint64_t* minimum(uint64_t seg) const { return base + minima_at(threads) + seg; }
  GQ_HD uint64_t* rec(uint64_t tid, uint64_t f) const { return base + kRecords + tid * kRecordWords + f; }
  GQ_HD uint64_t* field(uint64_t i, uint32_t k) const { return base + cells_at(threads) + (i % cells) * 3 + k; }
  GQ_HD uint64_t* val(uint64_t i) const { return field(i, 0); }
  GQ_HD uint64_t* enq(uint64_t i) const { return field(i, 1); }
  GQ_HD uint64_t* deq(uint64_t i) const { return field(i, 2); }
  GQ_HD uint32_t tag(uint64_t i) const { return (uint32_t)(i / cells + 1); }
  GQ_HD static int64_t sload(const uint64_t* p) { return (int64_t)load<mo::seq_cst>(p); }

  // The field of cell i as cell i sees it: fresh (`fresh`) for an older tag, kGone for a newer.
  GQ_HD uint64_t logical(uint64_t w, uint64_t i, uint32_t fresh) const {
    const int32_t d = (int32_t)((uint32_t)(w >> 32) - tag(i));
    return d < 0 ? fresh : d > 0 ? kGone : (w & 0xFFFFFFFFull);
  }
  GQ_HD uint64_t read(uint64_t* p, uint64_t i, uint32_t fresh) const { return logical(load<mo::seq_cst>(p), i, fresh); }
  // CAS the field of cell i from `expect` to `want` (payloads). Returns the payload found (equal to
  // `expect` on success). Retries only while the word changes without changing for cell i.
  GQ_HD uint64_t cas_field(uint64_t* p, uint64_t i, uint32_t fresh, uint32_t expect, uint32_t want) const {
    uint64_t w = load<mo::seq_cst>(p);
    for (;;) {
      const uint64_t now = logical(w, i, fresh);
      if (now != expect) return now;
      const uint64_t seen = cas<mo::seq_cst>(p, w, ((uint64_t)tag(i) << 32) | want);
      if (seen == w) return expect;
      w = seen;
    }
  }
  // Write a claimed enqueue's value into cell i (its owner and the claiming dequeuer both do; the
  // first wins). A CAS from ⊤ (or ⊥), never a plain store: only cell i's own lap may be written.
  GQ_HD void commit(uint64_t i, uint32_t v) const {
    if (cas_field(val(i), i, kBotV, kBotV, v) != kBotV) cas_field(val(i), i, kBotV, kTopV, v);
  }

  // --- the segment pool

  GQ_HD void publish_hazard(uint32_t tid) const {
    const uint64_t h = load<mo::seq_cst>(head()), t = load<mo::seq_cst>(tail());
    store<mo::seq_cst>(rec(tid, kHz), h < t ? h : t);
  }

  // Raise the frontier towards min(Head, Tail, every hazard), the cells below which are dead.
  //
  // The hazards are cut into segments of kScanSegment threads, and each segment keeps a minimum:
  // a call reads Head and Tail, then one segment's hazards (the next one a relaxed cursor names),
  // raises that segment's minimum to what it found, and raises the frontier to the least of all
  // the minima. A segment's minimum is a bound by the argument of reach() (Head and Tail read
  // before the hazards: a hazard published after the read comes from a later min(Head, Tail)),
  // and it stays one, since a thread only ever moves on to cells above it; so the least of the
  // minima is a bound whenever each was found, and both only rise (a CAS up, never down). No lock:
  // every waiting warp scans a segment of its own at the same time. The lanes of a warp that call
  // together for the same queue read the segment as one (every width-th hazard from a lane's rank;
  // they take the least), and every lane runs the same iterations, the last word read again where
  // a lane runs out, so no branch holds the loads' fences. For the same queue: a warp's lanes can
  // wait on different queues at once (the tile renderer's), and one partition over all of them
  // would leave some of each queue's hazards unread (675a248 did).
  //
  // Why: one lane reading every hazard, a seq_cst load after another, under a try-lock, took
  // longer than the 0.04 s window at 2^14 threads (run 351 on an H100, runs 226 and 341 on the H200
  // alike: YMC's balanced kernel completed no operation inside it, every one in the warm-up or
  // after the window, about 19 a thread; at 2^13 each window counted one or two pools' room), so
  // the benchmark timed the scan, not the queue. A warp reading them all (run 353: 0 -> 840 M
  // ops/s at 2^14 threads, 7.5 -> 641 M at 2^13; H100, one call) still left 2^18 threads no
  // operation inside a 0.02 s window (run 358): 8,192 loads in a row. By segments, with no lock:
  // 1.05 G ops/s at 2^14 threads and 5.78 G at 2^18 (run 359, the same H100 call as the warp's
  // 843 M and 230 M); below 2^14 the warp's scan was quicker (404 against 277 M at 2^12).
  GQ_HD void raise_frontier() const {
    const uint32_t lanes = peers(active_mask(), frontier());
    const uint32_t lane = lane_id(), leader = first_lane(lanes);
    const uint64_t width = popcount(lanes), rank = popcount(lanes & lanes_below(lane));
    const uint64_t nseg = segments(threads);
    uint64_t seg = 0;
    if (nseg > 1) {
      if (lane == leader) seg = fetch_add<mo::relaxed>(cursor(), 1ull) % nseg;  // no fence in the branch
      seg = shuffle(lanes, seg, leader);
    }
    const uint64_t first = seg * kScanSegment;
    const uint64_t end = first + kScanSegment < threads ? first + kScanSegment : threads;
    const uint64_t h = load<mo::seq_cst>(head()), t = load<mo::seq_cst>(tail());
    uint64_t low = h < t ? h : t;
    for (uint64_t k = first; k < end; k += width) {
      const uint64_t z = load<mo::seq_cst>(rec(k + rank < end ? k + rank : end - 1, kHz));
      if (z < low) low = z;
    }
    low = reduce_min(lanes, low);
    // The least minimum, with this segment's counted at what the scan found (it is raised to
    // that below).
    uint64_t least = ~0ull;
    for (uint64_t k = 0; k < nseg; k += width) {
      const uint64_t at = k + rank < nseg ? k + rank : nseg - 1;
      uint64_t m = load<mo::seq_cst>(minimum(at));
      if (at == seg && m < low) m = low;
      if (m < least) least = m;
    }
    least = reduce_min(lanes, least);
    if (lane == leader) {  // nothing collective follows
      raise_to(minimum(seg), low);
      raise_to(frontier(), least);
    }
  }

  // *p := max(*p, v), by CAS: a word that only rises. Each lost CAS saw it rise.
  GQ_HD static void raise_to(uint64_t* p, uint64_t v) {
    uint64_t now = load<mo::seq_cst>(p);
    while (now < v) {
      const uint64_t seen = cas<mo::seq_cst>(p, now, v);
      if (seen == now) return;
      now = seen;
    }
  }

  // The ticket gate: a fast-path attempt draws its Head or Tail ticket only while that counter is
  // below frontier + C - 2 x threads, and waits here otherwise, holding nothing (hazard idle).
  //
  // Why: a pending dequeue request pins the frontier at its start (its hazard; any helper may
  // still begin its scan there), and it ends only at a cell that holds an unclaimed value or
  // answers EMPTY, which may be as far up as Tail. Without the gate, fast dequeuers and enqueuers
  // kept drawing tickets while its scanners lagged (a preempted owner on the CPU; on the GPU one
  // serial scan against thousands of ticket holders, pollers answering EMPTY helping nobody), so
  // Head and Tail ran C cells past its start; every cell it could reach was consumed or closed,
  // every cell it needed was beyond frontier + C, and all threads ended up waiting for a frontier
  // that could never move: the pool error (tests/queues_cuda/test_ymc_split_pool.py). With the
  // gate, each thread holds at most one ticket drawn past it (fast path, or enq_slow's current
  // cell; enq_slow's abandoned tickets are cells a dequeuer closed, below Head), so Head and Tail
  // stay below frontier + C - 2 x threads + threads, and the search of a request, which ends by
  // the first EMPTY cell at or above Tail, needs no cell beyond frontier + C; gated threads wait
  // until the request ends and its owner's hazard goes. Scanners (help_deq) and enq_slow are not
  // gated: they serve a pending request, the thing waited for. pool_cells keeps C >= 3 x threads
  // plus one segment, so the gate always has room.
  GQ_HD bool gate(uint64_t* counter, uint32_t tid, const ErrorFlag& err) const {
    const uint64_t room = cells - 2 * threads;
    if (load<mo::seq_cst>(counter) < load<mo::seq_cst>(frontier()) + room) return true;
    store<mo::seq_cst>(rec(tid, kHz), kIdle);
    Spin spin;
    for (;;) {
      raise_frontier();
      const uint64_t c = load<mo::seq_cst>(counter);
      if (c < load<mo::seq_cst>(frontier()) + room) return true;
      stat_step(stats, tid);
      if (!spin.step(err, kSiteYmcPool, c / kSegment)) return false;
    }
  }

  // May cell i be touched? Raise the frontier (Head and Tail read before the hazards: a hazard
  // published after the scan comes from a later min(Head, Tail), so it is above the result).
  // While it waits, what the caller pins depends on what it holds (`own`, the caller's tid):
  //   kPinned    keep the hazard (a pending dequeue request, or a helper: nothing of its own)
  //   kFast      between fast-path attempts the caller holds nothing but cell i: hazard := i
  //   kEnqSlow   a pending enqueue request: move its start, then the hazard, up to min(Head,
  //              Tail, i) (enq_slow explains why that order), so a long wait never pins the pool
  // Without the last two a thread delayed between its hazard and its ticket would wait for itself.
  enum Wait : uint32_t { kPinned, kFast, kEnqSlow };
  enum Reached : uint32_t { kReached, kGaveUp, kClaimed };

  GQ_HD Reached reach(uint64_t i, const ErrorFlag& err, Wait wait = kPinned, uint32_t own = 0) const {
    if (i < load<mo::seq_cst>(frontier()) + cells) return kReached;
    if (wait == kFast) store<mo::seq_cst>(rec(own, kHz), i);
    Spin spin;
    for (;;) {
      if (wait == kEnqSlow) {
        const uint64_t h = load<mo::seq_cst>(head()), t = load<mo::seq_cst>(tail());
        uint64_t low = h < t ? h : t;
        if (low > i) low = i;
        const int64_t id = sload(rec(own, kEnqId));
        if (id <= 0) return kClaimed;
        if ((uint64_t)id < low) {
          if (cas<mo::seq_cst>(rec(own, kEnqId), (uint64_t)id, low) != (uint64_t)id) return kClaimed;
          store<mo::seq_cst>(rec(own, kHz), low);
        }
      }
      raise_frontier();
      if (i < load<mo::seq_cst>(frontier()) + cells) return kReached;
      stat_step(stats, own);
      if (!spin.step(err, kSiteYmcPool, i / kSegment)) return kGaveUp;
    }
  }

  // Raise a counter past cell i (a committed cell must be below Tail, a scanned one below Head).
  GQ_HD void advance(uint64_t* counter, uint64_t i, const ErrorFlag& err, uint32_t site) const {
    Spin spin(GQ_CLAIM_BUDGET);
    uint64_t c = load<mo::seq_cst>(counter);
    while (c <= i) {
      const uint64_t seen = cas<mo::seq_cst>(counter, c, i + 1);
      if (seen == c) return;
      c = seen;
      if (!spin.step(err, site, i)) return;
    }
  }

  // --- enqueue

  // catchup (sCQ's, from the enqueue side): an enqueuer whose cell i was closed raises
  // Tail to Head at once when Head is past i + 1. Dequeuers that raced past Tail on an emptying
  // queue leave Head ahead of Tail by up to a ticket a thread, every cell between closed; without
  // this, the next enqueuers burnt them a ticket at a time, and one that ran out of patience walked
  // them one cell a step on the slow path, helped by no dequeuer (the queue BFS: thousands of
  // steps, tens of ms on Kron-21, while the rest of the grid waited at the level's barrier).
  // Safe because it is what enqueuers that draw those tickets and find their cells closed would
  // do: no cell gets a value from it. A skipped cell nobody filled is closed by its dequeue ticket's
  // holder, which finds Tail past it (verdict: ⊤, not EMPTY) and tries on, as behind a late
  // enqueuer. A value still goes only into a cell below Tail, and catchup raises Tail no higher
  // than Head, so the pool's bounds (reach, the ticket gate: min(Head, Tail), and Head's own
  // bound) are kept.
  //
  // Once a warp: the lanes that call it together for the same queue (they drew consecutive tickets
  // by one wave_faa and each found its cell closed) send one leader, which raises Tail when Head is
  // past the group's lowest cell + 1, as the lane holding that cell would. Any one enqueuer's
  // catchup is safe by the argument above, so one for the group is too. Each lane doing its own
  // (a793291) had every lane of a warp CAS Tail from the same value, one winning and the rest
  // failing on the queue's hottest line. The leader's branch ends the call: no collective follows
  // it here (wave_faa.cuh says why that matters).
  // Measured (H100): Kron-21 BFS 64-80 -> 3.5 ms, no slow-path entry left; tile renders steady
  // (spheres100 2.5-8.1 -> 9.5-9.9 G rays/s; runs 365-366, 369). Catchup a lane cost the 25 % split
  // at 2^16-2^18 threads 8-37 % (run 366). In one call (run 368), that split at 2^17 threads: once a
  // warp 3.36-3.39 G ops/s, a lane 2.36-2.37, no catchup at all 3.37-3.40; at 2^18 with 0.5 s
  // windows (run 370) once a warp 3.53-3.54, none 3.55-3.56.
  GQ_HD void catchup(uint64_t i, const ErrorFlag& err) const {
    const uint32_t lanes = peers(active_mask(), tail());
    const uint64_t low = reduce_min(lanes, i);
    if (lane_id() != first_lane(lanes)) return;
    const uint64_t h = load<mo::seq_cst>(head());
    if (h > low + 1) advance(tail(), h - 1, err, kSiteYmcEnqueue);
  }

  GQ_HD void enq_slow(uint32_t v, uint64_t id, uint32_t tid, const ErrorFlag& err) const {
    stat_add(stats, tid, kStatSlow);
    // Start no lower than Head. A cell's enq field stays reserved for this thread after the
    // request it was reserved for is done; such cells lie below Head (their visitor held or
    // passed their ticket), so a new request that starts at Head is not claimed into one where a
    // dequeuer that already left would never see the value (found by the checker with 64-128
    // threads: an element stranded behind EMPTY answers). A visitor that reserved a cell for an
    // earlier request and reads this request's id afterwards finds it above its cell (Head was
    // already past the cell when it was read) and leaves the cell alone. (The stranded element
    // that 128-thread stresses still met once in 10^4 histories came mostly from a lost claim
    // race in help_enq, explained there; the one left after that fix, once in 13,700 hooked
    // histories, from two helpers of one dequeue request that disagreed about an empty cell:
    // see verdict.)
    const uint64_t head_now = load<mo::seq_cst>(head());
    if (head_now > id) id = head_now;
    store<mo::seq_cst>(rec(tid, kEnqVal), v);
    store<mo::seq_cst>(rec(tid, kEnqId), id);  // publish: pending from cell id
    Spin spin(GQ_CLAIM_BUDGET);
    while (sload(rec(tid, kEnqId)) > 0) {
      stat_step(stats, tid);
      const uint64_t i = fetch_add<mo::seq_cst>(tail(), 1ull);
      // The hazard protects the cells the request may still be claimed into (a dequeuer that
      // helps a finished dequeue request may touch dead cells, and must find no pending request
      // there). While waiting for room, the request's start moves up to min(Head, Tail) first
      // (claims into older cells then fail: as if it had been published later), the hazard after.
      const Reached r = reach(i, err, kEnqSlow, tid);
      if (r == kGaveUp) return;
      if (r == kClaimed) break;
      const int64_t start = sload(rec(tid, kEnqId));
      if (start <= 0) break;  // claimed meanwhile
      id = (uint64_t)start;
      // Reserve cell i for the request; it is ours unless a dequeuer already gave up on it. Like
      // every claim, only at or after the request's start: a helper that finds the reservation
      // of a request that starts after its cell moves on, and would never see the value.
      if (i >= id && cas_field(enq(i), i, kBotR, kBotR, tid + 1) == kBotR && read(val(i), i, kBotV) != kTopV) {
        GQ_YMC_CLAIM_WINDOW();  // a dequeuer may close cell i (val := ⊤) and race this claim
        cas<mo::seq_cst>(rec(tid, kEnqId), id, (uint64_t)-(int64_t)i);
        break;
      }
      catchup(i, err);
      if (!spin.step(err, kSiteYmcEnqueue, i)) return;
    }
    // Commit where the request was claimed (by this thread or by a helping dequeuer).
    const uint64_t c = (uint64_t)-sload(rec(tid, kEnqId));
    GQ_YMC_CLAIM_WINDOW();  // claimed, not yet committed: visitors of cell c see val ⊤
    advance(tail(), c, err, kSiteYmcEnqueue);
    commit(c, v);
  }

  GQ_HD bool try_enqueue(uint32_t v, uint32_t tid, const ErrorFlag& err) const {
    uint64_t i = 0;
    stat_begin(stats, tid);
    for (uint32_t attempt = 0; attempt <= GQ_YMC_PATIENCE; ++attempt) {
      stat_step(stats, tid);
      if (!gate(tail(), tid, err)) break;
      publish_hazard(tid);  // nothing of this operation is live between attempts
      i = wave_faa<mo::seq_cst>(tail());
      if (reach(i, err, kFast, tid) != kReached) break;
      GQ_YMC_FAST_WINDOW(i);
      if (cas_field(val(i), i, kBotV, kBotV, v) == kBotV) {
        store<mo::seq_cst>(rec(tid, kHz), kIdle);
        stat_add(stats, tid, kStatOk);
        stat_end(stats, tid);
        return true;
      }
      catchup(i, err);
    }
    if (!err.raised()) enq_slow(v, i, tid, err);
    store<mo::seq_cst>(rec(tid, kHz), kIdle);
    if (err.raised()) return false;
    stat_add(stats, tid, kStatOk);
    stat_end(stats, tid);
    return true;
  }

  // --- dequeue

  // What a closed cell that can never hold a value answers: EMPTY when Tail had not passed it,
  // else ⊤. The first visitor's answer is stored in the cell's deq field (unused in such a cell:
  // only values are claimed) and every later visitor answers the same. When each visitor read
  // Tail for itself, a helper of a dequeue request that saw EMPTY (Tail <= i) announced cell i,
  // while another helper of the same request, later, saw ⊤ (an enqueue had moved Tail past i),
  // scanned on, took Head past the next cells (no fast dequeuer ever gets their tickets) and
  // found a value there; the request ended EMPTY at i and that value stayed in a cell nobody
  // visits again: a younger element of the same enqueuer was dequeued before it (128 threads,
  // patience 0, GQ_YMC_WIDEN_CLAIM_RACE: 1 in 13,700 histories; with that hook's window before
  // help_deq's announce CAS, about 12 in 4,600 before this answer was stored, 0 in 10,000 after).
  // With one answer per cell, a helper that passes a cell knows that no helper of the same
  // request can end there as EMPTY, so no helper takes a cell beyond where the request ends.
  // A later visitor's EMPTY is the first one's, linearized when it read Tail: every visitor of
  // cell i holds a ticket below i or cell i's own, both taken before Head passed i, so it was
  // already running then. "Can never hold a value" is final: the cell is closed and its enq
  // field is ⊤e, or its request starts after i or was claimed elsewhere (help_enq below).
  GQ_HD uint64_t verdict(uint64_t i) const {
    const uint32_t mine = (int64_t)(load<mo::seq_cst>(tail()) - i) <= 0 ? kEmptyD : kTopR;
    const uint64_t d = cas_field(deq(i), i, kBotR, kBotR, mine);
    return (d == kBotR ? mine : d) == kEmptyD ? kEmptyR : kTopV;
  }

  // help_enq: what cell i holds for its dequeuer: a value, ⊤ (nothing, try on), or kEmptyR. On the
  // way, a cell nobody filled is closed (val := ⊤) and offered to one pending enqueue request.
  GQ_HD uint64_t help_enq(uint64_t i, uint32_t tid, const ErrorFlag& err) const {
    uint64_t v = read(val(i), i, kBotV);
    for (int k = 0; k < 64 && v == kBotV; ++k) v = read(val(i), i, kBotV);  // YMC's short spin
    if (v == kGone) return kTopV;
    if (v == kBotV) v = cas_field(val(i), i, kBotV, kBotV, kTopV) == kBotV ? kTopV : read(val(i), i, kBotV);
    if (v == kGone) return kTopV;
    if (v != kTopV) return v;
    // The cell is closed for fast enqueuers: give it to a slow-path enqueue request, if any.
    uint64_t e = read(enq(i), i, kBotR);
    if (e == kBotR) {
      uint64_t peer = load<mo::relaxed>(rec(tid, kEp));
      int64_t id = sload(rec(peer, kEnqId));
      const int64_t remembered = (int64_t)load<mo::relaxed>(rec(tid, kEi));
      if (remembered != 0 && remembered != id) {
        store<mo::relaxed>(rec(tid, kEi), 0);
        peer = (peer + 1) % threads;
        store<mo::relaxed>(rec(tid, kEp), peer);
        id = sload(rec(peer, kEnqId));
      }
      uint64_t seen = kBotR;
      if (id > 0 && (uint64_t)id <= i) seen = cas_field(enq(i), i, kBotR, kBotR, (uint32_t)peer + 1);
      if (id > 0 && (uint64_t)id <= i && seen != kBotR && seen != peer + 1) {
        store<mo::relaxed>(rec(tid, kEi), (uint64_t)id);  // lost the cell to another request: keep this peer
      } else {
        store<mo::relaxed>(rec(tid, kEi), 0);
        store<mo::relaxed>(rec(tid, kEp), (peer + 1) % threads);
      }
      cas_field(enq(i), i, kBotR, kBotR, kTopR);  // no request took it: nobody ever will
      e = read(enq(i), i, kBotR);
    }
    if (e == kGone) return kTopV;
    if (e == kTopR) return verdict(i);
    // Cell i is reserved for the request of thread e - 1.
    const uint64_t r = e - 1;
    int64_t ei = sload(rec(r, kEnqId));
    const uint32_t ev = (uint32_t)load<mo::seq_cst>(rec(r, kEnqVal));
    if (ei > (int64_t)i) {
      // The request started after this cell: it cannot use it (nor can the thread's later ones,
      // which start at or above Head). A value here was committed for an earlier request.
      const uint64_t now = read(val(i), i, kBotV);
      if (now == kTopV) return verdict(i);
      return now == kGone ? kTopV : now;
    }
    // Claim the request for cell i. A failed claim CAS must look at what it found, as YMC's
    // compare-exchange does (it writes the found id back into ei): if the winner claimed the
    // request for this same cell i (the enqueuer itself, which reserved cell i and saw val ⊥ just
    // before this dequeuer closed it, or another helper of cell i), this thread commits the value
    // too. Returning the ⊤ it may still read would strand the element: cell i's dequeuer moves on
    // (to its next ticket or a request that starts after i) and Head is past i, while the winner
    // commits the value into cell i afterwards, where no dequeuer comes any more; later dequeues
    // then take younger elements or answer EMPTY while it is queued (the checker's 1 in 10^4).
    // The request's start may also have moved up meanwhile (reach, kEnqSlow); while it is still
    // pending and may use cell i the claim is retried, so that when this visit returns ⊤ the cell
    // can never be claimed any more (the request is done elsewhere or starts after i; the owner's
    // next requests start at or above Head, which is past i): no later visitor of cell i (a
    // helper of a dequeue request, which may leave a claimed cell for an earlier candidate) can
    // commit into it after its dequeuer has left. The start only rises, so this loop is bounded.
    bool claimed = false;
    while (ei > 0 && ei <= (int64_t)i) {
      GQ_YMC_CLAIM_WINDOW();
      const int64_t seen = (int64_t)cas<mo::seq_cst>(rec(r, kEnqId), (uint64_t)ei, (uint64_t)-(int64_t)i);
      claimed = seen == ei;
      ei = seen;
      if (claimed) break;
    }
    // Claimed at i by anyone and not committed yet: commit it (ev is this request's value: its
    // owner publishes the next request only after committing, and val(i) is still ⊤ here).
    if (claimed || (ei == -(int64_t)i && read(val(i), i, kBotV) == kTopV)) {
      if (claimed) stat_add(stats, tid, kStatCompleted);
      advance(tail(), i, err, kSiteYmcDequeue);
      commit(i, ev);
    }
    // Still ⊤: the request is done elsewhere or starts after i, so the cell stays empty.
    const uint64_t now = read(val(i), i, kBotV);
    if (now == kTopV) return verdict(i);
    return now == kGone ? kTopV : now;
  }

  // help_deq: work on thread ph's dequeue request: find the first cell from its id on that holds an
  // unclaimed value (or proves the queue empty), and claim it for the request.
  GQ_HD void help_deq(uint32_t tid, uint64_t ph, const ErrorFlag& err) const {
    int64_t idx = sload(rec(ph, kDeqIdx));
    const int64_t id = sload(rec(ph, kDeqId));
    if (idx < id) return;  // no pending request
    if (ph != tid) stat_add(stats, tid, kStatHelps);
    Spin spin(GQ_CLAIM_BUDGET);
    int64_t i = id + 1, old = id, found = 0;
    for (;;) {
      for (; idx == old && found == 0; ++i) {
        stat_step(stats, tid);
        if (reach((uint64_t)i, err, kPinned, tid) != kReached) return;
        advance(head(), (uint64_t)i, err, kSiteYmcDequeue);
        const uint64_t v = help_enq((uint64_t)i, tid, err);
        if (v == kEmptyR || (v != kTopV && read(deq((uint64_t)i), (uint64_t)i, kBotR) == kBotR))
          found = i;
        else
          idx = sload(rec(ph, kDeqIdx));
        if (!spin.step(err, kSiteYmcDequeue, (uint64_t)i)) return;
      }
      if (found != 0) {
        GQ_YMC_CLAIM_WINDOW();  // other helpers scan on meanwhile (see verdict)
        const uint64_t seen = cas<mo::seq_cst>(rec(ph, kDeqIdx), (uint64_t)idx, (uint64_t)found);
        idx = seen == (uint64_t)idx ? found : (int64_t)seen;
        if (idx >= found) found = 0;
      }
      if (idx < 0 || sload(rec(ph, kDeqId)) != id) return;  // finished (or a new request)
      const uint64_t c = (uint64_t)idx;
      uint64_t d = kBotR;
      if (read(val(c), c, kBotV) == kTopV || (d = cas_field(deq(c), c, kBotR, kBotR, (uint32_t)ph + 1)) == kBotR ||
          d == ph + 1) {
        if (cas<mo::seq_cst>(rec(ph, kDeqIdx), (uint64_t)idx, (uint64_t)-idx) == (uint64_t)idx && ph != tid)
          stat_add(stats, tid, kStatCompleted);
        return;
      }
      old = idx;
      if (idx >= i) i = idx + 1;
      stat_step(stats, tid);
      if (!spin.step(err, kSiteYmcDequeue, c)) return;
    }
  }

  // EMPTY without a ticket: Tail <= Head, Head read first, Tail second (instant τ); linearizable
  // at the Tail read by the invariant verdict's EMPTY already rests on (there: Tail <= i for a
  // cell i below Head). A value is committed only into a cell below Tail: a fast enqueue's own
  // ticket, or a claimed request's cell, past which Tail is advanced before the commit (enq_slow,
  // help_enq). At τ such a cell is below Head(τ): its ticket was drawn before τ, or a helper of a
  // dequeue request pending at τ took Head past it and visits it. Either way the value goes to a
  // dequeue pending at τ (the ticket's holder, or a request that claims the cell first; a request
  // published after τ starts at its owner's last ticket, >= Head(τ), and never reaches the cell),
  // which is ordered just before τ. A value committed after τ is an enqueue pending at τ.
  //
  // This answer is also what keeps the pool usable under split roles. Before it, every empty poll
  // drew a Head ticket and closed a cell; Tail chased Head (enqueuers' tickets found closed cells),
  // and a dequeue request on the slow path, whose hazard pins the frontier at its start cell, was
  // left scanning alone: pollers answering EMPTY help no one (help_deq runs after a successful
  // dequeue only). Once Head and Tail ran C cells past the request's start, the cells its search
  // needed (up to Tail, for EMPTY) were beyond frontier + C, so the request could never finish and
  // every thread ended up waiting for the frontier: the pool error (CPU: 32 threads, 2 producers,
  // patience 0, tests/queues_cuda/test_ymc_split_pool.py; GPU: 2^14 threads, split roles).
  // Polls that take no ticket leave Head at most one racing dequeue per thread past Tail.
  GQ_HD bool observed_empty() const {
    const uint64_t h = load<mo::seq_cst>(head());
    return (int64_t)(load<mo::seq_cst>(tail()) - h) <= 0;
  }
  // The same test on relaxed reads, as a gate for the seq_cst one (ScqRing::looks_empty says why).
  GQ_HD bool looks_empty() const {
    const uint64_t h = load<mo::relaxed>(head());
    return (int64_t)(load<mo::relaxed>(tail()) - h) <= 0;
  }

  GQ_HD bool try_dequeue(uint32_t* out, uint32_t tid, const ErrorFlag& err) const {
    if (looks_empty() && observed_empty()) return false;
    uint64_t v = kTopV, i = 0;
    stat_begin(stats, tid);
    for (uint32_t attempt = 0; attempt <= GQ_YMC_PATIENCE && v == kTopV; ++attempt) {
      stat_step(stats, tid);
      if (!gate(head(), tid, err)) break;
      publish_hazard(tid);
      i = wave_faa<mo::seq_cst>(head());
      if (reach(i, err, kFast, tid) != kReached) break;
      v = help_enq(i, tid, err);
      // A value is ours unless a slow-path dequeue request was given the cell first.
#if defined(GQ_FAULT_YMC_NO_DEQ_CLAIM)
      // Planted fault for the checkers: take the value without claiming the cell's deq field, so
      // a helper of a slow dequeue request may hand the same value to that request too.
      (void)kBotR;
#else
      if (v != kEmptyR && v != kTopV && cas_field(deq(i), i, kBotR, kBotR, kTopR) != kBotR) v = kTopV;
#endif
    }
    if (v == kTopV && !err.raised()) {
      // Slow path: publish {id, idx} (id first: a helper that reads idx >= id sees this request).
      stat_add(stats, tid, kStatSlow);
      store<mo::seq_cst>(rec(tid, kDeqId), i);
      store<mo::seq_cst>(rec(tid, kDeqIdx), i);
      help_deq(tid, tid, err);
      const uint64_t c = (uint64_t)-sload(rec(tid, kDeqIdx));
      const uint64_t w = err.raised() ? kTopV : read(val(c), c, kBotV);
      v = (w == kTopV || w == kGone || w == kBotV) ? kEmptyR : w;
    }
    if (err.raised()) v = kEmptyR;
    if (v != kEmptyR) {
      *out = (uint32_t)v;
      stat_add(stats, tid, kStatOk);
      // Help one peer's dequeue request every GQ_YMC_HELP_DELAY successful dequeues.
      uint64_t* dh = rec(tid, kDh);
      const uint64_t w = load<mo::relaxed>(dh);
      const uint32_t peer = (uint32_t)w, count = (uint32_t)(w >> 32) + 1;
      if (count >= GQ_YMC_HELP_DELAY) {
        // This operation holds no cell any more. The peer's pending request protects the cells
        // it needs (its owner's hazard); on a finished request's dead cells a CAS can only fail
        // or write a field no later lap reads (no pending request can be claimed there).
        store<mo::seq_cst>(rec(tid, kHz), kIdle);
        help_deq(tid, peer, err);
        store<mo::relaxed>(dh, (peer + 1) % threads);
      } else {
        store<mo::relaxed>(dh, ((uint64_t)count << 32) | peer);
      }
    }
    store<mo::seq_cst>(rec(tid, kHz), kIdle);
    stat_end(stats, tid);
    return v != kEmptyR && !err.raised();
  }
};

}  // namespace gq
