// sssp/block_heap_program.h — a program of parBucketHeap operations (the format of
// gq/heap_program.cuh: op 0 = BulkUpdate of the next op_count pairs, sorted by key, at most d;
// 1 = Delete; 2 = ExtractMin, whose results go to out_*) run through the block form
// (block_bucket_heap.h) by one block, or by one block a level (level_bucket_heap.h). The CPU
// build (blocks of std::threads) and the GPU (CUDA blocks) run it, so tests compare both with the
// reference heap operation by operation.
#pragma once
#include "level_bucket_heap.h"

namespace sssp {

// The operations of the program, on `heap` under `sched` (block_bucket_heap.h's Direct, or
// level_bucket_heap.h's LevelSched).
template <class Sched>
GQ_HD inline void run_heap_ops(const Block& b, const BlockBucketHeap& heap, const Sched& sched, gq::HeapEntry* batch,
                               const uint32_t* op_type, const uint32_t* op_count, uint64_t nops, const uint32_t* keys,
                               const double* prios, uint32_t* out_key, double* out_prio, uint8_t* out_ok) {
  uint64_t next = 0, extracted = 0;
  for (uint64_t k = 0; k < nops; ++k) {
    if (!b.uniform(!b.err.raised())) break;
    if (op_type[k] == 2) {
      gq::HeapEntry e{};
      const bool ok = heap.extract_min(b, &e, sched);
      if (b.thread == 0) {
        out_ok[extracted] = ok;
        out_key[extracted] = ok ? e.key : 0u;
        out_prio[extracted] = ok ? e.prio : 0.0;
      }
      ++extracted;
      continue;
    }
    const bool del = op_type[k] == 1;
    const uint32_t n = del ? 1u : op_count[k];
    if (n > heap.h.d) {
      b.err.raise(gq::kCapacity, gq::kSiteBucketHeap, n);
      break;
    }
    for (uint32_t j = b.thread; j < n; j += b.width)
      batch[j] = gq::HeapEntry{del ? 0.0 : prios[next + j], keys[next + j],
                               del ? (uint32_t)gq::kHeapDelete : (uint32_t)gq::kHeapUpdate};
    next += n;
    b.sync();
    heap.bulk_update(b, batch, n, sched);
  }
}

// One block runs every level, with the heap's size words in its shared memory meanwhile.
GQ_HD inline void run_block_heap_program(const Block& b, const BlockBucketHeap& in_memory, gq::HeapEntry* batch,
                                         const uint32_t* op_type, const uint32_t* op_count, uint64_t nops,
                                         const uint32_t* keys, const double* prios, uint32_t* out_key,
                                         double* out_prio, uint8_t* out_ok) {
  const BlockBucketHeap heap = in_memory.staged(b);
  run_heap_ops(b, heap, Direct{&heap}, batch, op_type, op_count, nops, keys, prios, out_key, out_prio, out_ok);
  heap.write_back(b, in_memory.h.sizes);
}

// One block a level (launched with h.levels blocks; `block` is this one's): block 0 runs the
// program, the others serve their levels; at the end block 0 stops them, each block stopping the
// one below it once that one is idle.
GQ_HD inline void run_level_heap_program(const Block& b, uint32_t block, const LevelSched& sched,
                                         gq::HeapEntry* batch, const uint32_t* op_type, const uint32_t* op_count,
                                         uint64_t nops, const uint32_t* keys, const double* prios, uint32_t* out_key,
                                         double* out_prio, uint8_t* out_ok) {
  if (block != 0) {
    serve_level(b, block, sched);
    return;
  }
  run_heap_ops(b, *sched.heap, sched, batch, op_type, op_count, nops, keys, prios, out_key, out_prio, out_ok);
  if (sched.levels() > 1) sched.call(b, 1, kLevelStop);
}

}  // namespace sssp
