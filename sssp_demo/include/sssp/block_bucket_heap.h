// sssp/block_bucket_heap.h — parBucketHeap's operations run by a whole thread block: the same
// structure, layout and semantics as gq/bucket_heap.cuh (seed 000, Section 2: BulkUpdate into
// S_0, ExtractMin from B_0, Resolve = Empty + Fill), with the seed's parallel subroutines in place
// of the sequential scans:
//   * Merge: every entry finds its place by a binary search in the other list (merge by ranks),
//     duplicates of a key are combined, and a block prefix sum over the duplicate flags closes the
//     gaps they leave;
//   * Select: a radix select over the 96-bit order (priority bits, key), 8 bits a pass, with the
//     digit histogram in block-shared memory (the seed sorts instead);
//   * the splits of Empty and Fill: stable compactions by a block prefix sum;
//   * the minimum of B_0 and the maximum of B_i: block reductions.
// Every decision (sizes, which level, which rule) is computed alike by every thread from words
// read after a block barrier, so the block takes one path through the recursion; sizes are
// written by thread 0 and read after the next barrier. Results equal the sequential heap's entry
// for entry (tests/sssp_demo/test_block_heap.py runs both on the same programs).
//
// What is not the seed's yet: one block runs every level (the seed gives each level its own
// block, and lets levels that are not adjacent resolve at once), and the lists stay in device
// memory (cached) rather than S_0/B_0 in shared memory.
#pragma once
#include <gq/bucket_heap.cuh>

#include "advance.h"

namespace sssp {

constexpr uint32_t kMaxBlockWidth = 256;

// Block-shared scratch of the primitives below (shared memory on the GPU).
struct BlockScratch {
  uint32_t warp_sums[kMaxBlockWidth];  // one per warp (a CPU "warp" is one thread)
  uint32_t hist[256];
  double red_prio[kMaxBlockWidth];
  uint32_t red_key[kMaxBlockWidth];
  uint32_t red_idx[kMaxBlockWidth];
  uint32_t words[4];
};

// One thread block. On the CPU build a block of `width` std::threads meets at a barrier on two
// words (`host_bar`); a block of one needs none.
struct Block {
  uint32_t thread, width;
  BlockScratch* scratch;
  uint32_t* host_bar;
  gq::ErrorFlag err;

  GQ_HD GQ_INLINE void sync() const {
#if GQ_DEVICE_BUILD
    __syncthreads();
#else
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

struct BlockBucketHeap {
  gq::BucketHeap h;  // the layout: mem, sizes, d, levels

  // Sizes: every thread reads them; thread 0 writes them, and a barrier follows every write.
  GQ_HD uint32_t nb(uint32_t i) const { return gq::load<gq::mo::relaxed>(h.sizes + 2 * i); }
  GQ_HD uint32_t ns(uint32_t i) const { return gq::load<gq::mo::relaxed>(h.sizes + 2 * i + 1); }
  GQ_HD void set_sizes(const Block& b, uint32_t i, uint32_t nb_i, uint32_t ns_i) const {
    b.sync();  // every thread has read the old sizes
    if (b.thread == 0) {
      gq::store<gq::mo::relaxed>(h.sizes + 2 * i, nb_i);
      gq::store<gq::mo::relaxed>(h.sizes + 2 * i + 1, ns_i);
    }
    b.sync();
  }
  GQ_HD bool deeper_nonempty(uint32_t i) const {
    for (uint32_t j = i + 1; j < h.levels; ++j)
      if (nb(j) || ns(j)) return true;
    return false;
  }

  GQ_HD static uint32_t lower_bound(const gq::HeapEntry* list, uint32_t n, uint32_t key) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (list[mid].key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Merge of two key-sorted lists with unique keys (newer wins a shared key, BucketHeap::combine)
  // into `out` (distinct from both); returns its length. Ends with a barrier.
  GQ_HD static uint32_t merge(const Block& b, const gq::HeapEntry* newer, uint32_t nn, const gq::HeapEntry* older,
                              uint32_t no, gq::HeapEntry* out) {
    uint32_t dups = 0;  // shared keys among the entries handled so far
    for (uint32_t base = 0; base < nn; base += b.width) {
      const uint32_t i = base + b.thread;
      uint32_t pos = 0, dup = 0;
      if (i < nn) {
        pos = lower_bound(older, no, newer[i].key);
        dup = pos < no && older[pos].key == newer[i].key;
      }
      uint32_t tile = 0;
      const uint32_t before = b.exclusive_sum(dup, &tile);
      if (i < nn) out[i + pos - (dups + before)] = dup ? gq::BucketHeap::combine(newer[i], older[pos]) : newer[i];
      dups += tile;
    }
    uint32_t gone = 0;  // older entries combined into a newer one so far
    for (uint32_t base = 0; base < no; base += b.width) {
      const uint32_t j = base + b.thread;
      uint32_t pos = 0, dup = 0;
      if (j < no) {
        pos = lower_bound(newer, nn, older[j].key);
        dup = pos < nn && newer[pos].key == older[j].key;
      }
      uint32_t tile = 0;
      const uint32_t before = b.exclusive_sum(dup, &tile);
      if (j < no && !dup) out[j + pos - (gone + before)] = older[j];
      gone += tile;
    }
    b.sync();
    return nn + no - dups;
  }

  GQ_HD static void copy(const Block& b, const gq::HeapEntry* src, uint32_t n, gq::HeapEntry* dst) {
    for (uint32_t j = b.thread; j < n; j += b.width) dst[j] = src[j];
    b.sync();
  }

  // The k-th smallest (1-based, k <= live entries) live entry of `list` by (priority, key): a
  // radix select, most significant byte of (priority bits, key) first. Non-negative priorities
  // order like their bits.
  GQ_HD static gq::HeapEntry select(const Block& b, const gq::HeapEntry* list, uint32_t n, uint32_t k) {
    uint64_t hi = 0;  // the answer's priority bits, filled a byte a pass
    uint32_t lo = 0;  // its key
    uint32_t want = k;
    BlockScratch& s = *b.scratch;
    for (uint32_t d = 0; d < 12; ++d) {
      for (uint32_t j = b.thread; j < 256; j += b.width) s.hist[j] = 0;
      b.sync();
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
      // The digit: the first bin whose running count reaches `want` (bin 255 if none does), found
      // by a block prefix sum over the bins: one thread walking 256 bins cost microseconds a
      // pass, and a select makes twelve passes.
      uint32_t below = 0;  // entries in the bins before this chunk
      for (uint32_t base = 0; base < 256; base += b.width) {
        const uint32_t c = base + b.thread;
        const uint32_t count = c < 256 ? s.hist[c] : 0u;
        uint32_t tile = 0;
        const uint32_t before = below + b.exclusive_sum(count, &tile);
        if (c < 256 && (before < want || c == 0) && (want <= before + count || c == 255)) {
          s.words[1] = c;
          s.words[2] = want - before;
        }
        below += tile;
      }
      b.sync();
      const uint32_t c = s.words[1];
      want = s.words[2];
      if (d < 8) hi |= (uint64_t)c << (56 - 8 * d);
      else lo |= c << (24 - 8 * (d - 8));
      b.sync();  // words and hist are reused by the next pass
    }
    return gq::HeapEntry{from_bits(hi), lo, gq::kHeapUpdate};
  }

  // Index of the smallest (largest: `largest`) entry of list[0, n), n >= 1, by (priority, key).
  GQ_HD static uint32_t best(const Block& b, const gq::HeapEntry* list, uint32_t n, bool largest) {
    BlockScratch& s = *b.scratch;
    uint32_t mine = 0xffffffffu;
    for (uint32_t j = b.thread; j < n; j += b.width)
      if (mine == 0xffffffffu || (largest ? gq::heap_less(list[mine], list[j]) : gq::heap_less(list[j], list[mine])))
        mine = j;
    s.red_idx[b.thread] = mine;
    b.sync();
    uint32_t span = 1;
    while (span < b.width) span <<= 1;
    for (span >>= 1; span > 0; span >>= 1) {
      if (b.thread < span && b.thread + span < b.width) {
        const uint32_t a = s.red_idx[b.thread], o = s.red_idx[b.thread + span];
        if (a == 0xffffffffu || (o != 0xffffffffu && (largest ? gq::heap_less(list[a], list[o])
                                                               : gq::heap_less(list[o], list[a]))))
          s.red_idx[b.thread] = o;
      }
      b.sync();
    }
    const uint32_t r = s.red_idx[0];
    b.sync();
    return r;
  }

  // Empty(S_i), as BucketHeap::empty_level.
  GQ_HD bool empty_level(const Block& b, uint32_t i) const {
    if (ns(i) == 0) return true;
    const bool deeper = deeper_nonempty(i);
    const bool can_spill = i + 1 < h.levels;
    if (can_spill && ns(i + 1) + ns(i) + nb(i) > gq::BucketHeap::s_cap(h.d, i + 1) && !empty_level(b, i + 1))
      return false;
    gq::HeapEntry* merged = h.scratch(0);
    gq::HeapEntry* down = h.scratch(1);
    enum { kAll, kNone, kBound } rule = !deeper ? kAll : nb(i) == 0 ? kNone : kBound;
    gq::HeapEntry bound{0.0, 0u, gq::kHeapUpdate};
    if (rule == kBound) bound = h.bucket(i)[best(b, h.bucket(i), nb(i), true)];
    const uint32_t m = merge(b, h.signal(i), ns(i), h.bucket(i), nb(i), merged);
    auto stays = [&](const gq::HeapEntry& e) {
      return e.kind != gq::kHeapDelete && (rule == kAll || (rule == kBound && !gq::heap_less(bound, e)));
    };
    uint32_t live = 0;
    for (uint32_t base = 0; base < m; base += b.width) {
      const uint32_t j = base + b.thread;
      uint32_t tile = 0;
      b.exclusive_sum(j < m && stays(merged[j]) ? 1u : 0u, &tile);
      live += tile;
    }
    if (live > gq::BucketHeap::b_cap(h.d, i)) {
      if (!can_spill) {
        b.err.raise(gq::kCapacity, gq::kSiteBucketHeap, (uint64_t)i);
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
    for (uint32_t base = 0; base < m; base += b.width) {
      const uint32_t j = base + b.thread;
      bool s = false, dn = false;
      gq::HeapEntry e{};
      if (j < m) {
        e = merged[j];
        s = stays(e);
        dn = s ? (e.kind == gq::kHeapReplace && deeper) : (e.kind != gq::kHeapDelete || deeper);
      }
      uint32_t tile = 0;
      const uint32_t before = b.exclusive_sum((s ? 1u : 0u) | (dn ? 1u << 16 : 0u), &tile);
      if (s) {
        if (dn) down[nd + (before >> 16)] = gq::HeapEntry{e.prio, e.key, gq::kHeapDelete};
        if (e.kind == gq::kHeapReplace) e.kind = gq::kHeapUpdate;
        B[stay + (before & 0xffffu)] = e;
      } else if (dn) {
        down[nd + (before >> 16)] = e;
      }
      stay += tile & 0xffffu;
      nd += tile >> 16;
    }
    set_sizes(b, i, stay, 0);
    if (nd) {
      const uint32_t len = merge(b, down, nd, h.signal(i + 1), ns(i + 1), merged);
      copy(b, merged, len, h.signal(i + 1));
      set_sizes(b, i + 1, nb(i + 1), len);
    }
    return true;
  }

  // Fill(B_i), as BucketHeap::fill_level.
  GQ_HD bool fill_level(const Block& b, uint32_t i) const {
    if (i + 1 >= h.levels || nb(i) >= gq::BucketHeap::b_cap(h.d, i) || !deeper_nonempty(i)) return true;
    if (!empty_level(b, i + 1)) return false;
    const uint32_t need = (uint32_t)(gq::BucketHeap::b_cap(h.d, i) - nb(i));
    if (nb(i + 1) < need && deeper_nonempty(i + 1) && !fill_level(b, i + 1)) return false;
    const uint32_t n1 = nb(i + 1);
    if (n1 == 0) return true;
    gq::HeapEntry* B1 = h.bucket(i + 1);
    gq::HeapEntry* up = h.scratch(0);
    gq::HeapEntry* rest = h.scratch(1);
    uint32_t nu = 0, nr = 0;
    if (n1 <= need) {
      copy(b, B1, n1, up);
      nu = n1;
    } else {
      const gq::HeapEntry kth = select(b, B1, n1, need);
      for (uint32_t base = 0; base < n1; base += b.width) {
        const uint32_t j = base + b.thread;
        const bool r = j < n1 && gq::heap_less(kth, B1[j]);
        uint32_t tile = 0;
        const uint32_t before = b.exclusive_sum(j < n1 ? (r ? 1u << 16 : 1u) : 0u, &tile);
        if (j < n1) {
          if (r) rest[nr + (before >> 16)] = B1[j];
          else up[nu + (before & 0xffffu)] = B1[j];
        }
        nu += tile & 0xffffu;
        nr += tile >> 16;
      }
      b.sync();
    }
    copy(b, rest, nr, B1);
    set_sizes(b, i + 1, nr, ns(i + 1));
    // B_i's entries are newer than those coming up (rest is free again for the merge).
    const uint32_t m = merge(b, h.bucket(i), nb(i), up, nu, rest);
    copy(b, rest, m, h.bucket(i));
    set_sizes(b, i, m, ns(i));
    return true;
  }

  GQ_HD bool resolve(const Block& b, uint32_t i) const { return empty_level(b, i) && fill_level(b, i); }

  // BulkUpdate(U): up to d entries sorted by key (Update or DEL), into S_0.
  GQ_HD bool bulk_update(const Block& b, const gq::HeapEntry* u, uint32_t n) const {
    if (ns(0) + n > gq::BucketHeap::s_cap(h.d, 0) && !empty_level(b, 0)) return false;
    const uint32_t len = merge(b, u, n, h.signal(0), ns(0), h.scratch(0));
    copy(b, h.scratch(0), len, h.signal(0));
    set_sizes(b, 0, nb(0), len);
    return true;
  }

  GQ_HD bool peek_min(const Block& b, gq::HeapEntry* out) const {
    if ((ns(0) > 0 || nb(0) == 0) && !resolve(b, 0)) return false;
    if (nb(0) == 0) return false;
    *out = h.bucket(0)[best(b, h.bucket(0), nb(0), false)];
    return true;
  }

  GQ_HD bool extract_min(const Block& b, gq::HeapEntry* out) const {
    if ((ns(0) > 0 || nb(0) == 0) && !resolve(b, 0)) return false;
    const uint32_t n0 = nb(0);
    if (n0 == 0) return false;
    gq::HeapEntry* B = h.bucket(0);
    const uint32_t at = best(b, B, n0, false);
    *out = B[at];
    // Close the gap, keeping key order: the tail out to scratch and back one place lower.
    gq::HeapEntry* tmp = h.scratch(1);
    copy(b, B + at + 1, n0 - at - 1, tmp);
    copy(b, tmp, n0 - at - 1, B + at);
    set_sizes(b, 0, n0 - 1, ns(0));
    if (!deeper_nonempty(0)) return true;  // S_0 is empty, so no older copy exists anywhere
    const gq::HeapEntry del{0.0, out->key, gq::kHeapDelete};
    return bulk_update(b, &del, 1);
  }
};

}  // namespace sssp
