"""Run 283: what in grid.h's barrier costs against a bare arrival counter (runs/, a probe).
  python3 runs/barrier_ab.py OUT.jsonl
Variants (one kernel each, same loop): V0 grid.h's sync(); V1 without the error read after the
wait; V2 also without the verdict (thread 0 waits, __syncthreads); V3 V2 spelt as CUDA's
grid.sync() (volatile poll, __threadfence); CG: cooperative_groups' grid.sync() itself.
Work between barriers: none, or 'st' (each warp's lane 0 stores to its own word: the fence then
has a store to wait for, as a BFS level's has)."""
import json, statistics, sys
from pathlib import Path
import numpy as np
import cupy

ROOT = Path(__file__).resolve().parent.parent
SRC = r'''
#include <sssp/grid.h>
#if defined(USE_CG)
#include <cooperative_groups.h>
#endif
using namespace sssp;

__device__ __forceinline__ bool sync_v1(const Grid& g) {  // grid.h's, no error read after the wait
  g.block_sync();
  if (g.thread == 0) {
    gq::fence<gq::mo::acq_rel>();
    uint64_t* word = g.bar_word();
    const uint64_t add = g.block == 0 ? (uint64_t)(kBarFlip - (g.blocks - 1u)) : 1ull;
    const uint64_t was = gq::fetch_add<gq::mo::relaxed>(word, add);
    const uint32_t before = (uint32_t)was & kBarFlip;
    uint64_t now = was + add;
    if (((uint32_t)now & kBarFlip) == before) {
      gq::Spin spin(SSSP_BARRIER_BUDGET / 4u);
      for (uint32_t polls = 1;; ++polls) {
        if (((uint32_t)(now = gq::load<gq::mo::relaxed>(word)) & kBarFlip) != before) break;
        if (polls % kBarPollBurst) continue;
        if (!spin.step(g.err, gq::kSiteGridBarrier, was)) break;
      }
    }
    gq::fence<gq::mo::acq_rel>();
    const bool flipped = ((uint32_t)now & kBarFlip) != before;
    const uint32_t parity = ((uint32_t)now & kBarFlip) ? 1u : 0u;
    const bool stop = flipped && ((now >> (kBarStopShift + parity)) & 1ull) != 0ull;
    *g.verdict = flipped && !stop;
  }
  g.block_sync();
  return *g.verdict != 0u;
}

__device__ __forceinline__ bool sync_v2(const Grid& g) {  // no verdict
  g.block_sync();
  if (g.thread == 0) {
    gq::fence<gq::mo::acq_rel>();
    uint64_t* word = g.bar_word();
    const uint64_t add = g.block == 0 ? (uint64_t)(kBarFlip - (g.blocks - 1u)) : 1ull;
    const uint64_t was = gq::fetch_add<gq::mo::relaxed>(word, add);
    const uint32_t before = (uint32_t)was & kBarFlip;
    if ((((uint32_t)(was + add)) & kBarFlip) == before)
      for (uint32_t polls = 0; polls < (1u << 22); ++polls)
        if (((uint32_t)gq::load<gq::mo::relaxed>(word) & kBarFlip) != before) break;
    gq::fence<gq::mo::acq_rel>();
  }
  g.block_sync();
  return true;
}

__device__ __forceinline__ bool sync_v3(const Grid& g) {  // as CUDA's grid.sync() spells it
  __syncthreads();
  if (g.thread == 0) {
    volatile uint32_t* word = (volatile uint32_t*)g.ctl;
    const uint32_t add = g.block == 0 ? kBarFlip - (g.blocks - 1u) : 1u;
    __threadfence();
    const uint32_t was = atomicAdd((uint32_t*)g.ctl, add);
    for (uint32_t polls = 0; polls < (1u << 22); ++polls)
      if (((was ^ *word) & kBarFlip) != 0u) break;
    __threadfence();
  }
  __syncthreads();
  return true;
}

extern "C" __global__ void __launch_bounds__(1024) bar(uint32_t rounds, uint32_t work, uint32_t* ctl, uint32_t* err_words,
                                                       uint32_t* sink) {
  __shared__ uint32_t verdict;
  const Grid g{blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, ctl, &verdict, gq::ErrorFlag{err_words}};
  const uint32_t warp = g.rank() / 32u;
  for (uint32_t r = 0; r < rounds; ++r) {
    if (work && (threadIdx.x & 31u) == 0u) gq::store<gq::mo::relaxed>(sink + warp * 32u, r);
#if VARIANT == 0
    if (!g.sync()) return;
#elif VARIANT == 1
    if (!sync_v1(g)) return;
#elif VARIANT == 2
    sync_v2(g);
#elif VARIANT == 3
    sync_v3(g);
#elif VARIANT == 4
    cooperative_groups::this_grid().sync();
#endif
  }
}
'''

def main(out):
    dev = cupy.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    inc = [f"-I{ROOT / 'queues_cuda' / 'include'}", f"-I{ROOT / 'sssp_demo' / 'include'}"]
    rounds = 20000
    for variant, name in ((0, "V0"), (1, "V1"), (2, "V2"), (3, "V3"), (4, "CG")):
        opts = ("-std=c++17", *inc, f"-DVARIANT={variant}") + (("-DUSE_CG",) if variant == 4 else ())
        try:
            fn = cupy.RawModule(code=SRC, options=opts, backend="nvrtc").get_function("bar")
        except Exception as e:
            print(name, "compile failed:", str(e)[:300]); continue
        for width, per_sm in ((256, 1), (256, 2), (512, 1)):
            blocks = sms * per_sm
            for work in (0, 1):
                ts = []
                for rep in range(4):
                    ctl = cupy.zeros(16, cupy.uint32); err = cupy.zeros(4, cupy.uint32)
                    sink = cupy.zeros(blocks * width, cupy.uint32)
                    a, b = cupy.cuda.Event(), cupy.cuda.Event()
                    a.record()
                    args = (np.uint32(rounds if rep else 100), np.uint32(work), ctl, err, sink)
                    if variant == 4:
                        fn((blocks,), (width,), args, enable_cooperative_groups=True)
                    else:
                        fn((blocks,), (width,), args)
                    b.record(); b.synchronize()
                    if int(err.get()[0]): raise RuntimeError(f"{name} error {err.get()}")
                    if rep: ts.append(cupy.cuda.get_elapsed_time(a, b) * 1e3 / rounds)
                us = statistics.median(ts)
                row = dict(variant=name, width=width, per_sm=per_sm, blocks=blocks, work=work, us_per_barrier=us)
                print(f"{name} {width}x{per_sm} work={work} {us:.3f} us", flush=True)
                with open(out, "a") as f: f.write(json.dumps(row) + "\n")

if __name__ == "__main__":
    main(sys.argv[1])
