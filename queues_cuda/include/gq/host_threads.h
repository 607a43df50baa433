// gq/host_threads.h — the CPU runtime's launch of a "grid" (host builds only: host/*.cpp).
//
// One std::thread per GPU thread. Every thread is created and held at a gate before any is let
// through, so thread creation neither staggers the start of the interleavings the checkers want
// nor falls inside a benchmark's measured window.
#pragma once
#include <thread>
#include <vector>

#include "arch.cuh"

namespace gq {

// Runs body(tid, err) on nthreads threads released together; returns the error flag's code.
template <class Body>
uint32_t run_host_threads(uint32_t nthreads, uint32_t* err_words, Body body) {
  uint32_t gate = 0;
  uint32_t ready = 0;
  std::vector<std::thread> threads;
  threads.reserve(nthreads);
  const ErrorFlag err{err_words};
  for (uint32_t tid = 0; tid < nthreads; ++tid) {
    threads.emplace_back([&, tid] {
      fetch_add<mo::acq_rel>(&ready, 1u);
      while (load<mo::acquire>(&gate) == 0u) std::this_thread::yield();
      body(tid, err);
    });
  }
  while (load<mo::acquire>(&ready) != nthreads) std::this_thread::yield();
  store<mo::release>(&gate, 1u);
  for (auto& t : threads) t.join();
  return load<mo::acquire>(err_words);
}

}  // namespace gq
