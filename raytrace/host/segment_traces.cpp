// host/segment_traces.cpp — what each path segment of a render costs, counted on the host: for
// every pixel, sample and segment, the rays advance_path (rt/whitted.h) traces for it (the
// segment's own ray plus its shadow rays). raytrace/wave_schedule.py replays the compaction
// renderer's wave schedules (rt/compaction.h) over these counts.
#include <rt/render_args.h>

#include <thread>
#include <vector>

extern "C" {

// out[(pixel * spp + sample) * (max_depth + 1) + k]: 1 + the shadow rays of segment k of the
// sample, or 0 when the sample ended before segment k. Pixels in row order; each pixel runs its
// samples in order from a fresh state, as every renderer does.
void rt_segment_traces(RT_SCENE_ARGS, uint32_t nthreads, uint16_t* out) {
  const rt::RenderParams p = rt::make_params(RT_SCENE_PASS);
  const uint64_t pixels = (uint64_t)width * height;
  const uint32_t segments = max_depth + 1;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < nthreads; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t px = t; px < pixels; px += nthreads) {
        rt::PathState st = rt::fresh_path();
        for (uint32_t s = 0; s < spp; ++s) {
          uint16_t* row = out + (px * spp + s) * segments;
          uint32_t k = 0;
          rt::Next next;
          do {
            rt::RayCounts c{0, 0, 0};
            next = rt::advance_path(p, st, (uint32_t)px, c);
            row[k++] = (uint16_t)(1 + c.shadow);  // the caller keeps nlights below 65535
          } while (next == rt::kReflect);
          for (; k < segments; ++k) row[k] = 0;
        }
      }
    });
  for (auto& th : threads) th.join();
}

}  // extern "C"
