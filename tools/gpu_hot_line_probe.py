"""How fast one hot 128-byte line serves requests on this GPU, and whether that, rather than the
number of atomics, is what bounds a ring queue's throughput (a measuring aid for issue 6):

    python3 tools/gpu_hot_line_probe.py [OUT.json]

Every warp repeats ITERS times what a FAA ring's enqueue does, with one thing changed a row:

  faa+xchg           the leader fetch-adds 32 on counter line C; every lane exchanges its own
                     slot (the ideal ring's enqueue: one request on C a warp operation)
  load C x K + ...   first the leader loads C K times (the results feed the fetch-add, as a ticket
                     claim's reads of Head and Tail feed its fetch-add): 1 + K requests on C
  load D x K + ...   the same K loads, of K other lines: still one request on C
  faa only           the fetch-add alone, no slot exchange
  load C only        the leader loads C (no fetch-add); every lane exchanges its slot

Model under test: a line serves about R requests a second whatever their kind, so a warp
operation that makes q requests on its busiest line runs at most R / q a second. If so, the
"load C" rows fall as 1 / (1 + K) and the "load D" rows do not fall. Prints a table of warp
operations and lane operations a second, and requests a second on C, at 2^14, 2^16 and 2^18
threads (blocks of 256), each the median of 3 timed launches after a warm-up.

What it found on the H200 (run 128, benchmarks/results/README.md): the model holds for other
lines (their loads cost C nothing) but not for C itself: one load in front of each fetch-add cut
C's rate 2.7x, not 2x, while loads alone on C ran at 5.6 G a second. On a line that is being
fetch-added, a read costs about what the fetch-add does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from launch_timing import us_per_round

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from queues_cuda.provenance import provenance  # noqa: E402

# Relaxed GPU-scope accesses in inline PTX, as the queues make them (no fences, no libcu++);
# tools/gpu_counter_lines_probe.py uses them too.
RELAXED_ACCESSES = r"""
typedef unsigned long long u64;
__device__ __forceinline__ u64 ld_relaxed(const u64* p) {
  u64 v; asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ u64 faa_relaxed(u64* p, u64 v) {
  u64 r; asm volatile("atom.relaxed.gpu.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory"); return r;
}
__device__ __forceinline__ u64 xchg_relaxed(u64* p, u64 v) {
  u64 r; asm volatile("atom.relaxed.gpu.exch.b64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory"); return r;
}
"""

SOURCE = RELAXED_ACCESSES + r"""
// lines: line 0 is C, lines 1..K are the D lines (16 words apart: one 128-byte line each).
// slots: 2^20 words, a lane's slot follows its ticket as in the ideal ring.
extern "C" __global__ void probe(u64* lines, u64* slots, unsigned iters, u64* sink) {
  const unsigned lane = threadIdx.x & 31u;
  const u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  u64 acc = 0;
  for (unsigned i = 0; i < iters; ++i) {
    u64 base = 0;
    if (lane == 0) {
      u64 seen = 0;
#pragma unroll
      for (int k = 0; k < K; ++k) seen += ld_relaxed(lines + (LOAD_OTHER ? 16 * (k + 1) : 0));
      if (DO_FAA) base = faa_relaxed(lines, 32ull + (seen == ~0ull));  // the reads feed the add
      else base = (warp * iters + i) * 32ull + (seen == ~0ull);
    }
    base = __shfl_sync(0xFFFFFFFFu, base, 0);
    if (DO_XCHG) acc += xchg_relaxed(slots + ((base + lane) & ((1u << 20) - 1u)), base);
    else acc += base;
  }
  if (acc == 0x5a5a5a5a5a5a5a5aull) *sink = acc;  // keeps the work; never true in practice
}
"""

# (label, K, LOAD_OTHER, DO_FAA, DO_XCHG, requests on C a warp operation)
ROWS = [
    ("faa+xchg", 0, 0, 1, 1, 1),
    ("load C x1 + faa+xchg", 1, 0, 1, 1, 2),
    ("load C x2 + faa+xchg", 2, 0, 1, 1, 3),
    ("load C x3 + faa+xchg", 3, 0, 1, 1, 4),
    ("load D x2 + faa+xchg", 2, 1, 1, 1, 1),
    ("load D x3 + faa+xchg", 3, 1, 1, 1, 1),
    ("faa only", 0, 0, 1, 0, 1),
    ("load C only + xchg", 1, 0, 0, 1, 1),
]
THREADS = (1 << 14, 1 << 16, 1 << 18)
ITERS = 2000


def main() -> None:
    import cupy

    lines = cupy.zeros(16 * 8, dtype=cupy.uint64)
    slots = cupy.zeros(1 << 20, dtype=cupy.uint64)
    sink = cupy.zeros(1, dtype=cupy.uint64)
    out = []
    print(f"{'row':<24} {'threads':>8} {'us/iter':>8} {'G warp-ops/s':>13} {'G lane-ops/s':>13} {'G req/s on C':>13}")
    for label, k, other, faa, xchg, req in ROWS:
        opts = ("-std=c++17", f"-DK={k}", f"-DLOAD_OTHER={other}", f"-DDO_FAA={faa}", f"-DDO_XCHG={xchg}")
        fn = cupy.RawModule(code=SOURCE, options=opts).get_function("probe")
        for threads in THREADS:
            us = us_per_round(fn, (threads // 256,), (256,), (lines, slots, cupy.uint32(ITERS), sink), ITERS)
            warp_ops = threads / 32 / (us * 1e-6)
            row = dict(row=label, threads=threads, us_per_iter=us, warp_ops_per_s=warp_ops,
                       lane_ops_per_s=warp_ops * 32, requests_on_c_per_s=warp_ops * req, requests_on_c=req)
            out.append(row)
            print(f"{label:<24} {threads:>8} {us:>8.3f} {warp_ops / 1e9:>13.3f} {warp_ops * 32 / 1e9:>13.2f} "
                  f"{warp_ops * req / 1e9:>13.3f}")
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            json.dump(dict(provenance(), iters=ITERS, rows=out), f, indent=1)


if __name__ == "__main__":
    main()
