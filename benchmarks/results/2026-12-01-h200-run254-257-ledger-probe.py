"""Ledger probe (tree patched by ledger_patch.py): split runs of a stress build, then every aq ticket
below Head checked for its holders and what they did. usage:
STRESS_DEFINES=GQ_STRESS_BLIND_WAVE STRESS_CASES=18:25:6 python3 ledger_probe.py LABEL"""
import os
import sys
import numpy as np
import cupy
from queues_cuda.bench_queues import _CudaBench, KERNEL_IDS, BLOCK, WORDS, PRODUCERS_LEFT, ALL_ENQ, ALL_DEQ, most, producer_threads
from queues_cuda.queues import QUEUES
from queues_cuda.errors import raise_if_flagged

HOT = 512
KHEAD, KTAIL, KTHR, KENT = 0, HOT, 2 * HOT, 3 * HOT
IDX_MASK = (1 << 31) - 1
BOT = IDX_MASK - 1
LBITS = 31
FLAGS = [(8, "consumed"), (9, "burnt"), (10, "unsafe"), (11, "ahead"), (12, "installed"), (13, "enq-moved-on"),
         (14, "deq-cas-lost"), (15, "first-look-value")]


def ring_words(m):
    return (KENT + 2 * m + HOT - 1) // HOT * HOT


def decode(w):
    w = int(w)
    return f"c{w & 15}b{(w >> 4) & 15}[" + ",".join(n for b, n in FLAGS if w >> b & 1) + "]"


def runs_of(idx):
    if len(idx) == 0:
        return []
    return np.split(idx, np.nonzero(np.diff(idx) != 1)[0] + 1)


label = sys.argv[1]
defines = tuple(d for d in os.environ.get("STRESS_DEFINES", "").split(",") if d)
cases = [tuple(int(x) for x in c.split(":")) for c in os.environ.get("STRESS_CASES", "18:25:6").split(",")]
window_ns = int(os.environ.get("STRESS_WINDOW_MS", "60")) * 1_000_000
bench = _CudaBench(QUEUES["glfq"], defines)
ledger = cupy.zeros(1 << LBITS, cupy.uint32)
for lg, pct, reps in cases:
    threads = 1 << lg
    for rep in range(reps):
        run_threads, min_blocks = bench.resident(threads)
        mod = bench.module(min_blocks)
        capacity = run_threads
        u32, u64 = np.uint32, np.uint64
        words_out = cupy.zeros(1, cupy.uint64)
        mod.get_function("gq_bench_words")((1,), (1,), (u64(capacity), u64(run_threads), words_out))
        words = int(words_out.get()[0])
        buf = cupy.empty(words, cupy.uint64)
        mod.get_function("gq_bench_init")((min(-(-words // BLOCK), 65535),), (BLOCK,), (buf, u64(capacity), u64(run_threads), u64(words)))
        ledger.fill(0)
        off = os.environ.get("LEDGER_OFF") == "1"  # the patched code, its atomics never taken
        for name, val in (("gq_ledger", ledger.data.ptr), ("gq_ledger_mask", (1 << LBITS) - 1), ("gq_ledger_ring", 0 if off else buf.data.ptr)):
            g = mod.get_global(name)
            cupy.ndarray((1,), cupy.uint64, g)[...] = val
        producers = producer_threads(run_threads, pct, 32)
        host_counts = np.zeros(WORDS, np.uint64)
        host_counts[PRODUCERS_LEFT] = producers
        counts, err = cupy.asarray(host_counts), cupy.zeros(4, cupy.uint32)
        mod.get_function("gq_bench")((-(-run_threads // BLOCK),), (BLOCK,),
                                     (buf, u64(capacity), counts, u32(KERNEL_IDS["split"]), u32(run_threads), u32(pct),
                                      u64(20_000_000), u64(window_ns), err))
        cupy.cuda.Device().synchronize()
        raise_if_flagged(err.get(), "gq_bench", "split")
        host = counts.get()
        left = int(host[ALL_ENQ]) - int(host[ALL_DEQ])
        m = max(capacity, run_threads)
        rw = ring_words(m)
        before = buf.get()
        head, tail = int(before[KHEAD]), int(before[KTAIL])
        out = cupy.zeros(1, cupy.uint64)
        drainers = min(run_threads, 4096)
        mod.get_function("gq_bench_drain")((-(-drainers // BLOCK),), (BLOCK,),
                                           (buf, u64(capacity), u32(run_threads), u32(drainers), u64(most(host)), out, err))
        cupy.cuda.Device().synchronize()
        drained = int(out.get()[0])
        lost = left - drained
        h0 = 2 * m
        print(f"{label} {defines} 2^{lg} {pct}% rep {rep}: aq Head {head} Tail-Head {tail - head}; left {left} drained {drained} LOST {lost}", flush=True)
        if off:
            continue
        if head >= (1 << LBITS):
            print("  ledger too small for this Head; skipped", flush=True)
            continue
        L = ledger[h0:head]
        claim, blind = L & 15, (L >> 4) & 15
        holders = claim + blind
        zero = cupy.nonzero(holders == 0)[0].get() + h0
        multi = cupy.nonzero(holders > 1)[0].get() + h0
        nb = int((blind > 0).sum())
        flags = {n: int(((L >> b) & 1).sum()) for b, n in FLAGS}
        print(f"  tickets {head - h0}: blind-held {nb}, never held {len(zero)}, held twice+ {len(multi)}; {flags}", flush=True)
        for what, idx in (("never held", zero), ("held twice+", multi)):
            rs = runs_of(idx)
            if rs:
                print(f"  {what}: {len(rs)} runs, longest {max(len(r) for r in rs)}; first runs "
                      + "; ".join(f"{int(r[0])}+{len(r)} (mod 32: {int(r[0]) % 32}) {decode(ledger[int(r[0]) & ((1 << LBITS) - 1)].get())}"
                                  for r in rs[:8]), flush=True)
        # The stranded indices: aq slots below Head holding an index, before the drain.
        ent = before[KENT:KENT + 2 * m].astype(np.uint64)
        idx = (ent & np.uint64(IDX_MASK)).astype(np.int64)
        j = np.nonzero(idx < BOT)[0]
        cyc = (ent >> np.uint64(32)).astype(np.int64)
        tickets = cyc[j] * 2 * m + j
        stranded = np.sort(tickets[tickets < head])
        if len(stranded):
            words_ = ledger[cupy.asarray(stranded)].get()
            print(f"  stranded {len(stranded)}: " + "; ".join(f"{int(t)} {decode(w)}" for t, w in zip(stranded[:24], words_[:24])), flush=True)
            kinds = {}
            for w in words_:
                k = decode(w)
                kinds[k] = kinds.get(k, 0) + 1
            print(f"  stranded by ledger word: {kinds}", flush=True)
