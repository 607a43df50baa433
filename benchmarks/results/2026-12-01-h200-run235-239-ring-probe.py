"""The probe of runs 235-239 as it ran (runs/ring_probe.py then; only this line is new): G-LFQ's rings as a bench run leaves them, before and after the drain.
usage: python3 ring_probe.py LABEL  (PYTHONPATH = the tree). For balanced 2^16 and split 75 % 2^16:
prints enq-deq, each ring's Head, Tail, Threshold, and its slots holding an index (by ticket, against Head)."""
import sys
import numpy as np
import cupy
from queues_cuda.bench_queues import _CudaBench, KERNEL_IDS, BLOCK, WORDS, PRODUCERS_LEFT, ALL_ENQ, ALL_DEQ, most, producer_threads
from queues_cuda.queues import QUEUES
from queues_cuda.errors import raise_if_flagged

HOT = 512
KHEAD, KTAIL, KTHR, KENT = 0, HOT, 2 * HOT, 3 * HOT
IDX_BITS = 31
IDX_MASK = (1 << IDX_BITS) - 1
BOT = IDX_MASK - 1


def ring_words(m):
    w = KENT + 2 * m
    return (w + HOT - 1) // HOT * HOT


def describe(name, r, m):
    head, tail, thr = int(r[KHEAD]), int(r[KTAIL]), int(np.int64(r[KTHR]))
    ent = r[KENT:KENT + 2 * m].astype(np.uint64)
    idx = (ent & np.uint64(IDX_MASK)).astype(np.int64)
    cyc = (ent >> np.uint64(IDX_BITS + 1)).astype(np.int64)
    safe = ((ent >> np.uint64(IDX_BITS)) & np.uint64(1)).astype(np.int64)
    full = idx < BOT
    j = np.nonzero(full)[0]
    tickets = cyc[j] * 2 * m + j
    below = int((tickets < head).sum())
    print(f"  {name}: Head {head} Tail {tail} (Tail-Head {tail-head}) Threshold {thr} (max {3*m-1}); "
          f"slots holding an index {len(j)}: tickets below Head {below}, at/after Head {len(j)-below}; "
          f"unsafe of those {int((safe[j]==0).sum())}", flush=True)
    if below:
        t = np.sort(tickets[tickets < head])[:5]
        print(f"    lowest stranded tickets {t.tolist()} (Head - ticket: {[head - int(x) for x in t]})", flush=True)


label = sys.argv[1]
kind = QUEUES["glfq"]
bench = _CudaBench(kind, ())
import os
R = int(os.environ.get("RING_REPS", "1"))
CASES = (("split", 1 << 16, 75, 4 * R), ("split", 1 << 18, 25, 2 * R)) if os.environ.get("RING_QUICK") else (("balanced", 1 << 16, 0, 3), ("split", 1 << 16, 75, 3), ("split", 1 << 18, 25, 3))
for kernel, threads, pct, reps in CASES:
    for rep in range(reps):
        run_threads, min_blocks = bench.resident(threads)
        mod = bench.module(min_blocks)
        capacity = run_threads
        u32, u64 = np.uint32, np.uint64
        words_out = cupy.zeros(1, cupy.uint64)
        mod.get_function("gq_bench_words")((1,), (1,), (u64(capacity), u64(run_threads), words_out))
        words = int(words_out.get()[0])
        buf = cupy.empty(words, cupy.uint64)
        mod.get_function("gq_bench_init")((min(-(-words // BLOCK), 65535),), (BLOCK,),
                                          (buf, u64(capacity), u64(run_threads), u64(words)))
        producers = producer_threads(run_threads, pct, 32) if kernel == "split" else 0
        host_counts = np.zeros(WORDS, np.uint64)
        host_counts[PRODUCERS_LEFT] = producers
        counts, err = cupy.asarray(host_counts), cupy.zeros(4, cupy.uint32)
        mod.get_function("gq_bench")((-(-run_threads // BLOCK),), (BLOCK,),
                                     (buf, u64(capacity), counts, u32(KERNEL_IDS[kernel]), u32(run_threads), u32(pct),
                                      u64(20_000_000), u64(100_000_000), err))
        cupy.cuda.Device().synchronize()
        raise_if_flagged(err.get(), "gq_bench", kernel)
        host = counts.get()
        left = int(host[ALL_ENQ]) - int(host[ALL_DEQ])
        m = max(capacity, run_threads)
        rw = ring_words(m)
        b = buf.get()
        print(f"{label} {kernel} {pct}% {run_threads} threads rep {rep}: enq-deq {left}", flush=True)
        describe("aq", b[:rw], m)
        describe("fq", b[rw:2 * rw], m)
        out = cupy.zeros(1, cupy.uint64)
        drainers = min(run_threads, 4096)
        mod.get_function("gq_bench_drain")((-(-drainers // BLOCK),), (BLOCK,),
                                           (buf, u64(capacity), u32(run_threads), u32(drainers), u64(most(host)), out, err))
        cupy.cuda.Device().synchronize()
        drained = int(out.get()[0])
        print(f"  drained {drained} (missing {left - drained})", flush=True)
        if left != drained:
            b = buf.get()
            describe("aq after drain", b[:rw], m)
