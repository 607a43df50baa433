// host/sssp_cpu.cpp — the CPU build of the shortest-path algorithms (include/sssp), a C ABI for
// ctypes. Returns 0 or the error code of the flag.
#include <sssp/bellman_ford.h>
#include <sssp/near_far.h>
#include <sssp/par_dijkstra.h>

#include <memory>
#include <vector>

extern "C" {

uint32_t sssp_par_dijkstra(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                           uint32_t source, double limit, double w_min, uint32_t d, double* dist, int64_t* pred,
                           uint64_t* stats,
                           uint32_t* err_words) {
  const uint32_t levels = gq::BucketHeap::levels_for(n, d);
  // Left uninitialised (the heap writes before it reads): zero-filling hundreds of MB of levels
  // that a run may never reach cost more than the run.
  std::unique_ptr<gq::HeapEntry[]> mem(new gq::HeapEntry[gq::BucketHeap::entries(d, levels)]);
  std::vector<uint32_t> sizes(2 * levels, 0);
  std::vector<gq::HeapEntry> batch(d);
  std::vector<int64_t> slot_of(n);
  std::vector<uint8_t> settled(n);
  std::vector<uint32_t> round(n);
  const gq::BucketHeap heap{mem.get(), sizes.data(), d, levels};
  sssp::Stats st{0, 0, 0, 0};
  sssp::par_dijkstra(sssp::Csr{indptr, indices, weights, n}, source, limit, w_min, heap, batch.data(), slot_of.data(),
                     round.data(), dist, pred, settled.data(), st, gq::ErrorFlag{err_words});
  stats[0] = st.rounds;
  stats[1] = st.relaxations;
  stats[2] = st.improvements;
  stats[3] = st.heap_updates;
  return gq::load<gq::mo::acquire>(err_words);
}

uint32_t sssp_bellman_ford(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                           uint32_t source, double limit, double* dist, int64_t* pred, uint64_t* stats) {
  std::vector<uint32_t> a(n), b(n), ma(n), mb(n);
  sssp::Stats st{0, 0, 0, 0};
  sssp::bellman_ford(sssp::Csr{indptr, indices, weights, n}, source, limit, a.data(), b.data(), ma.data(), mb.data(),
                     dist, pred, st);
  stats[0] = st.rounds;
  stats[1] = st.relaxations;
  stats[2] = st.improvements;
  stats[3] = 0;
  return 0;
}

uint32_t sssp_near_far(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                       uint32_t source, double limit, double delta, double* dist, int64_t* pred, uint64_t* stats) {
  std::vector<uint32_t> a(n), b(n), far(n), ma(n), mb(n);
  std::vector<uint8_t> in_far(n);
  sssp::Stats st{0, 0, 0, 0};
  sssp::near_far(sssp::Csr{indptr, indices, weights, n}, source, limit, delta, a.data(), b.data(), far.data(),
                 in_far.data(), ma.data(), mb.data(), dist, pred, st);
  stats[0] = st.rounds;
  stats[1] = st.relaxations;
  stats[2] = st.improvements;
  stats[3] = 0;
  return 0;
}

}  // extern "C"
