// kernels/bucket_heap.cu — parBucketHeap on the GPU, first form: one thread runs a program of
// heap operations (include/gq/heap_program.cuh) with the same code as the CPU build
// (host/heap_runtime.cpp), so the two can be compared operation by operation. The level-parallel
// form (one block per level, signalled through device memory) builds on this file.
#include <gq/heap_program.cuh>

extern "C" __global__ void gq_heap_run(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels,
                                       gq::HeapEntry* batch, const uint32_t* op_type, const uint32_t* op_count,
                                       uint64_t nops, const uint32_t* keys, const double* prios, uint32_t* out_key,
                                       double* out_prio, uint8_t* out_ok, uint32_t* err_words) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  gq::run_heap_program(gq::BucketHeap{mem, sizes, d, levels}, batch, op_type, op_count, nops, keys, prios, out_key,
                       out_prio, out_ok, gq::ErrorFlag{err_words});
}
