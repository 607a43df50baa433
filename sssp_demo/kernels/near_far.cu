// kernels/near_far.cu — Near-Far delta-stepping and frontier Bellman-Ford (Delta = +inf) on the
// GPU: one persistent kernel, launched with no more blocks than are resident (occupancy API, in
// sssp_demo/sssp_cuda.py), running sssp/near_far_grid.h; the rounds are separated by the software
// grid barrier of sssp/grid.h, so the host waits once per run, not once per round.
#include <sssp/near_far_grid.h>

extern "C" __global__ void __launch_bounds__(512)
    sssp_near_far_grid(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                       uint32_t source, double limit, double delta, uint64_t* dist, uint64_t* items0,
                       uint64_t* items1, uint32_t item_cap, uint32_t* far0, uint32_t* far1, uint32_t* in_far,
                       uint32_t* mark, uint64_t* nearest, uint64_t* stats, uint32_t* ctl, uint32_t lanes, uint32_t ch,
                       uint64_t budget_ns, uint32_t local_items, uint32_t own_cap, uint32_t* err_words) {
  __shared__ uint32_t verdict;
  // Block 0's frontiers in its local rounds (near_far_grid.h): the launcher's own_cap is at most
  // kOwnItems. 32 KB in every block; registers, not this, bound the blocks an SM: 115 a thread
  // (run 54) leave room for one block of 512 threads (the default) or two of 256.
  __shared__ sssp::OwnItem own[2][sssp::kOwnItems];
  __shared__ uint32_t own_count[2];
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, err_words);
  const sssp::NearFarState s{dist,    {items0, items1}, item_cap, {far0, far1}, in_far,    mark,
                             nearest, stats,            lanes,    ch,           budget_ns, local_items,
                             {own[0], own[1]}, own_count, own_cap < sssp::kOwnItems ? own_cap : sssp::kOwnItems};
  sssp::near_far_grid(grid, sssp::Csr{indptr, indices, weights, n}, source, limit, delta, s);
}
