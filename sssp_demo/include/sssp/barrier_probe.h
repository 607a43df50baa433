// sssp/barrier_probe.h — the grid barrier (grid.h) alone, for its tests and its cost: the grid's
// blocks meet at `rounds` barriers. Between two of them thread 0 of each block adds the block's
// number plus one to the round's tally (when `tally` is given), and after each the leader checks
// that round's tally against every block's share (a block still writing a round it had passed
// would show) and asks for a stop after round `stop_after`. In round `fail_after` the last thread
// of the last block raises an error before the barrier (kCorrupt, detail the round): that barrier
// must turn every block away, so no block runs a round after a failed one. passed[b] counts the
// barriers block b went through. Without `tally` a round is the barrier and nothing else: what
// it costs. With `tally`, thread 0 of each block also adds the same share to one of two words
// that alternate by round, and every block reads that word through Grid::sync_read: after round
// r's barrier it must hold every block's share of the rounds of r's parity (a block that read the
// word before the barrier, or a round's adds made after it, would show), else kCorrupt.
// Compiled twice, like the grid forms: kernels/grid_barrier.cu and host/sssp_cpu.cpp; both give
// every block kProbeBlockWords shared words and the control words up to kProbeWords.
#pragma once
#include "grid.h"

namespace sssp {

constexpr uint32_t kProbeShares = kCtlFirstFree;  // the two words the rounds' shares go to
constexpr uint32_t kProbeWords = kCtlFirstFree + 2;
constexpr uint32_t kProbeBlockWords = 2;          // Grid::sync_read of one word

struct BarrierProbe {
  uint32_t rounds;
  uint32_t stop_after;  // ~0u: none
  uint32_t fail_after;  // ~0u: none
  uint32_t* passed;     // [blocks], zero to start
  uint64_t* tally;      // [rounds], zero to start; or null
};

GQ_HD inline void barrier_probe(const Grid& grid, const BarrierProbe& p) {
  const uint64_t want = (uint64_t)grid.blocks * (grid.blocks + 1) / 2;
  uint32_t* const shares = grid.ctl + kProbeShares;
  for (uint32_t r = 0; r < p.rounds; ++r) {
    if (p.tally && grid.thread == 0) {
      gq::fetch_add<gq::mo::relaxed>(p.tally + r, (uint64_t)grid.block + 1);
      gq::fetch_add<gq::mo::relaxed>(shares + r % 2, grid.block + 1u);
    }
    if (r == p.fail_after && grid.block + 1 == grid.blocks && grid.thread + 1 == grid.width)
      grid.err.raise(gq::kCorrupt, gq::kSiteGridBarrier, r);
    uint32_t seen = 0;
    if (!(p.tally ? grid.sync_read({shares + r % 2}, {&seen}) : grid.sync())) return;
    if (p.tally && grid.thread == 0 && seen != (uint32_t)(want * (r / 2 + 1)))  // modulo 2^32 both
      grid.err.raise(gq::kCorrupt, gq::kSiteGridBarrier, r);
    if (grid.thread == 0) ++p.passed[grid.block];
    if (grid.leader()) {
      if (p.tally && gq::load<gq::mo::relaxed>(p.tally + r) != want)
        grid.err.raise(gq::kCorrupt, gq::kSiteGridBarrier, r);
      if (r == p.stop_after) grid.request_stop();
    }
  }
}

}  // namespace sssp
