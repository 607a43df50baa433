// host/heap_runtime.cpp — the CPU build of parBucketHeap (include/gq/bucket_heap.cuh): a C ABI
// that runs a whole program of heap operations in one call, so tests and the CPU shortest-path
// code do not pay a ctypes crossing per operation.
#include <gq/bucket_heap.cuh>

extern "C" {

uint64_t gq_heap_entries(uint32_t d, uint32_t levels) { return gq::BucketHeap::entries(d, levels); }

uint32_t gq_heap_levels_for(uint64_t n, uint32_t d) { return gq::BucketHeap::levels_for(n, d); }

// ops: type 0 = BulkUpdate of the next `count` (key, prio) pairs (sorted by key, count <= d),
// type 1 = Delete(next key), type 2 = ExtractMin (writes out_key/out_prio/out_ok, one per op
// of this type, in order). Returns the error code (0: all ran).
uint32_t gq_heap_run(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels, const uint32_t* op_type,
                     const uint32_t* op_count, uint64_t nops, const uint32_t* keys, const double* prios,
                     uint32_t* out_key, double* out_prio, uint8_t* out_ok, uint32_t* err_words) {
  const gq::BucketHeap h{mem, sizes, d, levels};
  const gq::ErrorFlag err{err_words};
  gq::HeapEntry batch[4096];
  uint64_t next = 0, extracted = 0;
  for (uint64_t k = 0; k < nops && !err.raised(); ++k) {
    if (op_type[k] == 2) {
      gq::HeapEntry e{};
      const bool ok = h.extract_min(&e, err);
      out_ok[extracted] = ok;
      out_key[extracted] = ok ? e.key : 0u;
      out_prio[extracted] = ok ? e.prio : 0.0;
      ++extracted;
      continue;
    }
    const uint32_t n = op_type[k] == 1 ? 1u : op_count[k];
    if (n > d || n > 4096u) {
      err.raise(gq::kCapacity, gq::kSiteBucketHeap, n);
      break;
    }
    for (uint32_t j = 0; j < n; ++j, ++next)
      batch[j] = gq::HeapEntry{op_type[k] == 1 ? 0.0 : prios[next], keys[next],
                               op_type[k] == 1 ? (uint32_t)gq::kHeapDelete : (uint32_t)gq::kHeapUpdate};
    h.bulk_update(batch, n, err);
  }
  return gq::load<gq::mo::acquire>(err_words);
}

}  // extern "C"
