"""Patch the tree in place (probe only) so that every thread logs the aq dequeue tickets it draws:
blind ones (first 64 a thread) and, with `all`, claimed ones too (first 4096 a thread); plain stores
to per-thread slots, nothing else changed. usage: python3 ticket_log_patch.py TREE blind|all"""
import sys
from pathlib import Path

scq = Path(sys.argv[1]) / "queues_cuda/include/gq/scq_ring.cuh"
what = sys.argv[2]
s = scq.read_text()


def sub(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)


sub("namespace gq {\n\nstruct ScqRing {", """extern "C" {
__device__ unsigned long long* gq_blog;    // [thread][64] blind tickets
__device__ unsigned int* gq_blog_n;        // [thread] blind tickets drawn
__device__ unsigned long long* gq_clog;    // [thread][4096] claimed tickets
__device__ unsigned int* gq_clog_n;
__device__ const unsigned long long* gq_log_ring;
}

namespace gq {

struct ScqRing {""")
if what != "blind2": sub("""        if constexpr (kBlindWave)
          h = wave_faa<mo::seq_cst>(head());
        else
          h = fetch_add<mo::seq_cst>(head(), 1ull);  // each lane's own: see kBlindStress""",
    """        if constexpr (kBlindWave)
          h = wave_faa<mo::seq_cst>(head());
        else
          h = fetch_add<mo::seq_cst>(head(), 1ull);  // each lane's own: see kBlindStress
        if ((const unsigned long long*)base == gq_log_ring) {
          const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
          const unsigned k = gq_blog_n[g];
          if (k < 64u) gq_blog[(unsigned long long)g * 64u + k] = h;
          gq_blog_n[g] = k + 1u;
        }""")
if what == "blind2":
    # The blind ticket drawn by wave_faa's own steps written out, and each lane's record kept:
    # [h, base, mask << 32 | lane, globaltimer], 256 a thread.
    sub("""          h = wave_faa<mo::seq_cst>(head());
        else""", """        {
          const uint32_t wmask = peers(active_mask(), head());
          const uint32_t wlane = lane_id();
          const uint32_t wleader = first_lane(wmask);
          uint64_t wbase = 0;
          if (wlane == wleader) wbase = fetch_add<mo::seq_cst>(head(), (uint64_t)popcount(wmask));
          wbase = shuffle(wmask, wbase, wleader);
          sync_lanes(wmask);
          h = wbase + (uint64_t)popcount(wmask & lanes_below(wlane));
          if ((const unsigned long long*)base == gq_log_ring) {
            const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
            const unsigned k = gq_blog_n[g];
            if (k < 256u) {
              unsigned long long* r = gq_blog + ((unsigned long long)g * 256u + k) * 4u;
              r[0] = h; r[1] = wbase; r[2] = ((unsigned long long)wmask << 32) | wlane; r[3] = clock_ns();
            }
            gq_blog_n[g] = k + 1u;
          }
        }
        else""")
if what == "all":
    sub("""        const Claim got = wave_claim<mo::seq_cst>(head(), tail(), h, 1, plenty_at, plenty);""",
        """        const Claim got = wave_claim<mo::seq_cst>(head(), tail(), h, 1, plenty_at, plenty);
        if (got == kClaimed && (const unsigned long long*)base == gq_log_ring) {
          const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
          const unsigned k = gq_clog_n[g];
          if (k < 4096u) gq_clog[(unsigned long long)g * 4096u + k] = h;
          gq_clog_n[g] = k + 1u;
        }""")
scq.write_text(s)
print("ticket log patched", what, scq)
