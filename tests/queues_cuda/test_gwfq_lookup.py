"""G-WFQ: a dequeuer that meets a slow-path insert finds its request through the slot's installer
word, not by scanning every thread's record.

A slow-path enqueue installs its value with Enq = 0 and then FINs its request; a dequeuer that
consumes such a value first FINs the request itself (WcqRing::lookup), or the request's helpers
could start another round once the slot has moved on and insert the index twice. lookup() used
to find the request by scanning all `threads` records with fenced loads: 135,168 of them in a
render, which made G-WFQ take seconds per image (runs 7-16). Now each installer writes
(cycle, owner) into the slot's installer word just before its installing CAS.

The states below are replayed on one thread with the header's own functions:
  - the real slow path writes the installer word, installs and FINs its request;
  - a consumed Enq = 0 value FINs the request the installer word names;
  - a word of another cycle (a stale helper of another lap) falls back to the scan;
  - a word of this cycle is trusted: when its owner has moved on, nothing is scanned (on the old
    scanning code a record holding the ticket would have been FIN'd).
"""

import ctypes

import numpy as np
import pytest

HARNESS = r"""
#include <gq/wcq_ring.cuh>

using gq::WcqRing;
static constexpr uint64_t kM = 4, kThreads = 3;

extern "C" uint64_t lookup_words() { return WcqRing::words(kM, kThreads); }

static WcqRing fresh(uint64_t* base) {
  for (uint64_t w = 0; w < WcqRing::words(kM, kThreads); ++w) base[w] = WcqRing::initial_word(w, kM, kThreads, 0);
  return WcqRing{base, kM, kThreads, nullptr};
}

// The slow path of owner 0 for index 5, run alone from ticket 2m (the first). out: [installer word
// of slot 0, the slot word, owner 0's local Tail].
extern "C" uint32_t lookup_slow_path(uint64_t* base, uint64_t* out) {
  const WcqRing r = fresh(base);
  uint32_t flag[4] = {0, 0, 0, 0};
  const gq::ErrorFlag err{flag};
  const uint64_t prev = (2 * kM) << 2, req = (1ull << 32) | (WcqRing::kReqEnq << 30) | 5u;
  *r.rec(0, WcqRing::kLocalTail) = prev;
  *r.rec(0, WcqRing::kInitTail) = prev;
  *r.rec(0, WcqRing::kReq) = req;
  r.do_enqueue_slow(0, 0, req, prev, err);
  out[0] = *r.installer(0);
  out[1] = *r.entry(0);
  out[2] = *r.rec(0, WcqRing::kLocalTail);
  return flag[0];
}

// Slot 1 holds index 2 installed by a slow path at ticket t = 2m + 1 (cycle 1) with Enq = 0, not
// yet FIN'd; owner 1's local Tail is t << 2. installer_cycle_delta shifts the installer word's
// cycle (1: a stale helper's), owner_moved puts owner 1 on a later round and thread 2's local
// Tail on t << 2 (a record only the scan would find). out: [index consumed, owner 1's local
// Tail, thread 2's local Tail, the slot word after].
extern "C" uint32_t lookup_consume(uint64_t* base, uint32_t installer_cycle_delta, uint32_t owner_moved,
                                   uint64_t* out) {
  const WcqRing r = fresh(base);
  const uint64_t t = 2 * kM + 1, j = t % (2 * kM), c = r.cycle_of_ticket(t);
  const uint64_t e = WcqRing::pack(0, c, 1, 0, 2);
  *r.entry(j) = e;
  *r.installer(j) = WcqRing::installer_word(c + installer_cycle_delta, 1);
  *r.rec(1, WcqRing::kLocalTail) = owner_moved ? (t + 2 * kM) << 2 : t << 2;
  if (owner_moved) *r.rec(2, WcqRing::kLocalTail) = t << 2;
  out[0] = r.consume(j, e, t);
  out[1] = *r.rec(1, WcqRing::kLocalTail);
  out[2] = *r.rec(2, WcqRing::kLocalTail);
  out[3] = *r.entry(j);
  return 0;
}
"""


@pytest.fixture
def lib(host_harness):
    lib = host_harness(HARNESS, "gwfq_lookup")
    lib.lookup_words.restype = ctypes.c_uint64
    lib.lookup_slow_path.restype = ctypes.c_uint32
    lib.lookup_slow_path.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.lookup_consume.restype = ctypes.c_uint32
    lib.lookup_consume.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p]
    return lib


M, FIN, BOTC_INDEX = 4, 1, (1 << 22) - 1


def buffers(lib, n):
    return np.zeros(int(lib.lookup_words()), np.uint64), np.zeros(n, np.uint64)


def test_slow_path_names_itself_in_the_installer_word(lib):
    base, out = buffers(lib, 3)
    assert lib.lookup_slow_path(base.ctypes.data, out.ctypes.data) == 0, "a spin budget ran out"
    installer, slot, local = (int(x) for x in out)
    assert installer == (1 << 32) | 1, f"slot 0's installer word should be (cycle 1, owner 0 + 1), got {installer:#x}"
    assert slot & ((1 << 22) - 1) == 5 and slot & (1 << 22), f"index 5 installed and finalized (Enq = 1): {slot:#x}"
    assert local == ((2 * M) << 2) | FIN, f"the request is FIN'd at its round: {local:#x}"


@pytest.mark.parametrize("stale", [0, 1], ids=["installer-word", "stale-word-scans"])
def test_consuming_an_unfinished_insert_fins_its_request(lib, stale):
    base, out = buffers(lib, 4)
    assert lib.lookup_consume(base.ctypes.data, stale, 0, out.ctypes.data) == 0
    index, owner_local, _, slot = (int(x) for x in out)
    t = 2 * M + 1
    assert index == 2
    assert owner_local == (t << 2) | FIN, "the insert's request must be FIN'd before its value is consumed"
    assert slot & BOTC_INDEX == BOTC_INDEX and slot & (1 << 22), "the slot is consumed with Enq = 1"


def test_a_word_of_this_cycle_is_trusted_without_a_scan(lib):
    base, out = buffers(lib, 4)
    assert lib.lookup_consume(base.ctypes.data, 0, 1, out.ctypes.data) == 0
    _, owner_local, other_local, _ = (int(x) for x in out)
    t = 2 * M + 1
    assert owner_local == (t + 2 * M) << 2, "an owner on a later round is left alone"
    assert other_local == t << 2, "lookup scanned the records although the installer word named the request"
