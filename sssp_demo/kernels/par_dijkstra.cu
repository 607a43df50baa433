// kernels/par_dijkstra.cu — parDijkstra on the GPU: one persistent kernel, launched with no more
// blocks than are resident (occupancy API, in sssp_demo/sssp_cuda.py), running
// sssp/par_dijkstra_grid.h (see there what is parallel and what is not yet). Block 0 sorts each
// BulkUpdate batch in its shared memory and runs the heap's operations with its whole width
// (sssp/block_bucket_heap.h; the scratch of its primitives, the heap's size words and the keys
// its merges search are shared memory too); the heap's levels live in device memory.
#include <sssp/par_dijkstra_grid.h>

extern "C" __global__ void __launch_bounds__(256)
    sssp_par_dijkstra_grid(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                           uint32_t source, double limit, double w_min, gq::HeapEntry* heap_mem,
                           uint32_t* heap_sizes, uint32_t d, uint32_t levels, uint64_t* dist, uint64_t* items,
                           uint32_t item_cap, uint32_t* updates, uint32_t* mark, uint8_t* settled,
                           gq::HeapEntry* batch, uint64_t* stats, uint32_t* ctl, uint32_t lanes, uint32_t ch,
                           uint64_t budget_ns, uint32_t local_items, uint32_t* err_words) {
  __shared__ uint32_t verdict;
  __shared__ sssp::BlockScratch scratch;
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, err_words);
  const sssp::ParDijkstraState s{dist,  items, item_cap, updates, mark,  settled, batch,
                                 &scratch, stats, lanes, ch, budget_ns, local_items};
  sssp::par_dijkstra_grid(grid, sssp::Csr{indptr, indices, weights, n}, source, limit, w_min,
                          gq::BucketHeap{heap_mem, heap_sizes, d, levels}, s);
}
