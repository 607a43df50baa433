// kernels/render.cu — GPU entry points of the renderers. The work itself lives in the headers
// (rt/whitted.h, rt/compaction.h, rt/tile_queues.h) and runs unchanged on the CPU
// (host/render_cpu.cpp). Kernels take plain scalars and pointers so CuPy can launch them.
//
// Built once per queue kind (GQ_QUEUE_KIND) with --fmad=false: without contraction every float
// operation rounds once, as on the CPU, so a pixel's arithmetic cannot depend on how the
// compiler happened to inline advance_path into each kernel.
#include <rt/compaction.h>
#include <rt/render_args.h>
#include <rt/tile_queues.h>

using rt::PathState;
using rt::RayCounts;
using rt::RenderParams;

__device__ __forceinline__ void store_counts(uint64_t* counts, uint32_t tid, const RayCounts& c) {
  counts[3 * (uint64_t)tid] += c.primary;
  counts[3 * (uint64_t)tid + 1] += c.reflection;
  counts[3 * (uint64_t)tid + 2] += c.shadow;
}

// Fresh paths; for the compaction baseline also the first wave's list (every pixel) and count.
extern "C" __global__ void rt_paths_init(PathState* pool, uint32_t* list, uint64_t* count, uint64_t pixels) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  if (count && blockIdx.x == 0 && threadIdx.x == 0) *count = pixels;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += stride) {
    pool[i] = rt::fresh_path();
    if (list) list[i] = (uint32_t)i;
  }
}

// One wave of the compaction baseline, grid-stride over the wave's list. The wave also clears
// the counter the wave after next appends to (three counters rotate; no host round trip).
extern "C" __global__ void rt_wave(RT_SCENE_ARGS, PathState* pool, const uint32_t* in_list, const uint64_t* in_count,
                                   uint32_t* out_list, uint64_t* out_count, uint64_t* clear_count,
                                   uint64_t* samples_done, uint64_t* counts) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  if (tid == 0) *clear_count = 0;
  const rt::WaveLists w{in_list, in_count, out_list, out_count};
  const uint64_t n = *in_count;
  RayCounts c{0, 0, 0};
  for (uint64_t i = tid; i < n; i += stride) rt::wave_item(p, pool, w, i, samples_done, c);
  store_counts(counts, tid, c);
}

extern "C" __global__ void rt_queue_words(uint64_t capacity, uint64_t threads, uint64_t* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = gq::Queue::words(capacity, threads);
}

extern "C" __global__ void rt_tiles_init(uint64_t* base, uint64_t words, uint64_t stride, uint64_t capacity,
                                         uint64_t threads) {
  const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += step)
    base[i] = rt::TileQueues::initial_word(i, stride, capacity, threads);
}

extern "C" __global__ void rt_tiles_seed(uint64_t* base, uint64_t stride, uint64_t capacity, uint64_t threads,
                                         uint32_t width, uint32_t height, uint32_t tiles_x, uint32_t tiles_y,
                                         uint32_t* err_words) {
  const rt::TileGrid g{width, height, tiles_x, tiles_y};
  const rt::TileQueues tq{base, stride, capacity, threads};
  const uint64_t pixels = (uint64_t)width * height;
  const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
  const gq::ErrorFlag err{err_words};
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += step)
    rt::seed_pixel(g, tq, (uint32_t)i, (uint32_t)(i % threads), err);
}

extern "C" __global__ void rt_tiles(RT_SCENE_ARGS, PathState* pool, uint64_t* base, uint64_t stride,
                                    uint64_t capacity, uint32_t nthreads, uint32_t tiles_x, uint32_t tiles_y,
                                    uint64_t* samples_done, uint64_t* counts, uint32_t* err_words) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  // Blocks are whole warps, all converged at entry; the lanes past nthreads leave here.
  const uint32_t members = gq::ballot(0xFFFFFFFFu, tid < nthreads);
  if (tid >= nthreads) return;
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const rt::TileGrid g{width, height, tiles_x, tiles_y};
  const rt::TileQueues tq{base, stride, capacity, nthreads};
  RayCounts c{0, 0, 0};
  rt::tile_worker(p, pool, g, tq, blockIdx.x % g.count(), tid, members, (uint64_t)width * height * spp,
                  samples_done, c, gq::ErrorFlag{err_words});
  store_counts(counts, tid, c);
}

extern "C" __global__ void rt_aov(RT_SCENE_ARGS, float* depth, float* normal, int32_t* id, int32_t* face) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint64_t pixels = (uint64_t)width * height;
  const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += step)
    rt::first_hit_aov(p, (uint32_t)i, depth, normal, id, face);
}
