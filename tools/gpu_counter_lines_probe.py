"""Whether two hot counter lines are served apart or share one server, by how far apart they lie
(a measuring aid for issue 6):

    python3 tools/gpu_counter_lines_probe.py [OUT.json]

Run 128 (tools/gpu_hot_line_probe.py) found that one 128-byte line serves about 1.3 G warp
fetch-adds a second, and that the ideal ring's balanced kernel, which fetch-adds two counter lines
(Tail, then Head, 128 bytes apart), runs each of them at only 0.57 G: 1.14 G together, about one
line's rate. Either the two lines share whatever serves them (an L2 slice picked by a hash of the
address), or a warp's two dependent fetch-adds simply take twice as long. This probe tells the two
apart by moving the second line away from the first, `d` bytes on:

  chain N    every warp fetch-adds counters 0, 1, ..., N-1 in turn, each followed by a slot
             exchange a lane (the ideal ring's balanced kernel is chain 2 at d = 128)
  spread N   warp w fetch-adds only counter w mod N, once an iteration (no chain)

Counter k lies k * d bytes after counter 0. If lines at some distances are served apart, "spread
2" there runs near 2x "spread 1" and "chain 2" rises with it. Prints warp fetch-adds a second in
all, at 2^18 threads (blocks of 256), the median of 3 timed launches after a warm-up.

What it found on the H200 (runs 164-165, benchmarks/results/README.md): two lines 128, 512 or 640
bytes apart share one server (1.1-1.3 G together), lines 256, 384 or 768 bytes and more apart do
not (2.3 G); four lines reach 4.1 G from 2 KB apart, and 8 to 64 lines about 6 G in all. Hence
arch.cuh's kHotStride: a queue's hot words 4 KB apart (the ideal ring 36.4 -> 81 G ops/s).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gpu_hot_line_probe import RELAXED_ACCESSES
from launch_timing import us_per_round

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from queues_cuda.provenance import provenance  # noqa: E402

SOURCE = RELAXED_ACCESSES + r"""
// Counter k is lines[k * stride]. slots: 2^20 words, a lane's slot follows its ticket.
extern "C" __global__ void probe(u64* lines, unsigned long long stride, unsigned n, unsigned spread,
                                 u64* slots, unsigned iters, u64* sink) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  u64 acc = 0;
  for (unsigned i = 0; i < iters; ++i) {
    for (unsigned c = 0; c < (spread ? 1u : n); ++c) {
      const unsigned k = spread ? warp % n : c;
      u64 base = 0;
      if (lane == 0) base = faa_relaxed(lines + k * stride, 32ull);
      base = __shfl_sync(0xFFFFFFFFu, base, 0);
      acc += xchg_relaxed(slots + ((base + lane + (u64)k * 4096u) & ((1u << 20) - 1u)), base);
    }
  }
  if (acc == 0x5a5a5a5a5a5a5a5aull) *sink = acc;  // keeps the work; never true in practice
}
"""

THREADS = 1 << 18
ITERS = 1000
# Distances in bytes: every 128-byte line up to 4 KB, then powers of two up to 32 MB.
DISTANCES = [128 * k for k in range(1, 33)] + [1 << p for p in range(13, 26)]


def main() -> None:
    import cupy

    span = max(4 * max(DISTANCES), 64 * 8192) // 8 + 16
    lines = cupy.zeros(span, dtype=cupy.uint64)
    slots = cupy.zeros(1 << 20, dtype=cupy.uint64)
    sink = cupy.zeros(1, dtype=cupy.uint64)
    fn = cupy.RawModule(code=SOURCE, options=("-std=c++17",)).get_function("probe")
    out = []

    def measure(kind: str, n: int, d: int) -> None:
        lines.fill(0)
        args = (lines, cupy.uint64(d // 8), cupy.uint32(n), cupy.uint32(kind == "spread"), slots,
                cupy.uint32(ITERS), sink)
        us = us_per_round(fn, (THREADS // 256,), (256,), args, ITERS)
        faa_per_iter = 1 if kind == "spread" else n
        rate = THREADS / 32 * faa_per_iter / (us * 1e-6)
        out.append(dict(kind=kind, counters=n, distance_bytes=d, us_per_iter=us, warp_faa_per_s=rate))
        print(f"{kind:<7} {n:>2} {d:>10} {us:>9.3f} {rate / 1e9:>9.3f}", flush=True)

    print(f"{'kind':<7} {'n':>2} {'d bytes':>10} {'us/iter':>9} {'G faa/s':>9}")
    measure("spread", 1, 128)
    measure("chain", 1, 128)
    for d in DISTANCES:
        measure("spread", 2, d)
        measure("chain", 2, d)
    for d in (128, 256, 512, 1024, 2048, 4096, 1 << 16, 1 << 20):
        measure("spread", 4, d)
        measure("chain", 4, d)
    for n in (8, 16, 32, 64):  # many counters (many queues, or a queue's many hot words)
        for d in (2048, 4096, 8192):
            measure("spread", n, d)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            json.dump(dict(provenance(), threads=THREADS, iters=ITERS, rows=out), f, indent=1)


if __name__ == "__main__":
    main()
