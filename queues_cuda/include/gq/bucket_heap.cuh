// gq/bucket_heap.cuh — parBucketHeap, the priority queue of seed 000 ("A Parallel Priority Queue
// with Fast Updates for GPU Architectures"), Section 2: levels i = 0 .. q-1, each a bucket B_i
// (capacity d * 2^(2i+1)) and a signal buffer S_i (capacity d * 2^(2i)), every list kept sorted by
// key (the vertex, the paper's "value"). Update/BulkUpdate go into S_0, ExtractMin takes from
// B_0, Delete travels down as the special priority DEL, and Resolve(i) = Empty(S_i) + Fill(B_i)
// moves entries between levels by merges and scans.
//
// This file holds the structure and the sequential semantics of every operation; both builds
// run it (the CPU runtime, and one GPU thread per heap in the first GPU version). Orders and
// rules, where the paper leaves them open:
//   * entries are ordered by (priority, key), so ties break the same way everywhere and the
//     minimum is unique;
//   * Update is decrease-or-insert: two entries of one key keep the smaller priority;
//   * for one key, an entry on a higher level is newer than one below, and S_i is newer than B_i
//     (entries only move down, or up by Fill into a bucket after that level's S is emptied). When
//     two entries of a key meet, the newer decides: DEL removes the older; an Update meeting an
//     older DEL becomes REPLACE (a live entry that also removes deeper copies: an insert after a
//     delete). A REPLACE that settles in a bucket leaves as an Update there and sends a DEL down.
//   * ExtractMin applies whatever S_0 holds (Resolve(0)), removes the minimum from B_0 and, when
//     deeper levels hold anything, sends DEL(key) down, so older copies of the key die before
//     they could surface.
// A full last level raises the error flag (kCapacity): the host sizes the heap for its use.
#pragma once
#include "arch.cuh"

namespace gq {

enum HeapKind : uint32_t { kHeapUpdate = 0, kHeapReplace = 1, kHeapDelete = 2 };

struct HeapEntry {
  double prio;
  uint32_t key;
  uint32_t kind;
};
static_assert(sizeof(HeapEntry) == 16, "HeapEntry is 16 bytes");

GQ_HD GQ_INLINE bool heap_less(const HeapEntry& a, const HeapEntry& b) {
  return a.prio < b.prio || (a.prio == b.prio && a.key < b.key);
}

struct BucketHeap {
  HeapEntry* mem;     // levels' B and S regions, then two scratch lists
  uint32_t* sizes;    // [2 * levels]: |B_i| at 2i, |S_i| at 2i + 1
  uint32_t d, levels;

  GQ_HD static uint64_t b_cap(uint32_t d, uint32_t i) { return (uint64_t)d << (2 * i + 1); }
  GQ_HD static uint64_t s_cap(uint32_t d, uint32_t i) { return (uint64_t)d << (2 * i); }
  // Level i's block (B then S) starts after levels 0..i-1: sum of 3 d 4^j = d (4^i - 1).
  GQ_HD static uint64_t level_offset(uint32_t d, uint32_t i) { return (uint64_t)d * ((1ull << (2 * i)) - 1); }
  GQ_HD static uint64_t scratch_len(uint32_t d, uint32_t levels) { return 3ull * d << (2 * (levels - 1)); }
  GQ_HD static uint64_t entries(uint32_t d, uint32_t levels) {
    return level_offset(d, levels) + 2 * scratch_len(d, levels);
  }
  // Levels for up to `n` keys: the last bucket holds every live key and a DEL for each.
  GQ_HD static uint32_t levels_for(uint64_t n, uint32_t d) {
    uint32_t q = 1;
    while (b_cap(d, q - 1) < 2 * n + 2) ++q;
    return q + 1;
  }

  GQ_HD HeapEntry* bucket(uint32_t i) const { return mem + level_offset(d, i); }
  GQ_HD HeapEntry* signal(uint32_t i) const { return mem + level_offset(d, i) + b_cap(d, i); }
  GQ_HD HeapEntry* scratch(uint32_t k) const { return mem + level_offset(d, levels) + k * scratch_len(d, levels); }
  GQ_HD uint32_t& nb(uint32_t i) const { return sizes[2 * i]; }
  GQ_HD uint32_t& ns(uint32_t i) const { return sizes[2 * i + 1]; }

  GQ_HD bool deeper_nonempty(uint32_t i) const {
    for (uint32_t j = i + 1; j < levels; ++j)
      if (nb(j) || ns(j)) return true;
    return false;
  }

  // Two entries of one key: `newer` (from above) and `older`.
  GQ_HD static HeapEntry combine(const HeapEntry& newer, const HeapEntry& older) {
    if (newer.kind != kHeapUpdate) return newer;  // DEL or REPLACE: what came before is void
    HeapEntry e = newer;
    if (older.kind == kHeapDelete) {
      e.kind = kHeapReplace;
    } else {
      if (older.prio < e.prio) e.prio = older.prio;
      e.kind = older.kind;  // an older REPLACE still has deeper copies to remove
    }
    return e;
  }

  // Merge two key-sorted lists into `out`; returns its length.
  GQ_HD static uint32_t merge(const HeapEntry* newer, uint32_t nn, const HeapEntry* older, uint32_t no,
                              HeapEntry* out) {
    uint32_t a = 0, b = 0, k = 0;
    while (a < nn || b < no) {
      if (b == no || (a < nn && newer[a].key < older[b].key)) {
        out[k++] = newer[a++];
      } else if (a == nn || older[b].key < newer[a].key) {
        out[k++] = older[b++];
      } else {
        out[k++] = combine(newer[a++], older[b++]);
      }
    }
    return k;
  }

  // The k-th smallest (1-based) live entry of `list` by (priority, key): quickselect on a copy.
  GQ_HD static HeapEntry select(const HeapEntry* list, uint32_t n, uint32_t k, HeapEntry* tmp) {
    uint32_t m = 0;
    for (uint32_t j = 0; j < n; ++j)
      if (list[j].kind != kHeapDelete) tmp[m++] = list[j];
    uint32_t lo = 0, hi = m - 1, want = k - 1;
    while (lo < hi) {
      const HeapEntry pivot = tmp[lo + (hi - lo) / 2];
      uint32_t i = lo, j = hi;
      while (i <= j) {
        while (heap_less(tmp[i], pivot)) ++i;
        while (heap_less(pivot, tmp[j])) --j;
        if (i <= j) {
          const HeapEntry t = tmp[i];
          tmp[i] = tmp[j];
          tmp[j] = t;
          ++i;
          if (j == 0) break;
          --j;
        }
      }
      if (want <= j) hi = j;
      else if (want >= i) lo = i;
      else break;
    }
    return tmp[want];
  }

  // Empty(S_i): merge S_i into B_i; keep in B_i what is no larger than B_i's old maximum (every
  // live entry when nothing lies deeper), at most B_i's capacity; the rest, and every DEL that
  // still has deeper copies to find, goes down into S_{i+1}.
  GQ_HD bool empty_level(uint32_t i, const ErrorFlag& err) const {
    if (ns(i) == 0) return true;
    const bool deeper = deeper_nonempty(i);
    const bool can_spill = i + 1 < levels;
    if (can_spill && ns(i + 1) + ns(i) + nb(i) > s_cap(d, i + 1) && !empty_level(i + 1, err)) return false;
    HeapEntry* merged = scratch(0);
    HeapEntry* down = scratch(1);
    // Which live entries stay: all, none (an empty bucket: Fill brings the smallest back), or
    // those no larger than `bound`.
    enum { kAll, kNone, kBound } rule = !deeper ? kAll : nb(i) == 0 ? kNone : kBound;
    HeapEntry bound{0.0, 0u, kHeapUpdate};
    for (uint32_t j = 0; rule == kBound && j < nb(i); ++j)
      if (j == 0 || heap_less(bound, bucket(i)[j])) bound = bucket(i)[j];
    const uint32_t m = merge(signal(i), ns(i), bucket(i), nb(i), merged);
    auto stays = [&](const HeapEntry& e) {
      return e.kind != kHeapDelete && (rule == kAll || (rule == kBound && !heap_less(bound, e)));
    };
    uint32_t live = 0;
    for (uint32_t j = 0; j < m; ++j) live += stays(merged[j]);
    if (live > b_cap(d, i)) {  // a bucket holds at most its capacity: the capacity-th smallest bounds it
      if (!can_spill) {
        err.raise(kCapacity, kSiteBucketHeap, (uint64_t)i);
        return false;
      }
      const HeapEntry kth = select(merged, m, (uint32_t)b_cap(d, i), down);
      if (rule != kBound || heap_less(kth, bound)) bound = kth;
      rule = kBound;
    }
    uint32_t stay = 0, nd = 0;
    HeapEntry* B = bucket(i);  // the merge copied B_i out, so its region is free
    for (uint32_t j = 0; j < m; ++j) {
      HeapEntry e = merged[j];
      if (stays(e)) {
        if (e.kind == kHeapReplace) {
          e.kind = kHeapUpdate;
          if (deeper) down[nd++] = HeapEntry{e.prio, e.key, kHeapDelete};
        }
        B[stay++] = e;
      } else if (e.kind != kHeapDelete || deeper) {
        down[nd++] = e;  // (a DEL with nothing deeper has nothing left to delete)
      }
    }
    nb(i) = stay;
    ns(i) = 0;
    if (nd) {
      ns(i + 1) = merge(down, nd, signal(i + 1), ns(i + 1), merged);
      copy_back(i + 1);
    }
    return true;
  }

  // The merge into S_{i+1} lands in scratch(0); move it into place.
  GQ_HD void copy_back(uint32_t i) const {
    HeapEntry* src = scratch(0);
    HeapEntry* dst = signal(i);
    for (uint32_t j = 0; j < ns(i); ++j) dst[j] = src[j];
  }

  // Fill(B_i): after Empty(S_i), top B_i up with the smallest entries of level i + 1.
  GQ_HD bool fill_level(uint32_t i, const ErrorFlag& err) const {
    if (i + 1 >= levels || nb(i) >= b_cap(d, i) || !deeper_nonempty(i)) return true;
    if (!empty_level(i + 1, err)) return false;
    const uint32_t need = (uint32_t)(b_cap(d, i) - nb(i));
    if (nb(i + 1) < need && deeper_nonempty(i + 1) && !fill_level(i + 1, err)) return false;
    const uint32_t n1 = nb(i + 1);
    if (n1 == 0) return true;
    HeapEntry* B1 = bucket(i + 1);
    HeapEntry* up = scratch(0);
    HeapEntry* rest = scratch(1);
    uint32_t nu = 0, nr = 0;
    if (n1 <= need) {
      for (uint32_t j = 0; j < n1; ++j) up[nu++] = B1[j];
    } else {
      const HeapEntry kth = select(B1, n1, need, rest);
      for (uint32_t j = 0; j < n1; ++j) {
        if (heap_less(kth, B1[j])) rest[nr++] = B1[j];
        else up[nu++] = B1[j];
      }
    }
    for (uint32_t j = 0; j < nr; ++j) B1[j] = rest[j];
    nb(i + 1) = nr;
    // B_i's entries are newer than those coming up (rest is free again for the merge).
    const uint32_t m = merge(bucket(i), nb(i), up, nu, rest);
    HeapEntry* B = bucket(i);
    for (uint32_t j = 0; j < m; ++j) B[j] = rest[j];
    nb(i) = m;
    return true;
  }

  GQ_HD bool resolve(uint32_t i, const ErrorFlag& err) const { return empty_level(i, err) && fill_level(i, err); }

  // BulkUpdate(U): up to d entries sorted by key (Update or DEL), into S_0.
  GQ_HD bool bulk_update(const HeapEntry* u, uint32_t n, const ErrorFlag& err) const {
    if (ns(0) + n > s_cap(d, 0) && !empty_level(0, err)) return false;
    ns(0) = merge(u, n, signal(0), ns(0), scratch(0));
    copy_back(0);
    return true;
  }

  // The entry ExtractMin would return, left in place; false when the heap is empty.
  GQ_HD bool peek_min(HeapEntry* out, const ErrorFlag& err) const {
    if ((ns(0) > 0 || nb(0) == 0) && !resolve(0, err)) return false;
    if (nb(0) == 0) return false;
    const HeapEntry* B = bucket(0);
    uint32_t best = 0;
    for (uint32_t j = 1; j < nb(0); ++j)
      if (heap_less(B[j], B[best])) best = j;
    *out = B[best];
    return true;
  }

  // ExtractMin: the entry with the smallest (priority, key); false when the heap is empty.
  GQ_HD bool extract_min(HeapEntry* out, const ErrorFlag& err) const {
    // Anything pending in S_0 (an update, or a DEL of a key in B_0) must be applied first.
    if ((ns(0) > 0 || nb(0) == 0) && !resolve(0, err)) return false;
    if (nb(0) == 0) return false;
    HeapEntry* B = bucket(0);
    uint32_t best = 0;
    for (uint32_t j = 1; j < nb(0); ++j)
      if (heap_less(B[j], B[best])) best = j;
    *out = B[best];
    for (uint32_t j = best + 1; j < nb(0); ++j) B[j - 1] = B[j];
    --nb(0);
    if (!deeper_nonempty(0)) return true;  // S_0 is empty, so no older copy exists anywhere
    const HeapEntry del{0.0, out->key, kHeapDelete};
    return bulk_update(&del, 1, err);
  }
};

}  // namespace gq
