"""What one step of a queue operation's chain costs: a warp's dependent device-scope accesses, one
after another, by kind of access and by how many warps run such chains at once (a measuring aid
for issues 3 and 6):

    python3 tools/gpu_chain_probe.py [OUT.json]

A queue operation is a chain: every step waits for the one before (a slot is read at the ticket a
fetch-add returned; a CAS installs what that read decided), and most steps of the queues are
seq_cst, a full fence and then the access (gq/arch.cuh), so even a step whose result nobody reads
(the guard's exit) is waited for by the next step's fence. Lane 0
of each warp walks a chain of STEPS accesses over 8 words 4 KB apart; each access's address
depends on what the one before returned (the words hold 0 and stay 0: loads read 0, adds add 0),
except in `fenced RMW, unused`, where only the fences chain the steps. Kinds:

  load          ld.relaxed.gpu
  RMW           atom.relaxed.gpu.add
  fenced load   fence.sc.gpu + ld.acquire.gpu       (the queues' seq_cst load)
  fenced RMW    fence.sc.gpu + atom.acq_rel.gpu.add (the queues' seq_cst fetch-add, CAS, OR until
                run 217; ptxas puts a second fence, MEMBAR.ALL.GPU, in front of the atom)
  fenced RMW, unused  the same, the result never read
  ABI RMW       fence.sc.gpu + atom.acquire.gpu.add (seq_cst as CUDA's atomics ABI spells it, and
                the queues since run 217: gq/arch.cuh; added after run 216, measured in run 228)

Warps: 1 (no other traffic), one an SM, 32 an SM (the renderer's residency), 64 an SM (2^18
threads, the benchmark's largest sweep point); "own" gives every warp its own 8 words, "shared"
puts all warps on the same 8 (the queues' hot words). Prints ns a step: the kernel's time over
STEPS (all warps run at once), the median of 3 timed launches after a warm-up.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from launch_timing import us_per_round

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from queues_cuda.provenance import provenance  # noqa: E402

SOURCE = r"""
typedef unsigned long long u64;
__device__ __forceinline__ u64 step(u64* p) {
  u64 v = 0;
#if KIND == 0
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
#elif KIND == 1
  asm volatile("atom.relaxed.gpu.add.u64 %0, [%1], 0;" : "=l"(v) : "l"(p) : "memory");
#elif KIND == 2
  asm volatile("fence.sc.gpu;\n\tld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
#elif KIND == 5
  asm volatile("fence.sc.gpu;\n\tatom.acquire.gpu.add.u64 %0, [%1], 0;" : "=l"(v) : "l"(p) : "memory");
#else
  asm volatile("fence.sc.gpu;\n\tatom.acq_rel.gpu.add.u64 %0, [%1], 0;" : "=l"(v) : "l"(p) : "memory");
#endif
  return v;
}

// Warp w walks words[base + k * 512], k = 0..7, base = 0 (shared) or w * 4096 (own).
extern "C" __global__ void chain(u64* words, unsigned shared, unsigned steps, u64* sink) {
  const u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if ((threadIdx.x & 31u) != 0u) return;
  u64* base = words + (shared ? 0ull : warp * 4096ull);
  u64 k = 0, acc = 0;
  for (unsigned s = 0; s < steps; ++s) {
    const u64 v = step(base + (k & 7ull) * 512ull);
#if KIND == 4
    acc += v;  // read only after the loop: the steps are chained by their fences alone
    k += 1;
#else
    k += 1 + v;  // v is 0: the next address waits for this step's result
#endif
  }
  if (acc + k == 0x5a5a5a5a5a5a5a5aull) *sink = acc;  // keeps the work; never true in practice
}
"""

KINDS = [("load", 0), ("RMW", 1), ("fenced load", 2), ("fenced RMW", 3), ("fenced RMW, unused", 4), ("ABI RMW", 5)]
WARPS_PER_SM = [None, 1, 32, 64]  # None: one warp in all
STEPS = 2000


def kernels():
    import cupy

    return {kind: cupy.RawModule(code=SOURCE, options=("-std=c++17", f"-DKIND={kind}")).get_function("chain")
            for _, kind in KINDS}


def main(argv: list[str]) -> int:
    import cupy

    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    fns = kernels()
    most = max(w for w in WARPS_PER_SM if w) * sms
    words = cupy.zeros(most * 4096, dtype=cupy.uint64)
    sink = cupy.zeros(1, dtype=cupy.uint64)
    rows = []
    for label, kind in KINDS:
        for per_sm in WARPS_PER_SM:
            warps = 1 if per_sm is None else per_sm * sms
            for shared in ((0,) if warps == 1 else (0, 1)):
                threads = warps * 32
                block = min(threads, 256)
                grid = (threads // block,)
                us = us_per_round(fns[kind], grid, (block,), (words, cupy.uint32(shared), cupy.uint32(STEPS), sink),
                                  STEPS)
                rows.append({"kind": label, "warps": warps, "warps_per_sm": per_sm, "shared": bool(shared),
                             "ns_per_step": us * 1e3})
                print(f"{label:20s} {warps:6d} warps {'shared' if shared else 'own':6s} {us * 1e3:8.1f} ns a step",
                      flush=True)
    if argv:
        Path(argv[0]).write_text(json.dumps({"provenance": provenance(), "steps": STEPS, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
