// sssp/block_bucket_heap.h — parBucketHeap's operations run by a whole thread block: the same
// structure, layout and semantics as gq/bucket_heap.cuh (seed 000, Section 2: BulkUpdate into
// S_0, ExtractMin from B_0, Resolve = Empty + Fill), with the seed's parallel subroutines in place
// of the sequential scans:
//   * Merge: every entry finds its place by a binary search in the other list (merge by ranks),
//     duplicates of a key are combined, and a block prefix sum over the duplicate flags closes the
//     gaps they leave. The searched list's keys are staged in shared memory first, so a search
//     is a chain of shared-memory loads, not of device-memory round trips;
//   * Select: a radix select over the 96-bit order (priority bits, key), 8 bits a pass, with the
//     digit histogram in block-shared memory and the digit found by warp 0 alone (the seed sorts
//     instead);
//   * the splits of Empty and Fill: stable compactions by a block prefix sum, kPerThread entries
//     a thread per prefix sum;
//   * the minimum of B_0 and the maximum of B_i: warp-shuffle reductions.
// Every decision (sizes, which level, which rule) is computed alike by every thread from words
// read after a block barrier, so the block takes one path through the recursion; sizes are
// written by thread 0 and read after the next barrier (they live in shared memory while a block
// runs the heap: staged()). Results equal the sequential heap's entry for entry
// (tests/sssp_demo/test_block_heap.py runs both on the same programs).
//
// Where a round's time goes is counted by the CPU build (BlockCounts, sssp_demo.bench
// round_counts): a phase between two barriers that reads device memory costs about one
// device-memory round trip, so barriers and dependent loads are what the code above saves.
//
// Empty and Fill take a scheduler (`Sched`): Direct (here) runs every level on this one block,
// recursing into the level below; LevelSched (level_bucket_heap.h) gives each level its own block,
// signalled through device memory, so that levels that are not adjacent work at once, as the seed
// has it. parDijkstra (par_dijkstra_grid.h) runs the one-block form. In both, the lists stay in
// device memory (cached) rather than S_0/B_0 in shared memory.
#pragma once
#include <gq/bucket_heap.cuh>

#include "advance.h"

namespace sssp {

constexpr uint32_t kMaxBlockWidth = 256;
// Keys a merge stages in shared memory for its binary searches (32 KB; parDijkstra sorts its
// BulkUpdate batches in the same words, kMaxBatch of them, before the heap runs).
constexpr uint32_t kStageKeys = 8192;
// Levels whose size words block_bucket_heap keeps in shared memory (levels_for(2^31, 1) is 18).
constexpr uint32_t kSharedLevels = 24;

// Block-shared scratch of the primitives below (shared memory on the GPU).
struct BlockScratch {
  uint32_t warp_sums[kMaxBlockWidth];  // one per warp (a CPU "warp" is one thread)
  uint32_t hist[256];
  double red_prio[kMaxBlockWidth];
  uint32_t red_key[kMaxBlockWidth];
  uint32_t red_idx[kMaxBlockWidth];
  uint32_t words[4];
  uint32_t sizes[2 * kSharedLevels];  // the heap's size words while the block runs it
  uint32_t keys[kStageKeys];          // staged keys (merge), or a batch being sorted
};

// The cost model of a round, counted on the CPU build only (the GPU build has no counters; the
// CPU build runs the same path, so its counts are the GPU's): block barriers, by the part of the
// heap that issues them and by level; the steps of binary searches (each one's address depends on
// the last load); reads of the size words; entries each level's merges, selects and splits walk.
// Thread 0 counts (every thread takes the same path).
struct BlockCounts {
  enum Part : uint32_t { kOther, kMerge, kSelect, kBest, kSplit, kCopy, kSort, kParts };
  static constexpr uint32_t kLevels = 16;  // level kLevels: outside any Empty/Fill
  uint32_t part = kOther, level = kLevels;
  uint64_t barriers[kParts] = {};
  uint64_t level_barriers[kLevels + 1] = {};
  uint64_t level_entries[kLevels + 1] = {};
  uint64_t empties[kLevels + 1] = {}, fills[kLevels + 1] = {}, select_calls[kLevels + 1] = {};
  uint64_t search_steps = 0, size_reads = 0;
};

#if !GQ_DEVICE_BUILD
// Thrown by a CPU block's barrier once the error flag is up: the threads of a block that gave up
// a wait (or met a raised flag) must not run on with sizes and lists their peers are still
// changing, which could index out of bounds rather than end with the flag's message. The
// std::threads that run blocks catch it (run_block_threads, host/sssp_cpu.cpp).
struct BlockAbandoned {};
#endif

// One thread block. On the CPU build a block of `width` std::threads meets at a barrier on two
// words (`host_bar`); a block of one needs none.
struct Block {
  uint32_t thread, width;
  BlockScratch* scratch;
  uint32_t* host_bar;
  gq::ErrorFlag err;
#if !GQ_DEVICE_BUILD
  BlockCounts* counts = nullptr;  // the cost model (null: not counted)
#endif

  // Counting hooks: no code on the GPU. The part and the level a barrier is charged to are set
  // on the way in and restored on the way out (set_tag returns what it replaced).
  GQ_HD GQ_INLINE uint32_t set_tag(uint32_t BlockCounts::*tag, uint32_t v) const {
#if !GQ_DEVICE_BUILD
    if (counts && thread == 0) {
      const uint32_t was = counts->*tag;
      counts->*tag = v;
      return was;
    }
#endif
    (void)tag;
    return v;
  }
  GQ_HD GQ_INLINE uint32_t enter(uint32_t part) const { return set_tag(&BlockCounts::part, part); }
  GQ_HD GQ_INLINE void leave(uint32_t was) const { set_tag(&BlockCounts::part, was); }
  GQ_HD GQ_INLINE uint32_t at_level(uint32_t i) const {
    return set_tag(&BlockCounts::level, i < BlockCounts::kLevels ? i : BlockCounts::kLevels - 1);
  }
  GQ_HD GQ_INLINE void back_to_level(uint32_t was) const { set_tag(&BlockCounts::level, was); }
  GQ_HD GQ_INLINE void tally_entries(uint64_t n) const {
#if !GQ_DEVICE_BUILD
    if (counts && thread == 0) counts->level_entries[counts->level] += n;
#endif
    (void)n;
  }
  // An Empty (0), a Fill (1) or a Select (2) that does work at the current level.
  GQ_HD GQ_INLINE void tally_op(uint32_t which) const {
#if !GQ_DEVICE_BUILD
    if (counts && thread == 0) {
      uint64_t* arr = which == 0 ? counts->empties : which == 1 ? counts->fills : counts->select_calls;
      ++arr[counts->level];
    }
#endif
    (void)which;
  }
  GQ_HD GQ_INLINE void tally_search(uint64_t steps) const {
#if !GQ_DEVICE_BUILD
    if (counts && thread == 0) counts->search_steps += steps;
#endif
    (void)steps;
  }
  GQ_HD GQ_INLINE void tally_size_reads(uint64_t n) const {
#if !GQ_DEVICE_BUILD
    if (counts && thread == 0) counts->size_reads += n;
#endif
    (void)n;
  }

  GQ_HD GQ_INLINE void sync() const {
#if GQ_DEVICE_BUILD
    __syncthreads();
#else
    if (counts && thread == 0) {
      ++counts->barriers[counts->part];
      ++counts->level_barriers[counts->level];
    }
    if (width == 1) return;
    const uint32_t gen = gq::load<gq::mo::acquire>(host_bar + 1);
    if (gq::fetch_add<gq::mo::acq_rel>(host_bar, 1u) == width - 1) {
      gq::store<gq::mo::relaxed>(host_bar, 0u);
      gq::store<gq::mo::release>(host_bar + 1, gen + 1u);
    } else {
      gq::Spin spin;
      while (gq::load<gq::mo::acquire>(host_bar + 1) == gen)
        if (!spin.step(err, gq::kSiteGridBarrier, gen)) break;
    }
    if (err.raised()) throw BlockAbandoned{};
#endif
  }

  // Thread 0's value, for every thread (for decisions that must not diverge inside the block).
  GQ_HD GQ_INLINE bool uniform(bool v) const {
    if (thread == 0) scratch->words[0] = v ? 1u : 0u;
    sync();
    const bool r = scratch->words[0] != 0u;
    sync();
    return r;
  }

  // Exclusive prefix sum of `value` over the block's threads (in thread order); `total` gets the
  // sum. Every thread calls it together. Two barriers.
  GQ_HD GQ_INLINE uint32_t exclusive_sum(uint32_t value, uint32_t* total) const {
    const uint32_t warp = thread / kWarp, lane = thread % kWarp, warps = (width + kWarp - 1) / kWarp;
    const uint32_t incl = warp_inclusive_sum(value);
    if (lane == kWarp - 1) scratch->warp_sums[warp] = incl;
    sync();
    uint32_t before = 0, all = 0;
    for (uint32_t w = 0; w < warps; ++w) {
      const uint32_t s = scratch->warp_sums[w];
      before += w < warp ? s : 0u;
      all += s;
    }
    sync();
    *total = all;
    return before + incl - value;
  }
};

// The cost model's current level for the span of an Empty or Fill (nothing on the GPU).
struct LevelScope {
#if GQ_DEVICE_BUILD
  GQ_HD LevelScope(const Block&, uint32_t) {}
#else
  const Block& b;
  uint32_t was;
  LevelScope(const Block& block, uint32_t i) : b(block), was(block.at_level(i)) {}
  ~LevelScope() { b.back_to_level(was); }
#endif
};

struct BlockBucketHeap {
  gq::BucketHeap h;  // the layout: mem, sizes, d, levels
#if !GQ_DEVICE_BUILD
  BlockCounts* counts = nullptr;  // size-word reads, every thread's (the cost model)
#endif

  GQ_HD GQ_INLINE void tally_size_read() const {
#if !GQ_DEVICE_BUILD
    if (counts) gq::fetch_add<gq::mo::relaxed>(&counts->size_reads, (uint64_t)1);
#endif
  }
  // Sizes: every thread reads them; thread 0 writes them, and a barrier follows every write.
  GQ_HD uint32_t nb(uint32_t i) const {
    tally_size_read();
    return gq::load<gq::mo::relaxed>(h.sizes + 2 * i);
  }
  GQ_HD uint32_t ns(uint32_t i) const {
    tally_size_read();
    return gq::load<gq::mo::relaxed>(h.sizes + 2 * i + 1);
  }
  GQ_HD void set_sizes(const Block& b, uint32_t i, uint32_t nb_i, uint32_t ns_i) const {
    b.sync();  // every thread has read the old sizes
    if (b.thread == 0) {
      gq::store<gq::mo::relaxed>(h.sizes + 2 * i, nb_i);
      gq::store<gq::mo::relaxed>(h.sizes + 2 * i + 1, ns_i);
    }
    b.sync();
  }
  // This heap with its size words in block-shared memory (scratch->sizes) while the block runs
  // it: every decision reads them, and a read of shared memory costs a small part of a trip to
  // device memory. Until write_back, the block alone may touch the heap. A heap of more levels
  // than kSharedLevels keeps them where they are.
  GQ_HD BlockBucketHeap staged(const Block& b) const {
    if (h.levels > kSharedLevels) return *this;
    for (uint32_t j = b.thread; j < 2 * h.levels; j += b.width)
      b.scratch->sizes[j] = gq::load<gq::mo::relaxed>(h.sizes + j);
    b.sync();
    BlockBucketHeap in = *this;
    in.h.sizes = b.scratch->sizes;
    return in;
  }
  // The size words back to `sizes` (the heap's own words, before staged()).
  GQ_HD void write_back(const Block& b, uint32_t* sizes) const {
    b.sync();
    if (h.sizes != sizes)
      for (uint32_t j = b.thread; j < 2 * h.levels; j += b.width) gq::store<gq::mo::relaxed>(sizes + j, h.sizes[j]);
    b.sync();
  }

  GQ_HD bool deeper_nonempty(uint32_t i) const {
    for (uint32_t j = i + 1; j < h.levels; ++j)
      if (nb(j) || ns(j)) return true;
    return false;
  }

  // Entries per thread in a tile of scan(): a tile of width * kPerThread entries costs one block
  // prefix sum (two barriers), where one entry per thread cost one each.
  static constexpr uint32_t kPerThread = 4;

  // A stable scan of entries [0, n) with two counts per entry: count(q, j) returns entry j's
  // (low | high << 16, each at most 1), q being j's place among this thread's kPerThread
  // consecutive entries, so the callbacks may keep per-entry state in arrays of kPerThread;
  // emit(q, j, lo, hi) follows the tile's prefix sum with the counts of all entries before j.
  // `lo` and `hi` get the totals. Every thread calls it together.
  template <class Count, class Emit>
  GQ_HD static void scan(const Block& b, uint32_t n, uint32_t& lo, uint32_t& hi, Count count, Emit emit) {
    lo = hi = 0;
    for (uint32_t base = 0; base < n; base += b.width * kPerThread) {
      const uint32_t first = base + b.thread * kPerThread;
      uint32_t c[kPerThread], mine = 0;
      for (uint32_t q = 0; q < kPerThread; ++q) {
        c[q] = first + q < n ? count(q, first + q) : 0u;
        mine += c[q];
      }
      uint32_t tile = 0;
      const uint32_t before = b.exclusive_sum(mine, &tile);
      uint32_t l = lo + (before & 0xffffu), h = hi + (before >> 16);
      for (uint32_t q = 0; q < kPerThread; ++q) {
        if (first + q < n) emit(q, first + q, l, h);
        l += c[q] & 0xffffu;
        h += c[q] >> 16;
      }
      lo += tile & 0xffffu;
      hi += tile >> 16;
    }
  }

  // Stages the keys of list[0, n) in block-shared memory for the binary searches of a merge:
  // every key when they fit (stride 1), else every stride-th key (a sample that narrows each
  // search to one stride of the list). Returns the stride; `staged` gets the count. Ends with a
  // barrier.
  GQ_HD static uint32_t stage_keys(const Block& b, const gq::HeapEntry* list, uint32_t n, uint32_t* staged) {
    const uint32_t stride = n <= kStageKeys ? 1u : (n + kStageKeys - 1) / kStageKeys;
    const uint32_t count = (n + stride - 1) / stride;
    for (uint32_t j = b.thread; j < count; j += b.width) b.scratch->keys[j] = list[(uint64_t)j * stride].key;
    b.sync();
    *staged = count;
    return stride;
  }

  // The first place in list[0, n) whose key is not below `key`, through the staged sample
  // (stage_keys): a search in shared memory, then, with a stride above 1, a search of device
  // memory inside one stride (its loads are a dependent chain: the cost model counts them).
  GQ_HD static uint32_t lower_bound(const Block& b, const uint32_t* staged, uint32_t count, uint32_t stride,
                                    const gq::HeapEntry* list, uint32_t n, uint32_t key) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (staged[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    if (stride == 1 || lo == 0) return lo * stride;
    // staged[lo - 1] < key <= staged[lo] (or lo is the end): the place is in this stride.
    lo = (lo - 1) * stride + 1;
    hi = lo - 1 + stride < n ? lo - 1 + stride : n;
    b.tally_search(search_depth(hi - lo));
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (list[mid].key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Where `key` goes in list[0, n) (lower_bound over its staged keys), and whether the list
  // holds it already: with stride 1 every key is staged, so the check reads shared memory.
  GQ_HD static bool find_key(const Block& b, const uint32_t* staged, uint32_t count, uint32_t stride,
                             const gq::HeapEntry* list, uint32_t n, uint32_t key, uint32_t& pos) {
    pos = n ? lower_bound(b, staged, count, stride, list, n, key) : 0u;
    return pos < n && (stride == 1 ? staged[pos] : list[pos].key) == key;
  }

  // Merge of two key-sorted lists with unique keys (newer wins a shared key, BucketHeap::combine)
  // into `out` (distinct from both); returns its length. Keys are staged in shared memory while
  // the other side searches them, so a search costs no dependent device-memory loads: both lists
  // at once and one scan when together they fit kStageKeys (four barriers for lists of up to
  // width * kPerThread entries), else one side at a time, strided past kStageKeys. Ends with a
  // barrier.
  GQ_HD static uint32_t merge(const Block& b, const gq::HeapEntry* newer, uint32_t nn, const gq::HeapEntry* older,
                              uint32_t no, gq::HeapEntry* out) {
    const uint32_t part = b.enter(BlockCounts::kMerge);
    b.tally_entries(nn + no);
    uint32_t* keys = b.scratch->keys;
    gq::HeapEntry e[kPerThread];
    uint32_t pos[kPerThread];
    uint8_t dup_of[kPerThread];
    if (nn && no && nn + no <= kStageKeys) {
      // Both lists fit: their keys side by side (older at [0, no), newer after), and one scan over
      // newer then older, each entry searching the other list; the low counts are the newer
      // entries that meet a key (dups), the high ones the older entries they replace.
      for (uint32_t j = b.thread; j < no; j += b.width) keys[j] = older[j].key;
      for (uint32_t i = b.thread; i < nn; i += b.width) keys[no + i] = newer[i].key;
      b.sync();
      uint32_t dups = 0, gone = 0;
      scan(
          b, nn + no, dups, gone,
          [&](uint32_t q, uint32_t x) {
            if (x < nn) {
              e[q] = newer[x];
              dup_of[q] = find_key(b, keys, no, 1, older, no, e[q].key, pos[q]);
              return dup_of[q] ? 1u : 0u;
            }
            e[q] = older[x - nn];
            dup_of[q] = find_key(b, keys + no, nn, 1, newer, nn, e[q].key, pos[q]);
            return dup_of[q] ? 1u << 16 : 0u;
          },
          [&](uint32_t q, uint32_t x, uint32_t dups_before, uint32_t gone_before) {
            if (x < nn) out[x + pos[q] - dups_before] = dup_of[q] ? gq::BucketHeap::combine(e[q], older[pos[q]]) : e[q];
            else if (!dup_of[q]) out[x - nn + pos[q] - gone_before] = e[q];
          });
      b.sync();
      b.leave(part);
      return nn + no - dups;
    }
    uint32_t staged = 0, stride = 1;
    // The staged keys are read only in scan's count step, which comes before the tile's prefix
    // sum: its barriers order every read before the next stage_keys overwrites them.
    if (nn && no) stride = stage_keys(b, older, no, &staged);
    uint32_t dups = 0, unused = 0;  // shared keys
    scan(
        b, nn, dups, unused,
        [&](uint32_t q, uint32_t i) {
          e[q] = newer[i];
          dup_of[q] = find_key(b, keys, staged, stride, older, no, e[q].key, pos[q]);
          return (uint32_t)dup_of[q];
        },
        [&](uint32_t q, uint32_t i, uint32_t dups_before, uint32_t) {
          out[i + pos[q] - dups_before] = dup_of[q] ? gq::BucketHeap::combine(e[q], older[pos[q]]) : e[q];
        });
    if (nn && no) stride = stage_keys(b, newer, nn, &staged);
    uint32_t gone = 0;  // older entries combined into a newer one
    scan(
        b, no, gone, unused,
        [&](uint32_t q, uint32_t j) {
          e[q] = older[j];
          dup_of[q] = find_key(b, keys, staged, stride, newer, nn, e[q].key, pos[q]);
          return (uint32_t)dup_of[q];
        },
        [&](uint32_t q, uint32_t j, uint32_t gone_before, uint32_t) {
          if (!dup_of[q]) out[j + pos[q] - gone_before] = e[q];
        });
    b.sync();
    b.leave(part);
    return nn + no - dups;
  }

  // Dependent loads of a binary search over n entries (the cost model).
  GQ_HD static uint32_t search_depth(uint32_t n) {
    uint32_t steps = 0;
    while (n) {
      n >>= 1;
      ++steps;
    }
    return steps;
  }

  GQ_HD static void copy(const Block& b, const gq::HeapEntry* src, uint32_t n, gq::HeapEntry* dst) {
    const uint32_t part = b.enter(BlockCounts::kCopy);
    b.tally_entries(n);
    for (uint32_t j = b.thread; j < n; j += b.width) dst[j] = src[j];
    b.sync();
    b.leave(part);
  }

  // The k-th smallest (1-based, k <= live entries) live entry of `list` by (priority, key): a
  // radix select, most significant byte of (priority bits, key) first. Non-negative priorities
  // order like their bits. A pass is two barriers: the block fills the digit histogram; then warp
  // 0 alone finds the digit (a warp prefix sum over its lanes' runs of bins, no block barrier),
  // publishes it and clears the bins it read, so the histogram is zero again for the next pass.
  GQ_HD static gq::HeapEntry select(const Block& b, const gq::HeapEntry* list, uint32_t n, uint32_t k) {
    uint64_t hi = 0;  // the answer's priority bits, filled a byte a pass
    uint32_t lo = 0;  // its key
    uint32_t want = k;
    BlockScratch& s = *b.scratch;
    const uint32_t part = b.enter(BlockCounts::kSelect);
    b.tally_op(2);
    b.tally_entries(12ull * n);
    constexpr uint32_t kRun = 256 / kWarp;  // bins per lane of warp 0
    for (uint32_t j = b.thread; j < 256; j += b.width) s.hist[j] = 0;
    b.sync();
    for (uint32_t d = 0; d < 12; ++d) {
      for (uint32_t j = b.thread; j < n; j += b.width) {
        const gq::HeapEntry& e = list[j];
        if (e.kind == gq::kHeapDelete) continue;
        const uint64_t eh = to_bits(e.prio);
        bool match;
        uint32_t digit;
        if (d < 8) {
          match = d == 0 || (eh >> (64 - 8 * d)) == (hi >> (64 - 8 * d));
          digit = (uint32_t)(eh >> (56 - 8 * d)) & 255u;
        } else {
          match = eh == hi && (d == 8 || (e.key >> (32 - 8 * (d - 8))) == (lo >> (32 - 8 * (d - 8))));
          digit = (e.key >> (24 - 8 * (d - 8))) & 255u;
        }
        if (match) gq::fetch_add<gq::mo::relaxed>(s.hist + digit, 1u);
      }
      b.sync();
      // The digit: the first bin whose running count reaches `want` (bin 255 if none does).
      if (b.thread < kWarp) {
        const uint32_t first = b.thread * kRun;
        uint32_t run[kRun];
        uint32_t sum = 0;
        for (uint32_t c = 0; c < kRun; ++c) {
          run[c] = s.hist[first + c];
          s.hist[first + c] = 0;
          sum += run[c];
        }
        uint32_t before = warp_inclusive_sum(sum) - sum;  // entries in the bins before this run
        for (uint32_t c = 0; c < kRun; ++c) {
          const uint32_t bin = first + c;
          if ((before < want || bin == 0) && (want <= before + run[c] || bin == 255)) {
            s.words[1] = bin;
            s.words[2] = want - before;
          }
          before += run[c];
        }
      }
      b.sync();
      const uint32_t c = s.words[1];
      want = s.words[2];
      if (d < 8) hi |= (uint64_t)c << (56 - 8 * d);
      else lo |= c << (24 - 8 * (d - 8));
      // words[1..2] are written again only after the next pass's first barrier, which every
      // thread reaches after reading them here.
    }
    b.leave(part);
    return gq::HeapEntry{from_bits(hi), lo, gq::kHeapUpdate};
  }

  // Index of the smallest (largest: `largest`) entry of list[0, n), n >= 1, by (priority, key).
  // Each thread keeps its best entry's (priority, key, index) in registers, a warp reduces by
  // shuffles, and every thread reduces the warps' results from shared memory: two barriers, and
  // no device-memory loads after the scan.
  GQ_HD static uint32_t best(const Block& b, const gq::HeapEntry* list, uint32_t n, bool largest) {
    BlockScratch& s = *b.scratch;
    const uint32_t part = b.enter(BlockCounts::kBest);
    b.tally_entries(n);
    constexpr uint32_t kNone = 0xffffffffu;
    gq::HeapEntry mine{0.0, 0u, 0u};
    uint32_t at = kNone;
    auto better = [largest](const gq::HeapEntry& x, const gq::HeapEntry& than) {
      return largest ? gq::heap_less(than, x) : gq::heap_less(x, than);
    };
    for (uint32_t j = b.thread; j < n; j += b.width) {
      const gq::HeapEntry e = list[j];
      if (at == kNone || better(e, mine)) {
        mine = e;
        at = j;
      }
    }
    const uint32_t lane = gq::lane_id();
    for (uint32_t off = kWarp / 2; off > 0; off >>= 1) {
      const uint32_t src = lane ^ off;
      const gq::HeapEntry other{from_bits(gq::shuffle(kFullWarp, to_bits(mine.prio), src)),
                                gq::shuffle(kFullWarp, mine.key, src), 0u};
      const uint32_t other_at = gq::shuffle(kFullWarp, at, src);
      if (other_at != kNone && (at == kNone || better(other, mine))) {
        mine = other;
        at = other_at;
      }
    }
    const uint32_t warp = b.thread / kWarp, warps = (b.width + kWarp - 1) / kWarp;
    if (lane == 0) {
      s.red_prio[warp] = mine.prio;
      s.red_key[warp] = mine.key;
      s.red_idx[warp] = at;
    }
    b.sync();
    at = kNone;
    for (uint32_t w = 0; w < warps; ++w) {
      const gq::HeapEntry e{s.red_prio[w], s.red_key[w], 0u};
      const uint32_t idx = s.red_idx[w];
      if (idx != kNone && (at == kNone || better(e, mine))) {
        mine = e;
        at = idx;
      }
    }
    b.sync();  // red_* are free again
    b.leave(part);
    return at;
  }

  // Empty(S_i), as BucketHeap::empty_level; `sched` reaches level i + 1 (Direct, below: this
  // block's own call; LevelSched, level_bucket_heap.h: level i + 1's block). S_{i+1}'s new size is
  // written before S_i's and B_i's: a block that reads the sizes of deeper levels while this one
  // runs (LevelSched's deeper_nonempty) then sees the entries on one level or the other.
  // Never inlined: inlined into each operation that starts it, Empty and Fill multiplied the
  // one-block kernel's code, its spills (a 3.7 KB frame, against 80 bytes) and its compile time.
  template <class Sched>
  GQ_HD GQ_NOINLINE bool empty_at(const Block& b, uint32_t i, const Sched& sched) const {
    const LevelScope counted(b, i);
    if (ns(i) == 0) return true;
    b.tally_op(0);
    sched.settle(b, i);
    const bool deeper = sched.deeper_nonempty(b, i);
    const bool can_spill = i + 1 < h.levels;
    if (can_spill && ns(i + 1) + ns(i) + nb(i) > gq::BucketHeap::s_cap(h.d, i + 1) && !sched.empty(b, i + 1))
      return false;
    gq::HeapEntry* merged = sched.scratch(i, 0);
    gq::HeapEntry* down = sched.scratch(i, 1);
    enum { kAll, kNone, kBound } rule = !deeper ? kAll : nb(i) == 0 ? kNone : kBound;
    gq::HeapEntry bound{0.0, 0u, gq::kHeapUpdate};
    if (rule == kBound) bound = h.bucket(i)[best(b, h.bucket(i), nb(i), true)];
    const uint32_t m = merge(b, h.signal(i), ns(i), h.bucket(i), nb(i), merged);
    auto stays = [&](const gq::HeapEntry& e) {
      return e.kind != gq::kHeapDelete && (rule == kAll || (rule == kBound && !gq::heap_less(bound, e)));
    };
    const uint32_t part = b.enter(BlockCounts::kSplit);
    b.tally_entries(2ull * m);
    // How many stay: each thread counts its share, one block sum adds them (two barriers).
    uint32_t mine = 0, live = 0;
    for (uint32_t j = b.thread; j < m; j += b.width) mine += stays(merged[j]) ? 1u : 0u;
    b.exclusive_sum(mine, &live);
    if (live > gq::BucketHeap::b_cap(h.d, i)) {
      if (!can_spill) {
        b.err.raise(gq::kCapacity, gq::kSiteBucketHeap, (uint64_t)i);
        b.leave(part);
        return false;
      }
      const gq::HeapEntry kth = select(b, merged, m, (uint32_t)gq::BucketHeap::b_cap(h.d, i));
      if (rule != kBound || gq::heap_less(kth, bound)) bound = kth;
      rule = kBound;
    }
    // The split: what stays goes to B_i (free: the merge copied it out), the rest down, both in
    // key order; one prefix sum counts both (stay in the low half-word, down in the high).
    gq::HeapEntry* B = h.bucket(i);
    uint32_t stay = 0, nd = 0;
    gq::HeapEntry e[kPerThread];
    scan(
        b, m, stay, nd,
        [&](uint32_t q, uint32_t j) {
          e[q] = merged[j];
          const bool s = stays(e[q]);
          const bool dn = s ? (e[q].kind == gq::kHeapReplace && deeper) : (e[q].kind != gq::kHeapDelete || deeper);
          return (s ? 1u : 0u) | (dn ? 1u << 16 : 0u);
        },
        [&](uint32_t q, uint32_t, uint32_t stay_before, uint32_t down_before) {
          gq::HeapEntry x = e[q];
          const bool s = stays(x);
          const bool dn = s ? (x.kind == gq::kHeapReplace && deeper) : (x.kind != gq::kHeapDelete || deeper);
          if (s) {
            if (dn) down[down_before] = gq::HeapEntry{x.prio, x.key, gq::kHeapDelete};
            if (x.kind == gq::kHeapReplace) x.kind = gq::kHeapUpdate;
            B[stay_before] = x;
          } else if (dn) {
            down[down_before] = x;
          }
        });
    b.sync();  // the split's writes, before the merge below reads `down`
    b.leave(part);
    if (nd) {
      const uint32_t len = merge(b, down, nd, h.signal(i + 1), ns(i + 1), merged);
      copy(b, merged, len, h.signal(i + 1));
      sched.set_sizes(b, i + 1, nb(i + 1), len);
    }
    sched.set_sizes(b, i, stay, 0);
    if (nd) sched.spilled(b, i + 1);
    return true;
  }

  // Fill(B_i), as BucketHeap::fill_level (`sched` as for empty_at; never inlined, as it).
  template <class Sched>
  GQ_HD GQ_NOINLINE bool fill_at(const Block& b, uint32_t i, const Sched& sched) const {
    const LevelScope counted(b, i);
    if (i + 1 >= h.levels || nb(i) >= gq::BucketHeap::b_cap(h.d, i)) return true;
    sched.settle(b, i);
    if (!sched.deeper_nonempty(b, i)) return true;
    b.tally_op(1);
    if (!sched.empty(b, i + 1)) return false;
    const uint32_t need = (uint32_t)(gq::BucketHeap::b_cap(h.d, i) - nb(i));
    if (nb(i + 1) < need && sched.deeper_nonempty(b, i + 1) && !sched.fill(b, i + 1)) return false;
    const uint32_t n1 = nb(i + 1);
    if (n1 == 0) return true;
    gq::HeapEntry* B1 = h.bucket(i + 1);
    gq::HeapEntry* up = sched.scratch(i, 0);
    gq::HeapEntry* rest = sched.scratch(i, 1);
    uint32_t nu = 0, nr = 0;
    if (n1 <= need) {
      copy(b, B1, n1, up);
      nu = n1;
    } else {
      // A bucket holds no DEL, so its smallest entry is the 1st: one reduction, not 12 passes
      // (the usual Fill(B_0) after an ExtractMin needs one entry).
      const gq::HeapEntry kth = need == 1 ? B1[best(b, B1, n1, false)] : select(b, B1, n1, need);
      const uint32_t part = b.enter(BlockCounts::kSplit);
      b.tally_entries(n1);
      gq::HeapEntry e[kPerThread];
      scan(
          b, n1, nu, nr,
          [&](uint32_t q, uint32_t j) {
            e[q] = B1[j];
            return gq::heap_less(kth, e[q]) ? 1u << 16 : 1u;
          },
          [&](uint32_t q, uint32_t, uint32_t up_before, uint32_t rest_before) {
            if (gq::heap_less(kth, e[q])) rest[rest_before] = e[q];
            else up[up_before] = e[q];
          });
      b.sync();
      b.leave(part);
    }
    copy(b, rest, nr, B1);
    sched.set_sizes(b, i + 1, nr, ns(i + 1));
    // B_i's entries are newer than those coming up (rest is free again for the merge).
    const uint32_t m = merge(b, h.bucket(i), nb(i), up, nu, rest);
    copy(b, rest, m, h.bucket(i));
    sched.set_sizes(b, i, m, ns(i));
    return true;
  }

  GQ_HD bool empty_level(const Block& b, uint32_t i) const;
  GQ_HD bool fill_level(const Block& b, uint32_t i) const;

  template <class Sched>
  GQ_HD bool resolve(const Block& b, uint32_t i, const Sched& sched) const {
    return empty_at(b, i, sched) && fill_at(b, i, sched);
  }

  // BulkUpdate(U): up to d entries sorted by key (Update or DEL), into S_0.
  template <class Sched>
  GQ_HD bool bulk_update(const Block& b, const gq::HeapEntry* u, uint32_t n, const Sched& sched) const {
    if (ns(0) + n > gq::BucketHeap::s_cap(h.d, 0) && !empty_at(b, 0, sched)) return false;
    const uint32_t len = merge(b, u, n, h.signal(0), ns(0), sched.scratch(0, 0));
    copy(b, sched.scratch(0, 0), len, h.signal(0));
    sched.set_sizes(b, 0, nb(0), len);
    return true;
  }

  template <class Sched>
  GQ_HD bool peek_min(const Block& b, gq::HeapEntry* out, const Sched& sched) const {
    if ((ns(0) > 0 || nb(0) == 0) && !resolve(b, 0, sched)) return false;
    if (nb(0) == 0) return false;
    *out = h.bucket(0)[best(b, h.bucket(0), nb(0), false)];
    return true;
  }

  template <class Sched>
  GQ_HD bool extract_min(const Block& b, gq::HeapEntry* out, const Sched& sched) const {
    if ((ns(0) > 0 || nb(0) == 0) && !resolve(b, 0, sched)) return false;
    const uint32_t n0 = nb(0);
    if (n0 == 0) return false;
    gq::HeapEntry* B = h.bucket(0);
    const uint32_t at = best(b, B, n0, false);
    *out = B[at];
    // Close the gap, keeping key order: the tail out to scratch and back one place lower.
    gq::HeapEntry* tmp = sched.scratch(0, 1);
    copy(b, B + at + 1, n0 - at - 1, tmp);
    copy(b, tmp, n0 - at - 1, B + at);
    sched.set_sizes(b, 0, n0 - 1, ns(0));
    sched.settle(b, 0);
    if (!sched.deeper_nonempty(b, 0)) return true;  // S_0 is empty, so no older copy exists anywhere
    const gq::HeapEntry del{0.0, out->key, gq::kHeapDelete};
    return bulk_update(b, &del, 1, sched);
  }

  // The operations with every level run by this block (Direct).
  GQ_HD bool resolve(const Block& b, uint32_t i) const;
  GQ_HD bool bulk_update(const Block& b, const gq::HeapEntry* u, uint32_t n) const;
  GQ_HD bool peek_min(const Block& b, gq::HeapEntry* out) const;
  GQ_HD bool extract_min(const Block& b, gq::HeapEntry* out) const;
};

// One block runs every level: Empty and Fill reach the level below by a call, and use the heap's
// two scratch lists (a level's work is done before the level above goes on, so they are free).
struct Direct {
  const BlockBucketHeap* heap;
  GQ_HD bool empty(const Block& b, uint32_t j) const { return heap->empty_level(b, j); }
  GQ_HD bool fill(const Block& b, uint32_t j) const { return heap->fill_level(b, j); }
  GQ_HD gq::HeapEntry* scratch(uint32_t, uint32_t k) const { return heap->h.scratch(k); }
  GQ_HD void settle(const Block&, uint32_t) const {}   // nothing below runs on its own
  GQ_HD void spilled(const Block&, uint32_t) const {}  // S_j grew: nothing to start
  GQ_HD bool deeper_nonempty(const Block&, uint32_t i) const { return heap->deeper_nonempty(i); }
  GQ_HD void set_sizes(const Block& b, uint32_t i, uint32_t nb, uint32_t ns) const { heap->set_sizes(b, i, nb, ns); }
};

GQ_HD inline bool BlockBucketHeap::empty_level(const Block& b, uint32_t i) const { return empty_at(b, i, Direct{this}); }
GQ_HD inline bool BlockBucketHeap::fill_level(const Block& b, uint32_t i) const { return fill_at(b, i, Direct{this}); }
GQ_HD inline bool BlockBucketHeap::resolve(const Block& b, uint32_t i) const { return resolve(b, i, Direct{this}); }
GQ_HD inline bool BlockBucketHeap::bulk_update(const Block& b, const gq::HeapEntry* u, uint32_t n) const {
  return bulk_update(b, u, n, Direct{this});
}
GQ_HD inline bool BlockBucketHeap::peek_min(const Block& b, gq::HeapEntry* out) const {
  return peek_min(b, out, Direct{this});
}
GQ_HD inline bool BlockBucketHeap::extract_min(const Block& b, gq::HeapEntry* out) const {
  return extract_min(b, out, Direct{this});
}

}  // namespace sssp
