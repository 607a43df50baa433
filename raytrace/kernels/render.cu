// kernels/render.cu — GPU entry points of the renderers. The work itself lives in the headers
// (rt/whitted.h, rt/compaction.h, rt/tile_queues.h) and runs unchanged on the CPU
// (host/render_cpu.cpp). Kernels take plain scalars and pointers so CuPy can launch them.
//
// Built once per queue kind (GQ_QUEUE_KIND) with --fmad=false: without contraction every float
// operation rounds once, as on the CPU, so a pixel's arithmetic cannot depend on how the
// compiler happened to inline advance_path into each kernel (the few contractions the traversal
// wants are written as explicit fmaf, which rounds once on both builds: rt/mesh_bvh.h).
//
// Primary rays are handed out in 8x4 screen blocks (rt/pixel_order.h), so a warp traces a compact
// patch (run 13: 1.12x over row order for the compaction renderer).
//
// The kernels that trace carry __launch_bounds__(256, kMinBlocks): the renderers launch blocks of
// queues_cuda.cuda_runtime.BLOCK = 256 threads, and the traversal is bound by load latency, not by
// issue, so more resident warps hide more of it. Without the bound the compiler takes 112-122
// registers for advance_path (2 blocks, 16 warps per SM); with 4 blocks it fits 64 registers (32
// warps per SM), and its spills (read with nvdisasm, sm_90) sit outside the traversal loops: the
// ray counters and path state that live across a whole trace. Run 13 timed 2, 3 and 4 blocks per
// SM over the 4-wide tree: 2,053 / 2,276 / 2,397 MRays/s (benchmarks/results/
// 2026-11-29-h200-run13-mesh-ab.json); 4 is the most that 64 registers allow at 256 threads.
// The atomics here are all on global memory, but this file keeps the generic spelling of gq/arch.cuh
// (no GQ_ATOMICS_GLOBAL): with .global the tile renderer was 1-2 % slower on spheres100 (H200, runs
// 270 and 271: G-LFQ 11.83-11.91 against 12.00-12.04 G rays/s in alternating rounds), its code
// laid out differently, where the queue benchmark gained.
//
// The tile queues are views made afresh for every operation (rt/tile_queues.h), which never draw
// blind tickets. G-WFQ's are built without their code (gq/wave_faa.cuh), which its tile kernel
// carried in spills: spheres100 10.0-10.1 -> 10.6 G rays/s (H200, runs 320-321, cornell within
// its noise). G-LFQ's keep it: built without, its tile kernel ran 1.5 % slower on spheres100
// (run 321: 12.20-12.23 against 12.40 G rays/s), its code laid out differently.
#if GQ_QUEUE_KIND == 3
#define GQ_BLIND_TICKETS 0
#endif
#include <rt/compaction.h>
#include <rt/pixel_order.h>
#include <rt/render_args.h>
#include <rt/tile_queues_blocking.h>

// RT_MIN_BLOCKS: a measuring aid for tools/gpu_render_probe.py (more blocks, fewer registers).
// Runs 115-116, cornell / spheres100: compaction at 5 blocks 0.84 -> 0.86 / 2.67 -> 3.01 ms; the
// G-LFQ tile renderer (2x2) at 6 blocks 1.24 -> 1.39 / 5.00 -> 4.66 ms: a gain on one scene only.
#ifndef RT_MIN_BLOCKS
#define RT_MIN_BLOCKS 4
#endif
constexpr int kMinBlocks = RT_MIN_BLOCKS;

// The tile renderer traces from a copy of the scene in its block's shared memory when the host
// gives the block room for one (raytrace/cuda_render.py: shared_scene_floats). Why: every acquire
// and fence of the queue layer compiles to a CCTL.IVALL, which empties the SM's L1 data cache
// (ordinary and read-only-path lines alike; local memory and shared memory are spared), and a
// warp's chained loads from L1 ran 15x slower while two warps of each block made acquire loads
// (tools/gpu_l1_invalidate_probe.py, run 135). So the queue operations of some warps cost the
// tracers of the same SM their cached scene; shared memory is no cache and keeps it. Runs 136-138,
// G-LFQ 2x2: spheres100 5.05 -> 4.49, 5.02 -> 4.52 and 5.06 -> 4.44 ms, cornell 1.29 -> 1.17,
// 1.26 -> 1.20 and 1.28 -> 1.17 (ncu, run 139: the kernel's L1 load misses 42 -> 20 M).
// The compaction kernel makes no acquires while it traces and keeps reading through L1 (with a
// copy it was 1-6 % slower, runs 136-137). RT_SCENE_SHARED=0 (a measuring aid for
// tools/gpu_render_probe.py) ignores the room.
#ifndef RT_SCENE_SHARED
#define RT_SCENE_SHARED 1
#endif

// Called by every thread of the block (it synchronises the block). With `room` words of dynamic
// shared memory at `buf` and a scene that fits (no triangles: meshes keep their own hierarchy in
// global memory), returns p with the scene's arrays moved there; otherwise p unchanged. The layout
// is the host's (shared_scene_floats): primitives, nodes, the material rows the primitives name,
// lights, the BVH's leaf index (every bounded primitive once), the unbounded primitives.
__device__ rt::RenderParams scene_in_shared(rt::RenderParams p, float* buf, uint32_t room) {
  rt::SceneView& s = p.scene;
  if (!RT_SCENE_SHARED || room == 0 || s.mesh.ntris != 0) return p;
  const uint32_t nindex = s.bvh.nnodes ? s.nprims - s.bvh.nunbounded : 0u;
  uint32_t sizes[6] = {s.nprims * rt::kPrimFloats, s.bvh.nnodes * 8u, 0u, s.nlights * 6u, nindex, s.bvh.nunbounded};
  for (uint32_t i = 0; i < s.nprims; ++i) {
    const uint32_t rows = (uint32_t)s.prims[i * rt::kPrimFloats + 1] + 1u;
    sizes[2] = 4u * rows > sizes[2] ? 4u * rows : sizes[2];
  }
  const float* from[6] = {s.prims, s.bvh.nodes, s.materials, s.lights, (const float*)s.bvh.index,
                          (const float*)s.bvh.unbounded};
  uint32_t total = 0;
  for (int k = 0; k < 6; ++k) total += sizes[k];
  if (total > room) return p;  // the host counted otherwise: trace from global memory
  float* to[6];
  for (uint32_t k = 0, at = 0; k < 6; at += sizes[k++]) {
    to[k] = buf + at;
    for (uint32_t i = threadIdx.x; i < sizes[k]; i += blockDim.x) to[k][i] = from[k][i];
  }
  __syncthreads();
  s.prims = to[0];
  s.bvh.nodes = to[1];
  s.materials = to[2];
  s.lights = to[3];
  s.bvh.index = (const uint32_t*)to[4];
  s.bvh.unbounded = (const uint32_t*)to[5];
  return p;
}

using rt::PathState;
using rt::RayCounts;
using rt::RenderParams;

__device__ __forceinline__ void store_counts(uint64_t* counts, uint32_t tid, const RayCounts& c) {
  counts[3 * (uint64_t)tid] += c.primary;
  counts[3 * (uint64_t)tid + 1] += c.reflection;
  counts[3 * (uint64_t)tid + 2] += c.shadow;
}

// The compaction baseline's first wave's count only, since its first wave makes each item's
// pixel and fresh state from the item index (rt/compaction.h) and writes every pixel's state
// itself: no list and no pool here. Under RT_FIRST_WAVE_FROM_INDEX=0 (the A/B of
// tools/gpu_render_ab.py) also the fresh paths and first list (every pixel, in work order). The
// tile renderer needs neither: its seeded items are marked fresh (rt::kFreshItem).
extern "C" __global__ void rt_paths_init(PathState* pool, uint32_t* list, uint64_t* count, uint32_t width,
                                         uint32_t height) {
  const uint64_t pixels = (uint64_t)width * height;
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  if (count && blockIdx.x == 0 && threadIdx.x == 0) *count = pixels;
  if (RT_FIRST_WAVE_FROM_INDEX && list) return;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += stride) {
    pool[i] = rt::fresh_path();
    if (list) list[i] = rt::blocked_pixel((uint32_t)i, width, height);
  }
}

// Items [0, n) of a wave, each to exactly one thread of the grid: each warp takes its next items
// from the wave's counter `next` (zero before the wave) by one WaveFAA, as the persistent threads
// of Aila and Laine (HPG 2009) fetch their rays. A warp that finishes early takes more, where a
// static grid-stride share leaves the SM whose warps drew the slow rays finishing last; and
// consecutive lanes still get consecutive items (the 8x4 blocks stay whole). Run 15 (rt/
// compaction.h): 2,415 -> 2,831 MRays/s alone on terrain1m's SAH tree. The counter only hands out
// indices; the list it indexes was written by an earlier launch: relaxed is enough.
// RT_WAVE_FETCH=0 (the A/B of tools/gpu_render_ab.py) is the static share instead: thread tid
// takes tid, tid + stride, ..., with no counter (one contended atomic per warp and item fewer).
#ifndef RT_WAVE_FETCH
#define RT_WAVE_FETCH 1
#endif

template <class Item>
__device__ __forceinline__ void wave_items(uint64_t n, uint64_t* next, uint32_t tid, uint64_t stride, Item item) {
#if RT_WAVE_FETCH
  (void)tid;
  (void)stride;
  for (;;) {
    const uint64_t i = gq::wave_faa<gq::mo::relaxed>(next);
    if (i >= n) return;
    item(i);
  }
#else
  (void)next;
  for (uint64_t i = tid; i < n; i += stride) item(i);
#endif
}

// RT_WAVE_EMPTY_EXIT=1 (default): a thread of a wave with an empty list leaves before its warp's
// fetch, and a thread that traced nothing stores no counts. The host launches the bound of
// spp * (max_depth + 1) waves with no round trip, and many of them are empty: cornell at 4 spp has
// 15 empty of 20 (spheres100 3 of 12). An empty wave was still one contended fetch-add per warp
// (4,224 warps: the grid is 4 blocks of 256 on each of 132 SMs) and a 24-byte read and write of
// `counts` per thread (6.5 MB), besides the launch. Run 409 (H100, launch gate on): cornell's
// render 0.714 -> 0.660 ms, spheres100's 2.638 -> 2.63. 0 is the old wave (raytrace/
// compaction_variants.py "empty_waves_work", for tools/gpu_render_ab.py).
#ifndef RT_WAVE_EMPTY_EXIT
#define RT_WAVE_EMPTY_EXIT 1
#endif

// One wave of the compaction baseline over the wave's list. The wave also clears the counter the
// wave after next appends to (three counters rotate; no host round trip). `first` is nonzero for
// the render's first wave, which reads no list and no state (under RT_FIRST_WAVE_FROM_INDEX);
// `next` is this wave's own zeroed fetch counter (read under RT_WAVE_FETCH).
extern "C" __global__ void __launch_bounds__(256, kMinBlocks)
    rt_wave(RT_SCENE_ARGS, PathState* pool, const uint32_t* in_list, const uint64_t* in_count, uint32_t* out_list,
            uint64_t* out_count, uint64_t* clear_count, uint64_t* samples_done, uint64_t* counts, uint32_t first,
            uint64_t* next) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  if (tid == 0) *clear_count = 0;
  const rt::WaveLists w{in_list, in_count, out_list, out_count};
  const uint64_t n = *in_count;
#if RT_WAVE_EMPTY_EXIT
  if (n == 0) return;  // the same n for every thread of the wave
#endif
  RayCounts c{0, 0, 0};
  const bool from_index = RT_FIRST_WAVE_FROM_INDEX && first != 0;
  wave_items(n, next, tid, stride, [&](uint64_t i) { rt::wave_item(p, pool, w, i, samples_done, c, from_index); });
#if RT_WAVE_EMPTY_EXIT
  if ((c.primary | c.reflection | c.shadow) == 0) return;  // adding zeros changes nothing
#endif
  store_counts(counts, tid, c);
}

// The tile renderer's warps for `threads` workers, and their queue users: a warp's lanes of rank
// below rt::kRoundUsers each make one of its queue phase's operations.
__device__ __forceinline__ uint32_t tile_warps(uint64_t threads) { return (uint32_t)((threads + 31u) / 32u); }
__device__ __forceinline__ uint64_t tile_users(uint64_t threads) {
  return (uint64_t)tile_warps(threads) * rt::kRoundUsers;
}

// The threads that seed the queues built empty (every kind but G-LFQ, G-WFQ and SFQ, whose queues
// rt_tiles_init builds holding their blocks in block order: rt::kSeedByFill): RT_SEEDERS_PER_WARP
// a worker warp (no more than its queue users, rt::kRoundUsers), each queue user 0, 1, ... The
// count sets the order in which a tile's blocks enter its queue, and so the order the workers take
// them in: seeder s enqueues blocks s, s + seeders, ..., so the image's blocks go in, in bands of
// `seeders` blocks, top to bottom, each band in whatever order the seeders' enqueues land. Bands as
// large as half the image (8 a warp, 33,792 seeders on the H200) cost cornell's persistent kernel
// 9 % against 4 a warp, and 1 a warp gained nothing over 4 but seeded 3x slower (run 156, 11
// renders a row, twice over: cornell's persistent kernel 0.93 / 0.85 / 0.86 ms, spheres100's 3.06 /
// 3.04 / 3.03 ms, seeding 0.04 / 0.055 / 0.16 ms). Why the order matters so much to cornell is not
// known.
#ifndef RT_SEEDERS_PER_WARP
#define RT_SEEDERS_PER_WARP 4
#endif
static_assert(RT_SEEDERS_PER_WARP >= 1, "a seeder a warp at least");
constexpr uint32_t kSeedersPerWarp = RT_SEEDERS_PER_WARP < rt::kRoundUsers ? RT_SEEDERS_PER_WARP : rt::kRoundUsers;
__device__ __forceinline__ uint64_t tile_seeders(uint64_t threads) {
  return (uint64_t)tile_warps(threads) * kSeedersPerWarp;
}

// The tile queues for `threads` workers, whose tiles own at most `blocks` blocks each: out[0] =
// their queue users, out[1] = the words of one queue, out[2] = the seeding threads, out[3] = 1 if
// rt_tiles_init builds the queues holding their blocks (rt::kSeedByFill; then there is no
// rt_tiles_seed to launch), out[4] = a queue's capacity (rt::tile_queue_capacity: `blocks`, or
// for a blocking kind every ticket a render of `spp` samples and `max_depth` bounces can draw).
extern "C" __global__ void rt_tile_layout(uint64_t blocks, uint64_t threads, uint32_t spp, uint32_t max_depth,
                                          uint64_t* out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const uint64_t capacity = rt::tile_queue_capacity(blocks, spp, max_depth, tile_warps(threads));
  out[0] = tile_users(threads);
  out[1] = gq::Queue::words(capacity, tile_users(threads));
  out[2] = tile_seeders(threads);
  out[3] = rt::kSeedByFill ? 1u : 0u;
  out[4] = capacity;
}

// The tile queues, tiles * stride words (rt::build_tile_queues: filled under rt::kSeedByFill, with
// the masks; else empty).
extern "C" __global__ void rt_tiles_init(uint64_t* base, uint64_t stride, uint64_t capacity, uint64_t users,
                                         uint32_t width, uint32_t height, uint32_t tiles_x, uint32_t tiles_y,
                                         uint32_t* masks) {
  rt::build_tile_queues(rt::TileGrid{width, height, tiles_x, tiles_y}, rt::TileQueues{base, stride, capacity, users},
                        masks, (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, (uint64_t)gridDim.x * blockDim.x);
}

// Every block's lanes into `masks`, and the block into its tile's queue, fresh (rt::kFreshItem).
// Thread i is queue user i, one of `seeders` (rt_tile_layout's out[2], at most the queues' users);
// the threads past them take no part.
extern "C" __global__ void rt_tiles_seed(uint64_t* base, uint64_t stride, uint64_t capacity, uint64_t users,
                                         uint64_t seeders_wanted, uint32_t width, uint32_t height, uint32_t tiles_x,
                                         uint32_t tiles_y, uint32_t* masks, uint32_t* err_words) {
  const rt::TileGrid g{width, height, tiles_x, tiles_y};
  const rt::TileQueues tq{base, stride, capacity, users};
  const uint32_t blocks = g.blocks().count();
  const uint32_t grid = gridDim.x * blockDim.x;
  const uint64_t most = seeders_wanted < users ? seeders_wanted : users;
  const uint32_t seeders = most < grid ? (uint32_t)most : grid;
  const uint32_t user = blockIdx.x * blockDim.x + threadIdx.x;
  if (user >= seeders) return;
  const gq::ErrorFlag err{err_words};
  for (uint32_t b = user; b < blocks; b += seeders) rt::seed_tile_block(g, tq, masks, b, user, err);
}

// The persistent workers: warp w's lane of rank r < rt::kRoundUsers is queue user
// w * kRoundUsers + r (rt_tile_layout's count). `scene_room`: the words of dynamic shared memory
// the launch gave each block for the scene (scene_in_shared; 0: none).
extern "C" __global__ void __launch_bounds__(256, kMinBlocks)
    rt_tiles(RT_SCENE_ARGS, PathState* pool, uint32_t* masks, uint64_t* base, uint64_t stride, uint64_t capacity,
             uint32_t nthreads, uint32_t tiles_x, uint32_t tiles_y, uint64_t* samples_done, uint64_t* counts,
             uint32_t* err_words, uint32_t scene_room) {
  extern __shared__ float scene_copy[];
  const RenderParams p = scene_in_shared(rt::make_params(RT_SCENE_PASS), scene_copy, scene_room);
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  // Blocks are whole warps, all converged at entry; the lanes past nthreads leave here.
  const uint32_t members = gq::ballot(0xFFFFFFFFu, tid < nthreads);
  if (tid >= nthreads) return;
  const rt::TileGrid g{width, height, tiles_x, tiles_y};
  const rt::TileQueues tq{base, stride, capacity, tile_users(nthreads)};
  RayCounts c{0, 0, 0};
  rt::tile_work(p, pool, masks, g, tq, blockIdx.x % g.count(), tid, tid / 32u * rt::kRoundUsers, members,
                tile_warps(nthreads), (uint64_t)width * height * spp, samples_done, c, gq::ErrorFlag{err_words});
  store_counts(counts, tid, c);
}

// First hits, one per pixel centre, with the path kernels' launch bound and pixel order: the
// traversal alone, the ceiling the path kernels are measured against (tools/gpu_mesh_bench.py).
extern "C" __global__ void __launch_bounds__(256, kMinBlocks)
    rt_aov(RT_SCENE_ARGS, float* depth, float* normal, int32_t* id, int32_t* face) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint64_t pixels = (uint64_t)width * height;
  const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += step)
    rt::first_hit_aov(p, rt::blocked_pixel((uint32_t)i, width, height), depth, normal, id, face);
}

// The launch gate (raytrace/cuda_render.py, _LaunchGate; on unless GQ_LAUNCH_GATE=0): one thread
// that holds the stream until the host has enqueued a render's launches and set gate[0], so that
// the render's CUDA events time the GPU running them back to back, not the host's thread
// enqueueing them. Why: the compaction baseline is 21 launches on cornell, most of them short, and
// with another Python thread holding the interpreter its measured time went 0.77 -> 110-120 ms
// (H100, run 407); under `gq bench render` it ran 14.8-16.1 G rays/s against 18.3 G timed alone
// (runs 405-406). With the gate (run 409): 0.66 ms alone and with the busy thread alike. Bounded:
// after `budget_ns` it lets the stream go and sets gate[1] (the host then says the time may
// include its own delays).
extern "C" __global__ void rt_launch_gate(volatile uint32_t* gate, uint64_t budget_ns) {
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (gate[0] == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > budget_ns) {
      gate[1] = 1;
      return;
    }
    __nanosleep(2000);
  }
}
