// sssp/host_grid.h — the CPU builds' grid (host/bfs_cpu.cpp, host/sssp_cpu.cpp): `threads`
// std::threads, each a one-thread block meeting the others at grid.h's software barrier, so CI
// runs the GPU's round loops, atomics and barrier with real concurrency. Each block gets `Words`
// shared words of its own (Grid::verdict: as many as the kernel of that form declares).
#pragma once
#include "grid.h"

#include <thread>
#include <vector>

namespace sssp {

template <uint32_t Words, class Body>
void run_host_grid(uint32_t threads, uint32_t* ctl, uint32_t* err_words, Body body) {
  std::vector<std::thread> pool;
  std::vector<uint32_t> verdicts((size_t)threads * Words, 0);
  for (uint32_t b = 0; b < threads; ++b)
    pool.emplace_back([=, &verdicts] { body(Grid(b, threads, 0, 1, ctl, &verdicts[(size_t)b * Words], err_words)); });
  for (auto& t : pool) t.join();
}

}  // namespace sssp
