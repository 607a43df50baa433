// kernels/sssp_serial.cu — the shortest-path algorithms on the GPU, first form: one thread runs
// the same code as the CPU build (host/sssp_cpu.cpp). It exists so the shared headers are held
// to compiling for the GPU; the parallel forms (relaxations across a block, parBucketHeap levels
// in their own blocks, frontiers across the grid) replace these bodies.
#include <sssp/bellman_ford.h>
#include <sssp/near_far.h>
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

extern "C" __global__ void sssp_bellman_ford_serial(const int64_t* indptr, const int32_t* indices, const double* weights,
                                                    uint32_t n, uint32_t source, double limit, uint32_t* items_a,
                                                    uint32_t* items_b, uint32_t* mark_a, uint32_t* mark_b, double* dist,
                                                    int64_t* pred, uint64_t* stats) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  sssp::Stats st{0, 0, 0, 0};
  sssp::bellman_ford(sssp::Csr{indptr, indices, weights, n}, source, limit, items_a, items_b, mark_a, mark_b, dist,
                     pred, st);
  stats[0] = st.rounds;
  stats[1] = st.relaxations;
  stats[2] = st.improvements;
}

extern "C" __global__ void sssp_near_far_serial(const int64_t* indptr, const int32_t* indices, const double* weights,
                                                uint32_t n, uint32_t source, double limit, double delta,
                                                uint32_t* near_a, uint32_t* near_b, uint32_t* far_items,
                                                uint8_t* in_far, uint32_t* mark_a, uint32_t* mark_b, double* dist,
                                                int64_t* pred, uint64_t* stats) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  sssp::Stats st{0, 0, 0, 0};
  sssp::near_far(sssp::Csr{indptr, indices, weights, n}, source, limit, delta, near_a, near_b, far_items, in_far,
                 mark_a, mark_b, dist, pred, st);
  stats[0] = st.rounds;
  stats[1] = st.relaxations;
  stats[2] = st.improvements;
}
