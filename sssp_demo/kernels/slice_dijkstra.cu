// kernels/slice_dijkstra.cu — `pardijkstra-sliced` on the GPU (sssp/slice_dijkstra.h), in
// two forms: the grid (one block per SM, minima exchanged through slots in device memory) and
// one thread-block cluster (8 or 16 blocks of 512 or 1024 threads, each pushing its minimum
// into every peer's shared memory), for graphs whose slices fit the cluster.
// Dynamic shared memory holds the block's slice of keys and, when `table_in_shared`, its row of
// the sliced edges' offset table, then in the cluster form, when `light_in_shared`, its slice's
// light successors (the launcher sizes them and checks they fit); otherwise the table and the
// light successors are read from device memory.
#include <sssp/slice_dijkstra.h>

namespace {

// The block's row of the offset table: copied into shared memory after the slice when asked
// (made visible by the first round's block barrier, before any thread reads an offset).
__device__ const uint32_t* offset_row(uint64_t* keys, uint32_t slice, const uint32_t* offsets, uint32_t n,
                                      uint32_t table_in_shared) {
  const uint32_t* table = offsets + (uint64_t)blockIdx.x * (n + 1);
  if (!table_in_shared) return table;
  uint32_t* copy = reinterpret_cast<uint32_t*>(keys + slice);
  for (uint32_t i = threadIdx.x; i <= n; i += blockDim.x) copy[i] = table[i];
  return copy;
}

}  // namespace

// The sliced edge layout of a graph whose rows are sorted by target (sssp/slice_dijkstra.h,
// SlicedEdges), in two passes around a prefix sum the launcher runs:
// 1. one thread per (block b, row u): the size of row u's part in slice b, by two binary
//    searches in the row, into counts[b (n + 1) + u + 1];
// 2. one warp per (b, u): that part copied, coalesced, to where the offsets put it.
__device__ __forceinline__ int64_t first_at_least(const int64_t* indptr, const int32_t* indices, uint32_t u,
                                                  uint64_t target) {
  int64_t lo = indptr[u], hi = indptr[u + 1];
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if ((uint64_t)indices[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The block's slice of the light successors (the follower's table), copied into shared memory
// after the slice and the offset table (visible after the first round's block barrier, before the
// first offer reads it); or the whole table in device memory, indexed by vertex (lo 0).
__device__ const uint32_t* light_part(uint64_t* keys, uint32_t slice, uint32_t n, uint32_t table_in_shared,
                                      const uint32_t* light, uint32_t light_in_shared, uint32_t* lo) {
  *lo = 0;
  if (!light || !light_in_shared) return light;
  const uint64_t first = (uint64_t)blockIdx.x * slice;
  *lo = first < n ? (uint32_t)first : n;
  const uint32_t count = n - *lo < slice ? n - *lo : slice;
  uint32_t* copy = reinterpret_cast<uint32_t*>(keys + slice) + (table_in_shared ? n + 1 : 0);
  for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) copy[i] = light[*lo + i];
  return copy;
}

extern "C" __global__ void __launch_bounds__(256)
    sssp_slice_layout_count(const int64_t* indptr, const int32_t* indices, uint32_t n, uint32_t blocks, uint32_t slice,
                            uint32_t* counts) {
  const uint64_t total = (uint64_t)blocks * n;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t b = (uint32_t)(i / n), u = (uint32_t)(i % n);
    const int64_t from = first_at_least(indptr, indices, u, (uint64_t)b * slice);
    const int64_t to = first_at_least(indptr, indices, u, (uint64_t)(b + 1) * slice);
    counts[(uint64_t)b * (n + 1) + u + 1] = (uint32_t)(to - from);
  }
}

extern "C" __global__ void __launch_bounds__(256)
    sssp_slice_layout_copy(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                           uint32_t blocks, uint32_t slice, const uint32_t* offsets, int32_t* sliced_indices,
                           double* sliced_weights) {
  const uint32_t lane = threadIdx.x % 32;
  const uint64_t total = (uint64_t)blocks * n;
  const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
  for (uint64_t i = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; i < total; i += warps) {
    const uint32_t b = (uint32_t)(i / n), u = (uint32_t)(i % n);
    const uint32_t to = offsets[(uint64_t)b * (n + 1) + u];
    const uint32_t count = offsets[(uint64_t)b * (n + 1) + u + 1] - to;
    if (count == 0) continue;
    const int64_t from = first_at_least(indptr, indices, u, (uint64_t)b * slice);
    for (uint32_t k = lane; k < count; k += 32) {
      sliced_indices[to + k] = indices[from + k];
      sliced_weights[to + k] = weights[from + k];
    }
  }
}

// The follower's table (sssp/slice_dijkstra.h, SliceDijkstraState::light), one warp per row:
// the least target of row u's edges of weight w_min, other than u, or kNoVertex.
extern "C" __global__ void __launch_bounds__(256)
    sssp_light_successors(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                          double w_min, uint32_t* light) {
  const uint32_t lane = threadIdx.x % 32;
  const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
  for (uint64_t u = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; u < n; u += warps) {
    uint32_t least = sssp::kNoVertex;
    for (int64_t k = indptr[u] + lane; k < indptr[u + 1]; k += 32) {
      const uint32_t v = (uint32_t)indices[k];
      if (weights[k] == w_min && v != u && v < least) least = v;
    }
    least = __reduce_min_sync(0xffffffffu, least);
    if (lane == 0) light[u] = least;
  }
}

extern "C" __global__ void __launch_bounds__(256)
    sssp_slice_dijkstra_grid(uint32_t n, uint32_t source, double limit, uint64_t* dist, const int32_t* sliced_indices,
                             const double* sliced_weights, const uint32_t* offsets, uint32_t table_in_shared,
                             uint64_t* slots, uint32_t slice, uint64_t* stats, uint32_t* ctl, uint64_t budget_ns,
                             uint64_t* profile, uint32_t* err_words, const uint32_t* light, double w_light) {
  extern __shared__ uint64_t keys[];  // [slice], then (table_in_shared) [n + 1] uint32 offsets
  __shared__ uint32_t verdict;
  __shared__ sssp::SliceScratch scratch;
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, err_words);
  const uint32_t* table = offset_row(keys, slice, offsets, n, table_in_shared);
  const sssp::SliceDijkstraState s{dist, sssp::SlicedEdges{sliced_indices, sliced_weights}, slots,
                                   stats, slice, budget_ns, profile, light, w_light};
  sssp::slice_dijkstra(grid, n, source, limit, keys, table, &scratch, s, sssp::SlotTournament{s});
}

// The cluster form's body, for a block of any width and a cluster of kClusterBlocks blocks
// (launched below: 8, the portable size, and 16, which needs the launcher's non-portable
// attribute).
template <uint32_t kClusterBlocks>
__device__ __forceinline__ void cluster_run(uint32_t n, uint32_t source, double limit, uint64_t* dist,
                                            const int32_t* sliced_indices, const double* sliced_weights,
                                            const uint32_t* offsets, uint32_t table_in_shared, uint32_t slice,
                                            uint64_t* stats, uint32_t* ctl, uint64_t budget_ns, uint64_t* profile,
                                            uint32_t* err_words, const uint32_t* light, double w_light,
                                            uint32_t light_in_shared) {
  extern __shared__ uint64_t keys[];
  __shared__ uint32_t verdict;
  __shared__ sssp::SliceScratch scratch;
  __shared__ sssp::ClusterCandidate inbox[2 * kClusterBlocks];  // every block's offer, by round parity
  __shared__ uint64_t inbox_bars[2];                              // their mbarriers, one a parity
  const sssp::Grid grid(blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, err_words);
  if (threadIdx.x == 0) sssp::inbox_init(inbox_bars);
  sssp::cluster_sync(grid);  // every inbox ready before any block pushes into it
  const uint32_t* table = offset_row(keys, slice, offsets, n, table_in_shared);
  uint32_t light_lo;
  const uint32_t* slice_light = light_part(keys, slice, n, table_in_shared, light, light_in_shared, &light_lo);
  const sssp::SliceDijkstraState s{dist, sssp::SlicedEdges{sliced_indices, sliced_weights}, nullptr,
                                   stats, slice, budget_ns, profile, light, w_light};
  sssp::slice_dijkstra(grid, n, source, limit, keys, table, &scratch, s,
                       sssp::ClusterTournament{inbox, inbox_bars, slice_light, light_lo});
  sssp::cluster_sync(grid);  // no block leaves while a peer may still push into it
}

#define SSSP_CLUSTER_PARAMS                                                                                   \
  uint32_t n, uint32_t source, double limit, uint64_t *dist, const int32_t *sliced_indices,                   \
      const double *sliced_weights, const uint32_t *offsets, uint32_t table_in_shared, uint32_t slice,        \
      uint64_t *stats, uint32_t *ctl, uint64_t budget_ns, uint64_t *profile, uint32_t *err_words,          \
      const uint32_t *light, double w_light, uint32_t light_in_shared
#define SSSP_CLUSTER_ARGS                                                                                     \
  n, source, limit, dist, sliced_indices, sliced_weights, offsets, table_in_shared, slice, stats, ctl, budget_ns, \
      profile, err_words, light, w_light, light_in_shared

// One kernel per (blocks of the cluster, threads a block), named as grid_forms.CLUSTER_KERNELS
// names them: 512 threads for rounds of up to about 4,000 edges, 1024 for more (the seed DAG at
// 300 M edges: about 10,000); see grid_forms.cluster_width.
#define SSSP_CLUSTER_KERNEL(name, blocks, threads)                                                 \
  extern "C" __global__ void __cluster_dims__(blocks, 1, 1) __launch_bounds__(threads)              \
      name(SSSP_CLUSTER_PARAMS) {                                                                   \
    cluster_run<blocks>(SSSP_CLUSTER_ARGS);                                                         \
  }
SSSP_CLUSTER_KERNEL(sssp_slice_dijkstra_cluster, 8, 512)
SSSP_CLUSTER_KERNEL(sssp_slice_dijkstra_cluster_wide, 8, 1024)
SSSP_CLUSTER_KERNEL(sssp_slice_dijkstra_cluster16, 16, 512)
SSSP_CLUSTER_KERNEL(sssp_slice_dijkstra_cluster16_wide, 16, 1024)
