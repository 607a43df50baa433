// host/heap_runtime.cpp — the CPU build of parBucketHeap (include/gq/bucket_heap.cuh): a C ABI
// that runs a whole program of heap operations in one call (include/gq/heap_program.cuh).
#include <gq/heap_program.cuh>

#include <vector>

extern "C" {

uint64_t gq_heap_entries(uint32_t d, uint32_t levels) { return gq::BucketHeap::entries(d, levels); }

uint32_t gq_heap_levels_for(uint64_t n, uint32_t d) { return gq::BucketHeap::levels_for(n, d); }

// Returns the error code (0: every operation ran).
uint32_t gq_heap_run(gq::HeapEntry* mem, uint32_t* sizes, uint32_t d, uint32_t levels, const uint32_t* op_type,
                     const uint32_t* op_count, uint64_t nops, const uint32_t* keys, const double* prios,
                     uint32_t* out_key, double* out_prio, uint8_t* out_ok, uint32_t* err_words) {
  std::vector<gq::HeapEntry> batch(d);
  gq::run_heap_program(gq::BucketHeap{mem, sizes, d, levels}, batch.data(), op_type, op_count, nops, keys, prios,
                       out_key, out_prio, out_ok, gq::ErrorFlag{err_words});
  return gq::load<gq::mo::acquire>(err_words);
}

}  // extern "C"
