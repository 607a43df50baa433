// kernels/slice_dijkstra.cu — `pardijkstra-sliced` on the GPU (sssp/slice_dijkstra_grid.h): the
// split table, then one persistent kernel of one block per SM, each block's slice of keys in its
// dynamic shared memory (the launcher sizes it and checks it fits).
#include <sssp/slice_dijkstra_grid.h>

// One thread per entry of the n (blocks + 1) split table.
extern "C" __global__ void __launch_bounds__(256)
    sssp_slice_split(const int64_t* indptr, const int32_t* indices, uint32_t n, uint32_t blocks, uint32_t slice,
                     uint32_t* split) {
  const uint64_t total = (uint64_t)n * (blocks + 1);
  const sssp::Csr g{indptr, indices, nullptr, n};
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (uint64_t)gridDim.x * blockDim.x)
    sssp::build_split(g, blocks, slice, i, 1, split);
}

extern "C" __global__ void __launch_bounds__(256)
    sssp_slice_dijkstra_grid(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                             uint32_t source, double limit, uint64_t* dist, const uint32_t* split, uint64_t* slot_key,
                             uint64_t* slot_tag, uint32_t slice, uint64_t* stats, uint32_t* ctl, uint64_t budget_ns,
                             uint32_t* err_words) {
  extern __shared__ uint64_t keys[];
  __shared__ uint32_t verdict;
  __shared__ sssp::SliceScratch scratch[2];
  const sssp::Grid grid{blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, gq::ErrorFlag{err_words}};
  const sssp::SliceDijkstraState s{dist, split, slot_key, slot_tag, stats, slice, budget_ns};
  sssp::slice_dijkstra_grid(grid, sssp::Csr{indptr, indices, weights, n}, source, limit, keys, scratch, s);
}
