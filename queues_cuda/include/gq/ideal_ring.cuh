// gq/ideal_ring.cuh — the unsafe ideal ring: the ceiling the queue micro-benchmarks are read
// against (DESIGN.md, "The H200's own ceilings"), not a queue.
//
// An enqueue takes a warp-aggregated ticket on Tail (wave_faa.cuh, as G-LFQ's fast path of seed
// 001 does) and exchanges its value into slot ticket mod S; a dequeue takes a ticket on Head and
// exchanges the slot with kNone. Nothing checks cycles, emptiness or fullness: a dequeue may read
// a slot no enqueue has filled yet and an enqueue may overwrite an unread value. Every operation
// "succeeds", so the benchmark measures the cost of the two atomics every FAA ring pays at least
// (one ticket per warp, one exchange per lane), with no retry, no wait and no ordering.
//
// Offers the surface of queue_select.cuh (words, view, initial_word, try_enqueue, try_dequeue) so
// the benchmark drives it like the queues. Memory order: relaxed throughout (nothing to publish).
//
// Layout (uint64 words): Tail | pad | Head | pad (each kHotStride words) | S slots of 32 bits
// (S = a power of two) | pad to a whole stride.
#pragma once
#include "arch.cuh"
#include "wave_faa.cuh"

namespace gq {

struct IdealRing {
  static constexpr const char* kName = "ideal";
  static constexpr uint64_t kLine = kHotStride;  // Tail and Head served apart (arch.cuh)
  static constexpr uint64_t kTail = 0, kHead = kLine, kSlots = 2 * kLine;
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  uint64_t* base;
  uint64_t mask;  // S - 1

  // S: the power of two at or above max(n, threads), so no two lanes of one wave share a slot.
  GQ_HD static uint64_t slots(uint64_t n, uint64_t threads) {
    const uint64_t m = n > threads ? n : threads;
    uint64_t s = 1;
    while (s < m) s <<= 1;
    return s;
  }
  // Rounded up to hot strides as every queue's layout is (arch.cuh), though the benchmark lays the
  // ideal ring out alone.
  GQ_HD static uint64_t words(uint64_t n, uint64_t threads) { return hot_round_up(kSlots + (slots(n, threads) + 1) / 2); }
  GQ_HD static IdealRing view(uint64_t* base, uint64_t n, uint64_t threads) {
    return IdealRing{base, slots(n, threads) - 1};
  }
  GQ_HD static uint64_t initial_word(uint64_t i, uint64_t, uint64_t) { return i < kSlots ? 0ull : ~0ull; }

  GQ_HD uint32_t* slot(uint64_t ticket) const { return (uint32_t*)(base + kSlots) + (ticket & mask); }

  GQ_HD bool try_enqueue(uint32_t v, uint32_t, const ErrorFlag&) const {
    exchange<mo::relaxed>(slot(wave_faa<mo::relaxed>(base + kTail)), v);
    return true;
  }

  GQ_HD bool try_dequeue(uint32_t* out, uint32_t, const ErrorFlag&) const {
    *out = exchange<mo::relaxed>(slot(wave_faa<mo::relaxed>(base + kHead)), kNone);
    return true;
  }
};

}  // namespace gq
