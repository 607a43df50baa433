// kernels/predecessors.cu — one pass of sssp/predecessors.h over every edge (a plain grid-stride
// kernel; the host repeats it while a pass claims vertices). Each block adds its count once.
#include <sssp/predecessors.h>

extern "C" __global__ void __launch_bounds__(256)
    sssp_predecessor_pass(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                          const uint64_t* dist, uint32_t source, uint32_t pass, uint32_t lanes, int64_t* pred,
                          uint32_t* level, uint32_t* count) {
  __shared__ uint32_t block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  const uint32_t mine = sssp::predecessor_pass(blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x,
                                               sssp::Csr{indptr, indices, weights, n}, dist, source, pass, lanes,
                                               pred, level);
  if (mine) atomicAdd(&block_count, mine);
  __syncthreads();
  if (threadIdx.x == 0 && block_count) gq::fetch_add<gq::mo::relaxed>(count, block_count);
}
