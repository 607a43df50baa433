"""G-WFQ: a dequeue made right after one that answered EMPTY parks. It draws a blind ticket on aq
and waits in that slot for the enqueuer instead of polling aq's Head and Tail (Gwfq::operate).
A parked dequeue that answers EMPTY too disarms its thread until it next takes a value, so that
pollers cannot keep burning the slots of the last producers' tickets (runs 328-331). A dequeue that
follows a successful one by a claim, or that runs on a fresh view, takes no ticket from an empty
queue. The queue BFS's levels rely on this, and so does the tile renderer, which makes its views
afresh for every operation.

One thread drives views of one queue with the header's own operations. Its steps, with Head's
counter on aq after each one, are recorded and checked here.
"""

import ctypes

import numpy as np
import pytest

HARNESS = r"""
#include <gq/gwfq.cuh>

using gq::Gwfq;
static constexpr uint64_t kN = 64, kThreads = 2;

extern "C" uint64_t park_words() { return Gwfq::words(kN, kThreads); }

// out[k], out[16 + k]: step k's answer (1: a value, 0: EMPTY; for an enqueue 1: done) and the
// value taken, out[32 + k]: aq's Head counter after step k. Returns the error flag's first word.
extern "C" uint32_t park_steps(uint64_t* base, uint64_t* out) {
  for (uint64_t w = 0; w < Gwfq::words(kN, kThreads); ++w) base[w] = Gwfq::initial_word(w, kN, kThreads);
  uint32_t flag[4] = {0, 0, 0, 0};
  const gq::ErrorFlag err{flag};
  const Gwfq v = Gwfq::view(base, kN, kThreads), w = Gwfq::view(base, kN, kThreads);
  uint32_t k = 0;
  auto head = [&] { return gq::WcqRing::counter_of(*v.aq.head()); };
  auto deq = [&](const Gwfq& q) {
    uint32_t got = 0;
    out[k] = q.try_dequeue(&got, 0, err);
    out[16 + k] = got;
    out[32 + k++] = head();
  };
  auto enq = [&](uint32_t x) {
    out[k] = v.try_enqueue(x, 0, err);
    out[32 + k++] = head();
  };
  deq(v);                            // 0: a fresh queue (Threshold < 0): EMPTY, no ticket
  deq(v);                            // 1: v right after EMPTY, but Threshold < 0: EMPTY, no ticket
  enq(7);                            // 2
  deq(w);                            // 3: w (a view of its own): 7, by a claim that saw one value ahead
  deq(w);                            // 4: the ring empty, Threshold full: EMPTY by the relaxed test, no ticket
  deq(w);                            // 5: w right after EMPTY: parks, a blind ticket, none comes: EMPTY
  deq(w);                            // 6: w after a park that came back EMPTY: disarmed, EMPTY, no ticket
  enq(9);                            // 7
  deq(w);                            // 8: w, disarmed: 9, one ticket
  deq(w);                            // 9: EMPTY by the test, no ticket
  enq(11);                           // 10
  deq(w);                            // 11: w right after EMPTY (re-armed by 9): parks, its ticket finds 11
  deq(w);                            // 12: a blind ticket (the park found its value: plenty), EMPTY
  deq(w);                            // 13: right after EMPTY, armed: parks, a blind ticket, EMPTY
  deq(w);                            // 14: disarmed: EMPTY, no ticket
  deq(Gwfq::view(base, kN, kThreads));  // 15: a fresh view of the empty ring: EMPTY, no ticket
  return flag[0];
}
"""


@pytest.fixture
def lib(host_harness):
    lib = host_harness(HARNESS, "gwfq_park")
    lib.park_words.restype = ctypes.c_uint64
    lib.park_steps.restype = ctypes.c_uint32
    lib.park_steps.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    return lib


def test_a_dequeue_after_empty_parks_and_others_take_no_ticket(lib):
    base, out = np.zeros(int(lib.park_words()), np.uint64), np.zeros(64, np.uint64)
    assert lib.park_steps(base.ctypes.data, out.ctypes.data) == 0, "a spin budget ran out"
    steps = 16
    answer = [int(out[k]) for k in range(steps)]
    value = [int(out[16 + k]) for k in range(steps)]
    head = [int(out[32 + k]) for k in range(steps)]
    assert answer == [0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0], answer
    assert value[3] == 7 and value[8] == 9 and value[11] == 11, value
    first = head[0]
    # The steps that may not take a ticket: EMPTY on a fresh queue, EMPTY again while Threshold
    # says the ring has proved empty, EMPTY after a success by a claim, EMPTY after a park that
    # found nothing, EMPTY on a fresh view.
    assert head[1] == first, "a parked dequeue must not draw a ticket while Threshold < 0"
    assert head[3] == first + 1, "the dequeue of 7 took one ticket"
    assert head[4] == head[3], "a dequeue after a success must answer EMPTY without a ticket"
    assert head[5] == head[4] + 1, "the dequeue after EMPTY parks: one blind ticket"
    assert head[6] == head[5], "a park that came back EMPTY must disarm: no ticket until a value"
    assert head[8] == head[7] + 1, "the dequeue of 9 took one ticket"
    assert head[9] == head[8], "a dequeue after a success by a claim must answer EMPTY without a ticket"
    assert head[11] == head[10] + 1, "the parked dequeue of 11 took one ticket"
    assert head[12] == head[11] + 1, "a park that found its value is plenty: the next ticket is blind"
    assert head[13] == head[12] + 1, "the value re-armed parking: one blind ticket"
    assert head[14] == head[13], "a park that came back EMPTY must disarm again"
    assert head[15] == head[14], "a fresh view must answer EMPTY without a ticket"
