// kernels/grid_barrier.cu — the grid barrier alone on the GPU (sssp/barrier_probe.h): its GPU
// test and its cost a barrier (tools/gpu_barrier_probe.py), at the block widths and blocks per SM
// the grid forms launch.
#include <sssp/barrier_probe.h>

extern "C" __global__ void __launch_bounds__(1024)
    sssp_grid_barrier_probe(uint32_t rounds, uint32_t stop_after, uint32_t fail_after, uint32_t* passed,
                            uint64_t* tally, uint32_t* ctl, uint32_t* err_words) {
  __shared__ uint32_t verdict[sssp::kProbeBlockWords];
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, verdict, err_words);
  sssp::barrier_probe(grid, sssp::BarrierProbe{rounds, stop_after, fail_after, passed, tally});
}
