// kernels/block_heap.cu — parBucketHeap's block form on the GPU: one block runs a program of heap
// operations (sssp/block_heap_program.h), or one block a level does (sssp/level_bucket_heap.h),
// the same code the CPU build runs on blocks of threads, so the GPU tests compare both with the
// reference heap before parDijkstra relies on them.
#include <sssp/block_heap_program.h>

extern "C" __global__ void __launch_bounds__(256)
    sssp_block_heap_program(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels, gq::HeapEntry* batch,
                            const uint32_t* op_type, const uint32_t* op_count, uint64_t nops, const uint32_t* keys,
                            const double* prios, uint32_t* out_key, double* out_prio, uint8_t* out_ok,
                            uint32_t* err_words) {
  __shared__ sssp::BlockScratch scratch;
  if (blockIdx.x != 0) return;
  const sssp::Block b{threadIdx.x, blockDim.x, &scratch, nullptr, gq::ErrorFlag{err_words}};
  sssp::run_block_heap_program(b, sssp::BlockBucketHeap{gq::BucketHeap{mem, sizes, d, levels}}, batch, op_type,
                               op_count, nops, keys, prios, out_key, out_prio, out_ok);
}

// One block a level: launched with `levels` blocks (all resident: the levels wait on each other).
extern "C" __global__ void __launch_bounds__(256)
    sssp_level_heap_program(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels,
                            gq::HeapEntry* scratch_mem, uint32_t* req, uint32_t* ack, gq::HeapEntry* batch,
                            const uint32_t* op_type, const uint32_t* op_count, uint64_t nops, const uint32_t* keys,
                            const double* prios, uint32_t* out_key, double* out_prio, uint8_t* out_ok,
                            uint32_t* err_words) {
  __shared__ sssp::BlockScratch scratch;
  const sssp::Block b{threadIdx.x, blockDim.x, &scratch, nullptr, gq::ErrorFlag{err_words}};
  const sssp::BlockBucketHeap heap{gq::BucketHeap{mem, sizes, d, levels}};
  const sssp::LevelSched sched{&heap, scratch_mem, req, ack};
  sssp::run_level_heap_program(b, blockIdx.x, sched, batch, op_type, op_count, nops, keys, prios, out_key, out_prio,
                               out_ok);
}
