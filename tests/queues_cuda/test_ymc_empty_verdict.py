"""G-WFQ-YMC: every visitor of a cell that can never hold a value gives the same answer.

help_enq answers EMPTY for such a cell when Tail had not passed it, else ⊤ (try on). When each
visitor read Tail for itself, two helpers of one dequeue request could disagree about the same
cell: the first (Tail not yet past it) announced it as the request's EMPTY cell, the second (an
enqueue had moved Tail on meanwhile) scanned on, took Head past the following cells and found a
value there, which the request, ended EMPTY, never took and no fast dequeuer ever visited: an
element stranded while younger ones of its enqueuer were dequeued (ymc.cuh, verdict).

The race needs three threads to meet inside a few instructions; here its core is replayed on one
thread with the header's own functions, so it fails at once (and always) on the old answer. The
multi-threaded stress that found it lives in test_ymc_claim_race.py.
"""

import ctypes

import numpy as np

HARNESS = r"""
#include <gq/ymc.cuh>

// One thread plays three: visitor A and visitor B of cell 1 (helpers of dequeue requests) and an
// enqueuer between them. out: [A's answer, the enqueue went through, B's answer, the value the
// next dequeue returns, whether it returned one]; answers are 1 for EMPTY, 2 for ⊤, 0 otherwise.
extern "C" uint64_t ymc_verdict_words() { return gq::Ymc::words(4, 4); }

extern "C" uint32_t ymc_verdict_replay(uint64_t* base, uint32_t* out) {
  const uint64_t n = 4, threads = 4;
  for (uint64_t w = 0; w < gq::Ymc::words(n, threads); ++w) base[w] = gq::Ymc::initial_word(w, n, threads);
  const gq::Ymc q = gq::Ymc::view(base, n, threads);
  uint32_t words[4] = {0, 0, 0, 0};
  const gq::ErrorFlag err{words};
  auto answer = [](uint64_t r) { return r == gq::Ymc::kEmptyR ? 1u : r == gq::Ymc::kTopV ? 2u : 0u; };
  q.advance(q.head(), 1, err, 0);  // A takes Head past cell 1, as help_deq does, and visits it
  out[0] = answer(q.help_enq(1, 1, err));
  out[1] = q.try_enqueue(77, 2, err) ? 1u : 0u;  // ticket 1 is closed; the value lands in cell 2
  out[2] = answer(q.help_enq(1, 3, err));
  uint32_t got = 0;
  out[4] = q.try_dequeue(&got, 0, err) ? 1u : 0u;
  out[3] = got;
  return words[0];
}
"""


def replay(host_harness):
    lib = host_harness(HARNESS, "ymc_verdict_replay")
    lib.ymc_verdict_words.restype = ctypes.c_uint64
    lib.ymc_verdict_replay.restype = ctypes.c_uint32
    lib.ymc_verdict_replay.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    base = np.zeros(int(lib.ymc_verdict_words()), np.uint64)
    out = np.zeros(5, np.uint32)
    assert lib.ymc_verdict_replay(base.ctypes.data, out.ctypes.data) == 0, "a spin budget ran out"
    return tuple(int(x) for x in out)


def test_visitors_of_an_empty_cell_agree(host_harness):
    first, enqueued, second, value, dequeued = replay(host_harness)
    assert first == 1, f"the first visitor of an empty cell with Tail at it must answer EMPTY, got {first}"
    assert enqueued == 1
    assert second == first, (
        f"the second visitor of cell 1 answered {'⊤' if second == 2 else second} after the first answered EMPTY: "
        "a helper could scan past the cell its request ends at and strand what it finds beyond")
    assert dequeued == 1 and value == 77, "the next dequeue must find the enqueued value"
