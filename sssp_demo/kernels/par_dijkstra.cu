// kernels/par_dijkstra.cu — parDijkstra on the GPU, first form: one thread runs the same rounds
// as the CPU build (host/sssp_cpu.cpp) over a heap in device memory. It exists so the shared
// headers are held to compiling for the GPU; the parallel form (relaxations across a block,
// parBucketHeap levels in their own blocks) replaces its body.
#include <sssp/par_dijkstra.h>

extern "C" __global__ void sssp_par_dijkstra_serial(const int64_t* indptr, const int32_t* indices,
                                                    const double* weights, uint32_t n, uint32_t source, double limit,
                                                    double w_min,
                                                    gq::HeapEntry* heap_mem, uint32_t* heap_sizes, uint32_t d,
                                                    uint32_t levels, gq::HeapEntry* batch, int64_t* slot_of,
                                                    uint32_t* round,
                                                    double* dist, int64_t* pred, uint8_t* settled, uint64_t* stats,
                                                    uint32_t* err_words) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const gq::BucketHeap heap{heap_mem, heap_sizes, d, levels};
  sssp::Stats st{0, 0, 0, 0};
  sssp::par_dijkstra(sssp::Csr{indptr, indices, weights, n}, source, limit, w_min, heap, batch, slot_of, round, dist,
                     pred, settled, st, gq::ErrorFlag{err_words});
  stats[0] = st.rounds;
  stats[1] = st.relaxations;
  stats[2] = st.improvements;
  stats[3] = st.heap_updates;
}
