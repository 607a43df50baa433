"""What the queue layer's acquires and fences on some warps cost the other warps of their SM
(a measuring aid for issue 3):

    python3 tools/gpu_l1_invalidate_probe.py [OUT.json]

On sm_90 every acquire load, acquire atomic and fence at gpu scope compiles to a CCTL.IVALL
after the access (read from the SASS with cuobjdump), which invalidates the SM's L1 data cache.
The tile renderer's queue operations make several each, on warps that share their SM with
tracing warps whose scene sits in that L1.

Each block of 256 threads (four blocks an SM, as the renderers run) has six reader warps and two
others. A reader does one of:
  ld, nc, shared   chase a pointer chain through a 16 KB table (its loads depend on each other,
                   so their time is their latency: an L1 hit or a trip to L2) by ordinary loads
                   (ld.global), by the non-coherent read-only path (ld.global.nc), or from a copy
                   in the block's shared memory (ld.shared);
  local            chase one through 32 words of the thread's own local memory (ld.local: where
                   a traversal stack or a spilled register lives, cached in L1 too);
  code N           load nothing: run a loop body of N dependent instructions (512: 8 KB of code,
                   4,096: 64 KB), to see whether the others reach the instruction fetches (the
                   tile kernel's warps wait for instruction fetches four times as long as the
                   compaction kernel's: run 118).
The other two warps, until the block's readers finish, do nothing (idle); relaxed loads of a
word of their own (relaxed: the same traffic, no invalidation); acquire loads of it (acquire);
fence.sc then a relaxed load (fence.sc: the queues' seq_cst spelling, MEMBAR.SC and CCTL.IVALL);
or a loop of code of their own (code 512, code 8192: 8 KB or 128 KB, as the tile kernel's warps
in their queue operations run other code than its tracers). Prints ns a chained load (an
instruction, for "code" readers), the median of three timed launches after a warm-up.

Model under test: if the invalidation empties the readers' lines, "ld + acquire" is several times
"ld + idle"; if the read-only path's lines survive it, "nc + acquire" stays at "nc + idle"; shared
memory is no cache, so "shared + acquire" should stay at "shared + idle" unless the invalidation
also holds up the SM's load pipeline.

Run 135 (H200): ld 119 / 121 / 1,819 ns (idle / relaxed / acquire), nc the same: the read-only
path's lines go too. Runs 136-138: shared 44 / 47 / 48 ns, local 179 / 178 / 176 ns, code 7.5 /
7.7 / 7.7 ns an instruction: shared memory, local memory and instruction fetch are spared.
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
__device__ __forceinline__ unsigned next_of(const unsigned* p) {
  unsigned v;
#if LOAD == 1
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
#elif LOAD == 2
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)) : "memory");
#elif LOAD == 3
  asm volatile("ld.local.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_local(p)) : "memory");
#else
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
#endif
  return v;
}
__device__ __forceinline__ u64 poll(const u64* p) {
  u64 v;
#if OTHERS == 2
  asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
#elif OTHERS == 4
  asm volatile("fence.sc.gpu;\n\tld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
#else
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
#endif
  return v;
}
// table: a chain through TABLE words (one cycle); words: a word per polling warp, 16 apart.
extern "C" __global__ void probe(const unsigned* table, u64* words, unsigned iters, unsigned* sink) {
  __shared__ volatile unsigned finished;
  __shared__ unsigned local[LOAD == 2 ? TABLE : 1];
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
  if (threadIdx.x == 0) finished = 0;
  if (LOAD == 2)
    for (unsigned i = threadIdx.x; i < TABLE; i += blockDim.x) local[i] = table[i];
  __syncthreads();
  if (warp < 6) {
    // LOAD 3: a chain of the thread's own, one cycle through LOCAL words of its local memory
    // (a stack frame, as a traversal stack or a spilled register is).
    unsigned own[LOAD == 3 ? LOCAL : 1];
    if (LOAD == 3)
      for (unsigned k = 0; k < LOCAL; ++k) own[k] = (k + 1u + (threadIdx.x & 1u)) % LOCAL;
    unsigned at = (blockIdx.x * 197u + threadIdx.x * 31u) & ((LOAD == 3 ? LOCAL : TABLE) - 1u);
#if LOAD == 4
    // No loads: a loop body of CODE dependent instructions, each its own (asm volatile: nothing
    // merges them), so the body's code is about 16 * CODE bytes and is fetched every pass.
    for (unsigned i = 0; i < iters; ++i) {
#pragma unroll
      for (unsigned k = 0; k < CODE; ++k) asm volatile("mad.lo.u32 %0, %0, 1664525, %1;" : "+r"(at) : "r"(k));
    }
#else
    const unsigned* chain = LOAD == 3 ? own : LOAD == 2 ? local : table;
    for (unsigned i = 0; i < iters; ++i) at = next_of(chain + at);
#endif
    if (at == 0xFFFFFFFFu) *sink = at;  // keeps the chain; never true
    __syncwarp();
    if (lane == 0) atomicAdd((unsigned*)&finished, 1u);
  } else if (OTHERS == 3) {
    // Code of their own: a loop body of OTHER_CODE dependent instructions, none of the readers'.
    unsigned x = threadIdx.x;
    while (finished < 6u) {
#pragma unroll
      for (unsigned k = 0; k < OTHER_CODE; ++k) asm volatile("mad.lo.u32 %0, %0, 22695477, %1;" : "+r"(x) : "r"(k));
    }
    if (x == 0x5a5a5a5au) *sink = x;
  } else if (OTHERS != 0) {
    u64* mine = words + 16ull * (blockIdx.x * 2u + (warp - 6u));
    u64 seen = 0;
    while (finished < 6u) seen += poll(mine);
    if (seen == 0x5a5a5a5a5a5a5a5aull) *sink = (unsigned)seen;
  }
}
"""

TABLE = 4096  # words: 16 KB, well inside an SM's L1
LOCAL = 32  # words a reader thread chases through its local memory: 96 KB an SM in all
OTHERS = {"idle": 0, "relaxed": 1, "acquire": 2, "code": 3, "fence.sc": 4}
OTHER_CODES = (512, 8192)  # instructions in the others' own loop body ("code" others): 8 KB, 128 KB
LOADS = {"ld": 0, "nc": 1, "shared": 2, "local": 3, "code": 4}
CODES = (512, 4096)  # instructions in the "code" rows' loop body: about 8 KB and 64 KB of code
# (label, reader, others, instructions in the readers' loop body (1 for a chain's load), in the
# others' loop body (0: they run none))
ROWS = [(f"{load} + {others}", load, others, 1, 0) for load in LOADS if load != "code" for others in OTHERS
        if others != "code"] + [
    (f"code {c} + {others}", "code", others, c, 0) for c in CODES for others in OTHERS if others != "code"] + [
    (f"code {c} + code {o}", "code", "code", c, o) for c in CODES for o in OTHER_CODES]
ITERS = 20000
BLOCKS_PER_SM = 4


def chain(n: int, seed: int = 7):
    """A single cycle through n words in a random order: word i holds the word after i."""
    import numpy as np

    order = np.random.default_rng(seed).permutation(n).astype(np.uint32)
    table = np.empty(n, dtype=np.uint32)
    table[order] = np.roll(order, -1)
    return table


def main() -> None:
    import cupy

    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    blocks = sms * BLOCKS_PER_SM
    table = cupy.asarray(chain(TABLE))
    words = cupy.zeros(16 * 2 * blocks, dtype=cupy.uint64)
    sink = cupy.zeros(1, dtype=cupy.uint32)
    out = []
    print(f"{'row':<20} {'ns a load or instruction':>25}")
    for label, load, others, code, other_code in ROWS:
        opts = ("-std=c++17", f"-DLOAD={LOADS[load]}", f"-DOTHERS={OTHERS[others]}", f"-DTABLE={TABLE}u",
                f"-DLOCAL={LOCAL}u", f"-DCODE={code}u", f"-DOTHER_CODE={other_code}u")
        fn = cupy.RawModule(code=SOURCE, options=opts).get_function("probe")
        iters = ITERS // code if load == "code" else ITERS
        us = us_per_round(fn, (blocks,), (256,), (table, words, cupy.uint32(iters), sink), iters * code)
        out.append(dict(row=label, ns_per_step=us * 1e3, blocks=blocks, iters=iters, body=code))
        print(f"{label:<20} {us * 1e3:>25.2f}", flush=True)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            json.dump(dict(provenance(), table_words=TABLE, rows=out), f, indent=1)


if __name__ == "__main__":
    main()
