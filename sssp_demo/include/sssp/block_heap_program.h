// sssp/block_heap_program.h — a program of parBucketHeap operations (the format of
// gq/heap_program.cuh: op 0 = BulkUpdate of the next op_count pairs, sorted by key, at most d;
// 1 = Delete; 2 = ExtractMin, whose results go to out_*) run by one block through the block form
// (block_bucket_heap.h). The CPU build (a block of std::threads) and the GPU (one CUDA block) run
// it, so tests compare both with the reference heap operation by operation.
#pragma once
#include "block_bucket_heap.h"

namespace sssp {

GQ_HD inline void run_block_heap_program(const Block& b, const BlockBucketHeap& in_memory, gq::HeapEntry* batch,
                                         const uint32_t* op_type, const uint32_t* op_count, uint64_t nops,
                                         const uint32_t* keys, const double* prios, uint32_t* out_key,
                                         double* out_prio, uint8_t* out_ok) {
  const BlockBucketHeap heap = in_memory.staged(b);
  uint64_t next = 0, extracted = 0;
  for (uint64_t k = 0; k < nops; ++k) {
    if (!b.uniform(!b.err.raised())) break;
    if (op_type[k] == 2) {
      gq::HeapEntry e{};
      const bool ok = heap.extract_min(b, &e);
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
    heap.bulk_update(b, batch, n);
  }
  heap.write_back(b, in_memory.h.sizes);
}

}  // namespace sssp
