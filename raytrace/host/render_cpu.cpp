// host/render_cpu.cpp — the CPU backend of the renderers: the same headers as kernels/render.cu,
// run by std::threads over the CPU build of the queue layer. A small C ABI for ctypes; the
// renderers return 0 or the error code of the flag (whose four words the caller reads).
#if GQ_QUEUE_KIND == 3  // G-WFQ's tile queues without blind tickets, as kernels/render.cu, which says why
#define GQ_BLIND_TICKETS 0
#endif
#include <rt/compaction.h>
#include <rt/render_args.h>
#include <rt/tile_queues_blocking.h>

#include <thread>
#include <vector>

using rt::PathState;
using rt::RayCounts;
using rt::RenderParams;

namespace {

template <class Body>
void run_threads(uint32_t nthreads, Body body) {
  std::vector<std::thread> threads;
  threads.reserve(nthreads);
  for (uint32_t tid = 0; tid < nthreads; ++tid) threads.emplace_back([&, tid] { body(tid); });
  for (auto& t : threads) t.join();
}

void add_counts(uint64_t* counts, const RayCounts& c) {
  gq::fetch_add<gq::mo::relaxed>(counts, c.primary);
  gq::fetch_add<gq::mo::relaxed>(counts + 1, c.reflection);
  gq::fetch_add<gq::mo::relaxed>(counts + 2, c.shadow);
}

}  // namespace

extern "C" {

int rt_abi_version() { return 3; }

uint64_t rt_queue_words(uint64_t capacity, uint64_t threads) { return gq::Queue::words(capacity, threads); }

// rt::tile_queue_capacity for `workers` one-thread workers (kernels/render.cu's rt_tile_layout).
uint64_t rt_tile_capacity(uint64_t blocks, uint32_t spp, uint32_t max_depth, uint64_t workers) {
  return rt::tile_queue_capacity(blocks, spp, max_depth, workers);
}

// rt::build_tile_queues for `users` queue users into `out` (tiles * stride words) and `masks`
// (tests/raytrace/test_tile_fill.py holds rt_tiles_init's words against these).
void rt_tile_queue_words(uint32_t width, uint32_t height, uint32_t tiles_x, uint32_t tiles_y, uint64_t stride,
                         uint64_t capacity, uint64_t users, uint64_t* out, uint32_t* masks) {
  rt::build_tile_queues(rt::TileGrid{width, height, tiles_x, tiles_y}, rt::TileQueues{out, stride, capacity, users},
                        masks, 0, 1);
}

// Tile t's blocks in the order the filled queues hold them (rt::TileGrid::tile_block), all tiles
// in turn, into `out` (one entry a block); returns how many were written
// (tests/raytrace/test_tile_fill.py).
uint32_t rt_tile_order(uint32_t width, uint32_t height, uint32_t tiles_x, uint32_t tiles_y, uint32_t* out) {
  const rt::TileGrid g{width, height, tiles_x, tiles_y};
  uint32_t n = 0;
  for (uint32_t t = 0; t < g.count(); ++t)
    for (uint32_t j = 0; j < g.tile_blocks(t); ++j) out[n++] = g.tile_block(t, j);
  return n;
}

// The compaction baseline: waves until no path has work left. Within a wave the threads take
// chunks of the list; survivors are appended to the next list (fetch-add: a one-lane WaveFAA).
// The first wave reads no list and no state (rt/compaction.h): nothing to initialise, except
// under RT_FIRST_WAVE_FROM_INDEX=0, where the first list and every fresh state are written here.
uint32_t rt_cpu_compaction(RT_SCENE_ARGS, PathState* pool, uint32_t* list_a, uint32_t* list_b, uint32_t nthreads,
                           uint64_t* samples_done, uint64_t* counts) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint64_t pixels = (uint64_t)width * height;
  if (!RT_FIRST_WAVE_FROM_INDEX) {
    for (uint64_t i = 0; i < pixels; ++i) {
      pool[i] = rt::fresh_path();
      list_a[i] = (uint32_t)i;
    }
  }
  bool first = true;
  uint64_t in_count = pixels;
  uint32_t* in = list_a;
  uint32_t* out = list_b;
  constexpr uint64_t kChunk = 256;
  while (in_count > 0) {
    uint64_t out_count = 0, next = 0;
    const rt::WaveLists w{in, &in_count, out, &out_count};
    run_threads(nthreads, [&](uint32_t) {
      RayCounts c{0, 0, 0};
      for (;;) {
        const uint64_t start = gq::fetch_add<gq::mo::relaxed>(&next, kChunk);
        if (start >= in_count) break;
        const uint64_t end = start + kChunk < in_count ? start + kChunk : in_count;
        for (uint64_t i = start; i < end; ++i)
          rt::wave_item(p, pool, w, i, samples_done, c, RT_FIRST_WAVE_FROM_INDEX && first);
      }
      add_counts(counts, c);
    });
    first = false;
    in_count = out_count;
    uint32_t* t = in;
    in = out;
    out = t;
  }
  return 0;
}

// The tile-queue renderer on `nthreads` workers, each its own queue user (a one-lane warp);
// `queues` holds tiles * stride words, `masks` one word per 8x4 block (rt/tile_queues.h).
uint32_t rt_cpu_tiles(RT_SCENE_ARGS, PathState* pool, uint32_t* masks, uint64_t* queues, uint64_t stride,
                      uint64_t capacity, uint32_t nthreads, uint32_t tiles_x, uint32_t tiles_y, uint64_t* samples_done,
                      uint64_t* counts, uint32_t* err_words) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const rt::TileGrid g{width, height, tiles_x, tiles_y};
  const rt::TileQueues tq{queues, stride, capacity, nthreads};
  const gq::ErrorFlag err{err_words};
  // Fresh items: no pool entry is read before a worker writes it (rt::kFreshItem). The queues are
  // built holding their blocks where the kind allows (rt::kSeedByFill), as on the GPU; otherwise
  // the seeding enqueues them and writes their masks.
  rt::build_tile_queues(g, tq, masks, 0, 1);
  if (!rt::kSeedByFill)
    for (uint32_t b = 0; b < g.blocks().count(); ++b) rt::seed_tile_block(g, tq, masks, b, b % nthreads, err);
  if (err.raised()) return gq::load<gq::mo::acquire>(err_words);
  run_threads(nthreads, [&](uint32_t tid) {
    RayCounts c{0, 0, 0};
    // Workers spread over the tiles as GPU blocks do.
    rt::tile_work(p, pool, masks, g, tq, (uint32_t)((uint64_t)tid * g.count() / nthreads), tid, tid, 1u, nthreads,
                  (uint64_t)width * height * spp, samples_done, c, err);
    add_counts(counts, c);
  });
  return gq::load<gq::mo::acquire>(err_words);
}

void rt_cpu_aov(RT_SCENE_ARGS, uint32_t nthreads, float* depth, float* normal, int32_t* id, int32_t* face) {
  const RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint64_t pixels = (uint64_t)width * height;
  run_threads(nthreads, [&](uint32_t tid) {
    for (uint64_t i = tid; i < pixels; i += nthreads) rt::first_hit_aov(p, (uint32_t)i, depth, normal, id, face);
  });
}

}  // extern "C"
