// kernels/bucket_heap.cu — parBucketHeap on the GPU, first form: one thread runs a program of
// heap operations with the same code as the CPU build (host/heap_runtime.cpp), so the two can be
// compared operation by operation. The level-parallel form (one block per level, signalled
// through device memory) builds on this file.
#include <gq/bucket_heap.cuh>

extern "C" __global__ void gq_heap_run(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels,
                                       const uint32_t* op_type, const uint32_t* op_count, uint64_t nops,
                                       const uint32_t* keys, const double* prios, uint32_t* out_key,
                                       double* out_prio, uint8_t* out_ok, uint32_t* err_words) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const gq::BucketHeap h{mem, sizes, d, levels};
  const gq::ErrorFlag err{err_words};
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
    // One entry at a time through S_0: a batch of n sorted entries is n single-entry merges.
    const uint32_t n = op_type[k] == 1 ? 1u : op_count[k];
    for (uint32_t j = 0; j < n; ++j, ++next) {
      const gq::HeapEntry e{op_type[k] == 1 ? 0.0 : prios[next], keys[next],
                            op_type[k] == 1 ? (uint32_t)gq::kHeapDelete : (uint32_t)gq::kHeapUpdate};
      h.bulk_update(&e, 1, err);
    }
  }
}
