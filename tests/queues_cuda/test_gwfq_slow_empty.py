"""G-WFQ: a slow-path dequeue request on an empty ring ends at its first round whose ticket is at or
past Tail, as the fast path's EMPTY does, not after Threshold has run out.

wCQ's TryDeqSlow ends an empty request only once Threshold is spent; an enqueue resets Threshold
to 3m - 1, so on a ring left empty a request ran up to 3m rounds, one Head CAS each against every
other request's. On the H200 (run 316) the 32 requests left when the producers of the 25 % split
stopped took a dequeue 9.7 s at 2^18 threads (3.1 M steps).

The request is replayed on one thread with the header's own functions: the ring holds nothing
(one value went in and came out again, so Threshold is full), and thread 0's dequeue request,
published as dequeue_ticketed publishes it, is worked on by do_dequeue_slow.
"""

import ctypes

import numpy as np
import pytest

HARNESS = r"""
#include <gq/wcq_ring.cuh>

using gq::WcqRing;
static constexpr uint64_t kM = 64, kThreads = 2;

extern "C" uint64_t slow_empty_words() { return WcqRing::words(kM, kThreads); }

// out: [Head's counter before, after; Tail's counter after; owner 0's local Head; Threshold after;
// the slot of the request's last round]. Returns the error flag's first word.
extern "C" uint32_t slow_empty_dequeue(uint64_t* base, uint64_t* out) {
  for (uint64_t w = 0; w < WcqRing::words(kM, kThreads); ++w)
    base[w] = WcqRing::initial_word(w, kM, kThreads, 1, 1);  // one in, one out: empty, Threshold 3m - 1
  const WcqRing r{base, kM, kThreads, nullptr};
  uint32_t flag[4] = {0, 0, 0, 0};
  const gq::ErrorFlag err{flag};
  const uint64_t h = 2 * kM;  // the ticket of the request's last fast attempt (the one taken)
  const uint64_t req = (1ull << 32) | (WcqRing::kReqDeq << 30);
  *r.rec(0, WcqRing::kLocalHead) = h << 2;
  *r.rec(0, WcqRing::kInitHead) = h << 2;
  *r.rec(0, WcqRing::kReq) = req;
  out[0] = WcqRing::counter_of(*r.head());
  r.do_dequeue_slow(0, 0, req, h << 2, err);
  out[1] = WcqRing::counter_of(*r.head());
  out[2] = WcqRing::counter_of(*r.tail());
  out[3] = *r.rec(0, WcqRing::kLocalHead);
  out[4] = *r.threshold();
  out[5] = *r.entry((out[3] >> 2) % (2 * kM));
  return flag[0];
}
"""

M, FIN, INDEX_MASK, CYCLE_SHIFT = 64, 1, (1 << 22) - 1, 24


@pytest.fixture
def lib(host_harness):
    lib = host_harness(HARNESS, "gwfq_slow_empty")
    lib.slow_empty_words.restype = ctypes.c_uint64
    lib.slow_empty_dequeue.restype = ctypes.c_uint32
    lib.slow_empty_dequeue.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    return lib


def test_empty_slow_dequeue_ends_at_its_first_round_past_tail(lib):
    base, out = np.zeros(int(lib.slow_empty_words()), np.uint64), np.zeros(6, np.uint64)
    assert lib.slow_empty_dequeue(base.ctypes.data, out.ctypes.data) == 0, "a spin budget ran out"
    head_before, head_after, tail_after, local, threshold, slot = (int(x) for x in out)
    rounds = head_after - head_before
    assert rounds == 1, f"an empty ring's request should end after one round, took {rounds} (3m = {3 * M})"
    last = head_before  # the round's ticket: Head's counter when it began
    assert local == (last << 2) | FIN, f"the request is FIN'd at that round: {local:#x}"
    assert tail_after == head_after, "catchup dragged Tail up to the burnt ticket"
    assert threshold == 3 * M - 2, "one Threshold step for the one round"
    # The owner then reads the round's slot: burnt for that ticket's cycle, so its answer is EMPTY.
    assert slot & INDEX_MASK == INDEX_MASK - 1 and (slot >> CYCLE_SHIFT) & 0xFFFFF == last // (2 * M)
