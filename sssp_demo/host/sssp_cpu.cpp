// host/sssp_cpu.cpp — the CPU build of the shortest-path algorithms (include/sssp), a C ABI for
// ctypes. Returns 0 or the error code of the flag.
//
// Two forms: the serial ones (par_dijkstra.h, near_far.h, bellman_ford.h: the CPU backend), and
// the grid forms the GPU kernels run (near_far_grid.h, par_dijkstra_grid.h, predecessors.h),
// here on `threads` std::threads that are one-thread blocks meeting at the same software grid
// barrier, so CI runs the GPU's round loops, atomics and barrier with real concurrency.
#include <sssp/barrier_probe.h>
#include <sssp/bellman_ford.h>
#include <sssp/block_heap_program.h>
#include <sssp/host_grid.h>
#include <sssp/near_far.h>
#include <sssp/near_far_grid.h>
#include <sssp/par_dijkstra.h>
#include <sssp/par_dijkstra_grid.h>
#include <sssp/predecessors.h>
#include <sssp/slice_dijkstra.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

namespace {

// The shared words each one-thread block of the grid forms here gets: the most any of them asks
// for (the barrier probe's Grid::sync_read).
constexpr uint32_t kHostBlockWords = sssp::kProbeBlockWords;

// The distances out of their bits, and the predecessors from them (predecessors.h's passes, on
// one thread: the GPU runs the same passes over the grid).
void finish(const sssp::Csr& g, uint32_t source, const std::vector<uint64_t>& bits, double* dist, int64_t* pred) {
  std::vector<uint32_t> level(g.n, 0);
  for (uint32_t v = 0; v < g.n; ++v) {
    dist[v] = sssp::from_bits(bits[v]);
    pred[v] = sssp::kNoPredecessor;
  }
  level[source] = 1;
  if (sssp::predecessor_pass(0, 1, g, bits.data(), source, 1, 1, pred, level.data()) == 0) return;
  for (uint32_t pass = 2; sssp::predecessor_pass(0, 1, g, bits.data(), source, pass, 1, pred, level.data()); ++pass) {
  }
}

// Runs body(block, thread) on `blocks` x `width` std::threads, each block's threads meeting at
// their own barrier words; a thread whose block gave up after an error (sssp::BlockAbandoned)
// just ends: the error flag says what happened.
template <class Body> void run_block_threads(uint32_t blocks, uint32_t width, Body body) {
  std::vector<std::thread> pool;
  for (uint32_t blk = 0; blk < blocks; ++blk)
    for (uint32_t t = 0; t < width; ++t)
      pool.emplace_back([=, &body] {
        try {
          body(blk, t);
        } catch (const sssp::BlockAbandoned&) {
        }
      });
  for (auto& th : pool) th.join();
}

std::vector<uint64_t> start_bits(uint32_t n, uint32_t source) {
  std::vector<uint64_t> bits(n, sssp::kInfBits);
  bits[source] = sssp::to_bits(0.0);
  return bits;
}

}  // namespace

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

// Grid forms (`ch` edges per work item; the CPU's warp is one lane, so one lane per item; rounds
// of at most `local_items` items run on block 0 alone, near-far's with its own lists of
// `own_cap` items: the GPU's shared memory).
uint32_t sssp_grid_near_far(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                            uint32_t source, double limit, double delta, uint32_t threads, uint32_t ch,
                            uint32_t local_items, uint32_t own_cap, double* dist, int64_t* pred, uint64_t* stats,
                            uint32_t* err_words) {
  const sssp::Csr g{indptr, indices, weights, n};
  std::vector<uint64_t> bits = start_bits(n, source);
  const uint32_t item_cap =
      n + (uint32_t)((indptr[n] + ch - 1) / ch) + 1 + (uint32_t)sssp::local_spare(n, indptr[n], local_items, ch, own_cap);
  std::vector<uint64_t> items0(item_cap), items1(item_cap), nearest(2, sssp::kInfBits);
  std::vector<sssp::OwnItem> own0(own_cap), own1(own_cap);
  std::vector<uint32_t> far0(n), far1(n), in_far(n, 0), mark(n, 0), ctl(sssp::kNfWords, 0), own_count(2, 0);
  stats[0] = stats[1] = stats[2] = stats[3] = 0;
  const sssp::NearFarState s{bits.data(),   {items0.data(), items1.data()}, item_cap, {far0.data(), far1.data()},
                             in_far.data(), mark.data(), nearest.data(), stats, 1, ch, 0, local_items,
                             {own0.data(), own1.data()}, own_count.data(), own_cap};
  sssp::run_host_grid<kHostBlockWords>(threads, ctl.data(), err_words,
           [&](const sssp::Grid& grid) { sssp::near_far_grid(grid, g, source, limit, delta, s); });
  finish(g, source, bits, dist, pred);
  return gq::load<gq::mo::acquire>(err_words);
}

uint32_t sssp_grid_par_dijkstra(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                                uint32_t source, double limit, double w_min, uint32_t d, uint32_t threads, uint32_t ch,
                                uint32_t local_items, double* dist, int64_t* pred, uint64_t* stats,
                                uint32_t* err_words) {
  const sssp::Csr g{indptr, indices, weights, n};
  if (d > sssp::kMaxBatch) d = sssp::kMaxBatch;
  const uint32_t levels = gq::BucketHeap::levels_for(n, d);
  std::unique_ptr<gq::HeapEntry[]> mem(new gq::HeapEntry[gq::BucketHeap::entries(d, levels)]);
  std::vector<uint32_t> sizes(2 * levels, 0);
  std::vector<uint64_t> bits = start_bits(n, source);
  const uint32_t item_cap = n + (uint32_t)((indptr[n] + ch - 1) / ch) + 1;
  std::vector<uint64_t> items(item_cap);
  std::vector<uint32_t> updates(n), mark(n, 0), ctl(sssp::kPdWords, 0);
  std::vector<uint8_t> settled(n, 0);
  std::vector<gq::HeapEntry> batch(d);
  stats[0] = stats[1] = stats[2] = stats[3] = 0;
  sssp::BlockScratch scratch{};  // block 0's (a block is one thread here)
  const sssp::ParDijkstraState s{bits.data(), items.data(), item_cap, updates.data(), mark.data(), settled.data(),
                                 batch.data(), &scratch,    stats,    1,              ch,          0,
                                 local_items};
  const gq::BucketHeap heap{mem.get(), sizes.data(), d, levels};
  sssp::run_host_grid<kHostBlockWords>(threads, ctl.data(), err_words,
           [&](const sssp::Grid& grid) { sssp::par_dijkstra_grid(grid, g, source, limit, w_min, heap, s); });
  finish(g, source, bits, dist, pred);
  return gq::load<gq::mo::acquire>(err_words);
}

// pardijkstra-sliced (slice_dijkstra.h) on `threads` one-thread blocks, with the grid's
// tournament (slots) or, `cluster`, the cluster's (the grid barrier standing in for the cluster's);
// its sliced edge layout made first by a counting sort (the GPU launcher makes the same layout by
// a device sort), and with `follow` the follower's table, as the GPU launcher makes it.
uint32_t sssp_grid_slice_dijkstra(const int64_t* indptr, const int32_t* indices, const double* weights, uint32_t n,
                                  uint32_t source, double limit, uint32_t threads, uint32_t cluster, uint32_t follow,
                                  double* dist, int64_t* pred, uint64_t* stats, uint32_t* err_words) {
  const uint64_t m = (uint64_t)indptr[n];
  const uint32_t slice = (n + threads - 1) / threads;
  std::vector<uint32_t> offsets((uint64_t)threads * (n + 1) + 1, 0);  // one past the end: the scatter's cursor room
  for (uint32_t u = 0; u < n; ++u)
    for (int64_t k = indptr[u]; k < indptr[u + 1]; ++k) ++offsets[(uint64_t)(indices[k] / slice) * (n + 1) + u + 1];
  for (uint64_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
  std::vector<int32_t> sliced_indices(m);
  std::vector<double> sliced_weights(m);
  std::vector<uint32_t> cursor(offsets.begin(), offsets.end() - 1);
  for (uint32_t u = 0; u < n; ++u)
    for (int64_t k = indptr[u]; k < indptr[u + 1]; ++k) {
      const uint32_t at = cursor[(uint64_t)(indices[k] / slice) * (n + 1) + u]++;
      sliced_indices[at] = indices[k];
      sliced_weights[at] = weights[k];
    }
  double w_min = INFINITY;
  for (uint64_t k = 0; k < m; ++k) w_min = weights[k] < w_min ? weights[k] : w_min;
  std::vector<uint32_t> light(n, sssp::kNoVertex);
  for (uint32_t u = 0; u < n; ++u)
    for (int64_t k = indptr[u]; k < indptr[u + 1]; ++k)
      if (weights[k] == w_min && (uint32_t)indices[k] != u && (uint32_t)indices[k] < light[u]) light[u] = indices[k];
  std::vector<uint64_t> bits = start_bits(n, source), keys((uint64_t)slice * threads);
  std::vector<uint64_t> slots((uint64_t)2 * threads * sssp::kSlotWords, 0);
  std::vector<sssp::SliceScratch> scratch(threads);
  std::vector<sssp::ClusterCandidate> inboxes((uint64_t)threads * 2 * threads);  // [block][parity][sender]
  std::vector<uint32_t> ctl(sssp::kCtlFirstFree, 0);
  stats[0] = stats[1] = stats[2] = stats[3] = 0;
  const sssp::SliceDijkstraState s{bits.data(), sssp::SlicedEdges{sliced_indices.data(), sliced_weights.data()},
                                   slots.data(), stats, slice, 0, nullptr, follow ? light.data() : nullptr, w_min};
  sssp::run_host_grid<kHostBlockWords>(threads, ctl.data(), err_words, [&](const sssp::Grid& grid) {
    uint64_t* my_keys = keys.data() + (uint64_t)grid.block * slice;
    const uint32_t* my_offsets = offsets.data() + (uint64_t)grid.block * (n + 1);
    if (cluster)
      sssp::slice_dijkstra(grid, n, source, limit, my_keys, my_offsets, &scratch[grid.block], s,
                           sssp::ClusterTournament{inboxes.data(), nullptr, s.light, 0});
    else
      sssp::slice_dijkstra(grid, n, source, limit, my_keys, my_offsets, &scratch[grid.block], s,
                           sssp::SlotTournament{s});
  });
  finish(sssp::Csr{indptr, indices, weights, n}, source, bits, dist, pred);
  return gq::load<gq::mo::acquire>(err_words);
}

// parBucketHeap's block form on `width` std::threads forming one block, running a heap program
// (sssp/block_heap_program.h), so tests compare it with the sequential heap entry for entry.
uint32_t sssp_block_heap_run(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels, uint32_t width,
                             const uint32_t* op_type, const uint32_t* op_count, uint64_t nops, const uint32_t* keys,
                             const double* prios, uint32_t* out_key, double* out_prio, uint8_t* out_ok,
                             uint32_t* err_words) {
  const sssp::BlockBucketHeap heap{gq::BucketHeap{mem, sizes, d, levels}};
  std::vector<gq::HeapEntry> batch(d);
  sssp::BlockScratch scratch{};
  uint32_t bar[2] = {0, 0};
  const gq::ErrorFlag err{err_words};
  run_block_threads(1, width, [&](uint32_t, uint32_t t) {
    sssp::run_block_heap_program(sssp::Block{t, width, &scratch, bar, err}, heap, batch.data(), op_type, op_count,
                                 nops, keys, prios, out_key, out_prio, out_ok);
  });
  return gq::load<gq::mo::acquire>(err_words);
}

// parBucketHeap with one block a level (sssp/level_bucket_heap.h): `levels` blocks of `width`
// std::threads each, block 0 running the heap program and the others serving their levels.
uint32_t sssp_level_heap_run(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels, uint32_t width,
                             const uint32_t* op_type, const uint32_t* op_count, uint64_t nops, const uint32_t* keys,
                             const double* prios, uint32_t* out_key, double* out_prio, uint8_t* out_ok,
                             uint32_t* err_words) {
  const sssp::BlockBucketHeap heap{gq::BucketHeap{mem, sizes, d, levels}};
  std::vector<gq::HeapEntry> batch(d), scratch_mem(sssp::LevelSched::scratch_entries(d, levels));
  std::vector<uint32_t> req(levels, 0), ack(levels, 0), bars(2 * levels, 0);
  std::vector<sssp::BlockScratch> scratch(levels);
  const sssp::LevelSched sched{&heap, scratch_mem.data(), req.data(), ack.data()};
  const gq::ErrorFlag err{err_words};
  run_block_threads(levels, width, [&](uint32_t blk, uint32_t t) {
    sssp::run_level_heap_program(sssp::Block{t, width, &scratch[blk], &bars[2 * blk], err}, blk, sched, batch.data(),
                                 op_type, op_count, nops, keys, prios, out_key, out_prio, out_ok);
  });
  return gq::load<gq::mo::acquire>(err_words);
}

// The cost model of parDijkstra's rounds (block_bucket_heap.h's BlockCounts): the classic rounds
// of the grid form (ExtractMin, relax, the improved vertices sorted into BulkUpdates of at most
// d) run on the sequential heap up to round `first`; the next `rounds` rounds run twice from the
// same state: on the sequential heap, which records their heap operations as a program, then on
// the block form with `width` std::threads (the GPU's block width), counted. The block form must
// extract what the sequential heap did and leave the same sizes, else kCorrupt is raised.
// out: barriers by part [7], by level [17], entries by level [17], Empties [17], Fills [17],
// Selects [17], binary-search steps, size-word reads (all threads), sort barriers (the batches'
// bitonic sort, block_sort_keys), rounds counted, heap updates in them.
constexpr uint32_t kCountWords = 7 + 5 * (sssp::BlockCounts::kLevels + 1) + 5;

uint32_t sssp_par_dijkstra_round_counts(const int64_t* indptr, const int32_t* indices, const double* weights,
                                        uint32_t n, uint32_t source, uint32_t d, uint32_t width, uint32_t first,
                                        uint32_t rounds, uint64_t* out, uint32_t* err_words) {
  if (d > sssp::kMaxBatch) d = sssp::kMaxBatch;
  const gq::ErrorFlag err{err_words};
  const uint32_t levels = gq::BucketHeap::levels_for(n, d);
  std::vector<gq::HeapEntry> mem(gq::BucketHeap::entries(d, levels));
  std::vector<uint32_t> sizes(2 * levels, 0), mark(n, 0), list;
  std::vector<double> dist(n, 1.0 / 0.0);
  std::vector<uint8_t> settled(n, 0);
  const gq::BucketHeap heap{mem.data(), sizes.data(), d, levels};
  // The program of the counted rounds (block_heap_program.h's format) and what they extracted.
  std::vector<uint32_t> types, counts, keys, extracted;
  std::vector<double> prios;
  dist[source] = 0.0;
  const gq::HeapEntry start{0.0, source, gq::kHeapUpdate};
  heap.bulk_update(&start, 1, err);
  std::vector<gq::HeapEntry> snapshot;
  std::vector<uint32_t> snapshot_sizes;
  uint64_t sort_barriers = 0, updates = 0;
  std::vector<gq::HeapEntry> batch(d);
  for (uint32_t round = 1; round < first + rounds && !err.raised(); ++round) {
    const bool counted = round >= first;
    if (round == first) {
      snapshot = mem;
      snapshot_sizes = sizes;
    }
    gq::HeapEntry e{};
    if (!heap.extract_min(&e, err)) break;
    if (counted) {
      types.push_back(2);
      counts.push_back(0);
      extracted.push_back(e.key);
    }
    settled[e.key] = 1;
    list.clear();
    for (int64_t k = indptr[e.key]; k < indptr[e.key + 1]; ++k) {
      const uint32_t v = (uint32_t)indices[k];
      const double nd = dist[e.key] + weights[k];
      if (settled[v] || !(nd < dist[v])) continue;
      dist[v] = nd;
      if (mark[v] != round) list.push_back(v);
      mark[v] = round;
    }
    std::sort(list.begin(), list.end());
    for (size_t f = 0; f < list.size(); f += d) {
      const uint32_t nb = (uint32_t)std::min<size_t>(d, list.size() - f);
      for (uint32_t j = 0; j < nb; ++j) batch[j] = gq::HeapEntry{dist[list[f + j]], list[f + j], gq::kHeapUpdate};
      heap.bulk_update(batch.data(), nb, err);
      if (!counted) continue;
      types.push_back(0);
      counts.push_back(nb);
      for (uint32_t j = 0; j < nb; ++j) {
        keys.push_back(batch[j].key);
        prios.push_back(batch[j].prio);
      }
      updates += nb;
      uint32_t lg = 0;
      while ((1u << lg) < nb) ++lg;
      // block_sort_keys: ranks (one barrier), or the padding and one per bitonic step.
      sort_barriers += nb <= sssp::kRankSortMax ? 1 : 1 + lg * (lg + 1) / 2;
    }
  }
  if (err.raised() || extracted.empty()) return gq::load<gq::mo::acquire>(err_words);
  const std::vector<uint32_t> after_sizes = sizes;
  std::vector<uint32_t> got_key(extracted.size());
  std::vector<double> got_prio(extracted.size());
  std::vector<uint8_t> got_ok(extracted.size());
  sssp::BlockCounts tally{};
  const sssp::BlockBucketHeap bheap{gq::BucketHeap{snapshot.data(), snapshot_sizes.data(), d, levels}, &tally};
  sssp::BlockScratch scratch{};
  uint32_t bar[2] = {0, 0};
  keys.push_back(0);
  prios.push_back(0.0);
  run_block_threads(1, width, [&](uint32_t, uint32_t t) {
    sssp::run_block_heap_program(sssp::Block{t, width, &scratch, bar, err, &tally}, bheap, batch.data(),
                                 types.data(), counts.data(), types.size(), keys.data(), prios.data(),
                                 got_key.data(), got_prio.data(), got_ok.data());
  });
  if (got_key != extracted || snapshot_sizes != after_sizes) err.raise(gq::kCorrupt, gq::kSiteBucketHeap, first);
  uint64_t* o = out;
  for (uint32_t k = 0; k < sssp::BlockCounts::kParts; ++k) *o++ = tally.barriers[k];
  for (const uint64_t* arr : {tally.level_barriers, tally.level_entries, tally.empties, tally.fills,
                              tally.select_calls})
    for (uint32_t k = 0; k <= sssp::BlockCounts::kLevels; ++k) *o++ = arr[k];
  *o++ = tally.search_steps;
  *o++ = tally.size_reads;
  *o++ = sort_barriers;
  *o++ = extracted.size();
  *o++ = updates;
  return gq::load<gq::mo::acquire>(err_words);
}

// The grid barrier alone (sssp/barrier_probe.h) on `threads` one-thread blocks, for
// tests/sssp_demo/test_grid_barrier.py.
uint32_t sssp_grid_barrier_probe(uint32_t threads, uint32_t rounds, uint32_t stop_after, uint32_t fail_after,
                                 uint32_t* passed, uint64_t* tally, uint32_t* err_words) {
  std::vector<uint32_t> ctl(sssp::kProbeWords, 0);
  sssp::run_host_grid<kHostBlockWords>(threads, ctl.data(), err_words, [&](const sssp::Grid& grid) {
    sssp::barrier_probe(grid, sssp::BarrierProbe{rounds, stop_after, fail_after, passed, tally});
  });
  return gq::load<gq::mo::acquire>(err_words);
}

}  // extern "C"
