"""What one round of pardijkstra-sliced's cluster tournament costs by how the blocks exchange
their offers, with no other work (a measuring aid for issue 4):

    python3 tools/gpu_cluster_exchange_probe.py [ROUNDS]        (default 20000)

One thread-block cluster of 8 blocks. Each round every block offers a 64-bit key and a vertex
that depend on the last round's winner (so rounds are a dependent chain, as in the kernel), the
blocks find the least offer, and every thread of every block learns it. The ways to exchange:

  barrier+read   warp 0 writes its offer into its own shared memory, the whole cluster meets at
                 its hardware barrier, warp 0 reads the 8 offers across the cluster, a block
                 barrier hands the winner to every thread (the tournament up to run 84)
  push+try_wait  each block's warp 0 pushes its offer into every block's inbox (st.async with
                 complete_tx on the inbox's mbarrier); every thread waits with mbarrier.try_wait
                 (the tournament of run 86)
  push+test_wait the same, waiting by spinning on the non-blocking mbarrier.test_wait
  store+poll     plain remote stores of the offer and a round stamp into every block's inbox;
                 every thread polls its own inbox in shared memory until all 8 carry the round
  barrier only   the cluster barrier alone, nothing exchanged (a floor)

Prints the median of 3 timed runs after a warm-up, in microseconds a round, for 512 and 1024
threads a block, and checks every block agreed on every winner.
"""

from __future__ import annotations

import sys

from launch_timing import us_per_round

SOURCE = r"""
#define BLOCKS 8
#define MAX_POLLS (1u << 24)
struct Offer { unsigned long long key, tag; };

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ unsigned mapa(unsigned a, unsigned rank) {
  unsigned r; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank)); return r;
}
__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// The least (key, vertex) over a warp: lanes past BLOCKS hold ~0.
__device__ __forceinline__ unsigned long long warp_least(unsigned long long key, unsigned vertex, unsigned* v_out) {
  unsigned hi = key >> 32, lo = (unsigned)key;
  unsigned mh = __reduce_min_sync(~0u, hi);
  unsigned ml = __reduce_min_sync(~0u, hi == mh ? lo : ~0u);
  *v_out = __reduce_min_sync(~0u, (hi == mh && lo == ml) ? vertex : ~0u);
  return (unsigned long long)mh << 32 | ml;
}
// This block's offer in round r, given the last winner: a cheap hash, so the chain is real.
__device__ __forceinline__ unsigned long long offer_key(unsigned r, unsigned block, unsigned long long last) {
  unsigned long long x = (last + r) * 0x9E3779B97F4A7C15ull + block * 0xBF58476D1CE4E5B9ull;
  return (x >> 2) & 0x3fffffffffffffffull;
}

template <int MODE>
__device__ void run(unsigned rounds, unsigned long long* out) {
  __shared__ Offer inbox[2 * BLOCKS];
  __shared__ unsigned long long bars[2];
  __shared__ unsigned long long got_key;
  __shared__ unsigned got_vertex;
  const unsigned block = blockIdx.x, lane = threadIdx.x % 32;
  if (threadIdx.x < 2 * BLOCKS) { inbox[threadIdx.x].key = 0; inbox[threadIdx.x].tag = 0; }
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bars)) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bars + 1)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  cluster_barrier();
  unsigned long long last = 0, check = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    const unsigned p = r & 1;
    __syncthreads();  // the kernel's block barrier a round (the warps' minima): no warp a round ahead
    const unsigned long long mine = offer_key(r, block, last);
    unsigned long long best; unsigned bv;
    if (MODE == 0) {  // barrier + read
      if (threadIdx.x == 0) { inbox[p].key = mine; inbox[p].tag = block; }
      cluster_barrier();
      if (threadIdx.x < 32) {
        unsigned long long k = ~0ull; unsigned v = ~0u;
        if (lane < BLOCKS) {
          unsigned a = mapa(smem(inbox + p), lane);
          unsigned long long t;
          asm volatile("ld.shared::cluster.v2.u64 {%0, %1}, [%2];" : "=l"(k), "=l"(t) : "r"(a) : "memory");
          v = (unsigned)t;
        }
        best = warp_least(k, v, &bv);
        if (lane == 0) { got_key = best; got_vertex = bv; }
      }
      __syncthreads();
      best = got_key; bv = got_vertex;
    } else if (MODE == 1 || MODE == 2) {  // push + mbarrier
      if (threadIdx.x < 32) {
        if (lane == 0)
          asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bars + p)), "r"(BLOCKS * 16) : "memory");
        if (lane < BLOCKS) {
          unsigned a = mapa(smem(inbox + p * BLOCKS + block), lane), b = mapa(smem(bars + p), lane);
          asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u64 [%0], {%1, %2}, [%3];"
                       ::"r"(a), "l"(mine), "l"((unsigned long long)block), "r"(b) : "memory");
        }
      }
      unsigned done = 0;
      for (unsigned polls = 0; !done && polls < MAX_POLLS; ++polls) {  // bounded: a lost offer shows as disagreement
        if (MODE == 1)
          asm volatile("{\n\t.reg .pred q;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 q, [%1], %2;\n\tselp.u32 %0, 1, 0, q;\n\t}"
                       : "=r"(done) : "r"(smem(bars + p)), "r"((r >> 1) & 1) : "memory");
        else
          asm volatile("{\n\t.reg .pred q;\n\tmbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 q, [%1], %2;\n\tselp.u32 %0, 1, 0, q;\n\t}"
                       : "=r"(done) : "r"(smem(bars + p)), "r"((r >> 1) & 1) : "memory");
      }
      unsigned long long k = ~0ull; unsigned v = ~0u;
      if (lane < BLOCKS) { k = inbox[p * BLOCKS + lane].key; v = (unsigned)inbox[p * BLOCKS + lane].tag; }
      best = warp_least(k, v, &bv);
    } else if (MODE == 3) {  // store + poll: key word with a stamp bit, tag word with the round
      const unsigned long long kstamp = ((r >> 1) + 1) & 1 ? (1ull << 63) : 0ull;
      const unsigned long long tstamp = (unsigned long long)(r + 1) << 32;
      if (threadIdx.x < BLOCKS) {
        unsigned a = mapa(smem(inbox + p * BLOCKS + block), lane);
        asm volatile("st.relaxed.cluster.shared::cluster.u64 [%0], %1;" ::"r"(a), "l"(mine | kstamp) : "memory");
        asm volatile("st.relaxed.cluster.shared::cluster.u64 [%0], %1;" ::"r"(a + 8), "l"(tstamp | block) : "memory");
      }
      unsigned long long k = ~0ull; unsigned v = ~0u;
      if (lane < BLOCKS) {
        const unsigned a = smem(inbox + p * BLOCKS + lane);
        unsigned long long kk, tt;
        unsigned polls = 0;
        do {
          asm volatile("ld.relaxed.cluster.shared::cta.u64 %0, [%1];" : "=l"(kk) : "r"(a) : "memory");
          asm volatile("ld.relaxed.cluster.shared::cta.u64 %0, [%1];" : "=l"(tt) : "r"(a + 8) : "memory");
        } while (((tt & ~0xffffffffull) != tstamp || (kk & (1ull << 63)) != kstamp) && ++polls < MAX_POLLS);
        k = kk & ~(1ull << 63); v = (unsigned)tt;
      }
      best = warp_least(k, v, &bv);
    } else {  // barrier only
      cluster_barrier();
      best = mine; bv = block;
    }
    last = best ^ bv;
    check += last;
  }
  if (threadIdx.x % 32 == 0) out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = check;
  cluster_barrier();  // nobody leaves while a peer may still write into it
}

#define KERNEL(name, mode, width) \
  extern "C" __global__ void __cluster_dims__(BLOCKS, 1, 1) __launch_bounds__(width) name(unsigned rounds, unsigned long long* out) { run<mode>(rounds, out); }
KERNEL(x512_0, 0, 512) KERNEL(x512_1, 1, 512) KERNEL(x512_2, 2, 512) KERNEL(x512_3, 3, 512) KERNEL(x512_4, 4, 512)
KERNEL(x1024_0, 0, 1024) KERNEL(x1024_1, 1, 1024) KERNEL(x1024_2, 2, 1024) KERNEL(x1024_3, 3, 1024) KERNEL(x1024_4, 4, 1024)
"""
MODES = ["barrier+read", "push+try_wait", "push+test_wait", "store+poll", "barrier only"]
BLOCKS = 8


def main() -> int:
    import cupy

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    mod = cupy.RawModule(code=SOURCE, options=("-std=c++17",))
    print(f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}: one cluster of {BLOCKS} blocks, "
          f"{rounds:,} rounds a run, median of 3")
    print(f"{'exchange':16s} {'threads':>8s} {'us/round':>9s}  agreed")
    for mode, name in enumerate(MODES):
        for width in (512, 1024):
            fn = mod.get_function(f"x{width}_{mode}")
            out = cupy.zeros(BLOCKS * width // 32, cupy.uint64)
            us = us_per_round(fn, (BLOCKS,), (width,), (cupy.uint32(rounds), out), rounds)
            values = out.get()
            agreed = mode == 4 or bool((values == values[0]).all())
            print(f"{name:16s} {width:8d} {us:9.3f}  {agreed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
