// gq/heap_program.cuh — a program of parBucketHeap operations run in one call (the CPU runtime's
// C ABI and the GPU's one-thread kernel share it), so tests compare whole operation sequences
// against a reference heap without a crossing per operation.
//
// op_type[k]: 0 = BulkUpdate of the next op_count[k] (key, prio) pairs (sorted by key, at most
// d), 1 = Delete(next key), 2 = ExtractMin (its result goes to out_key/out_prio/out_ok, one per
// ExtractMin, in order). `batch` is scratch for d entries.
#pragma once
#include "bucket_heap.cuh"

namespace gq {

GQ_HD inline void run_heap_program(const BucketHeap& h, HeapEntry* batch, const uint32_t* op_type,
                                   const uint32_t* op_count, uint64_t nops, const uint32_t* keys, const double* prios,
                                   uint32_t* out_key, double* out_prio, uint8_t* out_ok, const ErrorFlag& err) {
  uint64_t next = 0, extracted = 0;
  for (uint64_t k = 0; k < nops && !err.raised(); ++k) {
    if (op_type[k] == 2) {
      HeapEntry e{};
      const bool ok = h.extract_min(&e, err);
      out_ok[extracted] = ok;
      out_key[extracted] = ok ? e.key : 0u;
      out_prio[extracted] = ok ? e.prio : 0.0;
      ++extracted;
      continue;
    }
    const bool del = op_type[k] == 1;
    const uint32_t n = del ? 1u : op_count[k];
    if (n > h.d) {
      err.raise(kCapacity, kSiteBucketHeap, n);
      return;
    }
    for (uint32_t j = 0; j < n; ++j, ++next)
      batch[j] = HeapEntry{del ? 0.0 : prios[next], keys[next], del ? (uint32_t)kHeapDelete : (uint32_t)kHeapUpdate};
    h.bulk_update(batch, n, err);
  }
}

}  // namespace gq
