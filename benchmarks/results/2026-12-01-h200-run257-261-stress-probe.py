"""Stress probe: G-LFQ bench split runs under given defines; on a loss, the rings before/after drain.
usage: STRESS_DEFINES=A,B STRESS_CASES=18:25:12,16:75:12 python3 stress_probe.py LABEL"""
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


def ring_words(m):
    return (KENT + 2 * m + HOT - 1) // HOT * HOT


def describe(name, r, m):
    head, tail, thr = int(r[KHEAD]), int(r[KTAIL]), int(np.int64(r[KTHR]))
    ent = r[KENT:KENT + 2 * m].astype(np.uint64)
    idx = (ent & np.uint64(IDX_MASK)).astype(np.int64)
    cyc = (ent >> np.uint64(32)).astype(np.int64)
    safe = ((ent >> np.uint64(31)) & np.uint64(1)).astype(np.int64)
    j = np.nonzero(idx < BOT)[0]
    tickets = cyc[j] * 2 * m + j
    below = tickets < head
    s = (f"  {name}: Head {head} Tail-Head {tail-head} Thr {thr}/{3*m-1}; holding {len(j)}: below Head {int(below.sum())} "
         f"(unsafe {int((safe[j][below]==0).sum())}), at/after Head {int((~below).sum())} (unsafe {int((safe[j][~below]==0).sum())})")
    if below.any():
        t = np.sort(tickets[below])
        s += f"; Head-ticket of stranded: min {head-int(t[-1])} max {head-int(t[0])}"
        groups = np.split(t, np.nonzero(np.diff(t) != 1)[0] + 1)
        s += f"; runs of consecutive tickets: {sorted((len(g) for g in groups), reverse=True)[:12]}; first ticket mod 32 of each: {[int(g[0]) % 32 for g in groups][:12]}"
    print(s, flush=True)


label = sys.argv[1]
defines = tuple(d for d in os.environ.get("STRESS_DEFINES", "").split(",") if d)
cases = [tuple(int(x) for x in c.split(":")) for c in os.environ.get("STRESS_CASES", "18:25:12,16:75:12").split(",")]
bench = _CudaBench(QUEUES["glfq"], defines)
if os.environ.get("STRESS_CUBIN"):  # a cubin compiled elsewhere (another NVRTC) in place of the build
    _mod = cupy.RawModule(path=os.environ["STRESS_CUBIN"])
    bench.module = lambda min_blocks: _mod
for lg, pct, reps in cases:
    threads = 1 << lg
    lost_runs, lost_total = 0, 0
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
        producers = producer_threads(run_threads, pct, 32)
        host_counts = np.zeros(WORDS, np.uint64)
        host_counts[PRODUCERS_LEFT] = producers
        counts, err = cupy.asarray(host_counts), cupy.zeros(4, cupy.uint32)
        mod.get_function("gq_bench")((-(-run_threads // BLOCK),), (BLOCK,),
                                     (buf, u64(capacity), counts, u32(KERNEL_IDS["split"]), u32(run_threads), u32(pct),
                                      u64(20_000_000), u64(100_000_000), err))
        cupy.cuda.Device().synchronize()
        raise_if_flagged(err.get(), "gq_bench", "split")
        host = counts.get()
        left = int(host[ALL_ENQ]) - int(host[ALL_DEQ])
        m = max(capacity, run_threads)
        rw = ring_words(m)
        before = buf.get()
        out = cupy.zeros(1, cupy.uint64)
        drainers = min(run_threads, 4096)
        mod.get_function("gq_bench_drain")((-(-drainers // BLOCK),), (BLOCK,),
                                           (buf, u64(capacity), u32(run_threads), u32(drainers), u64(most(host)), out, err))
        cupy.cuda.Device().synchronize()
        drained = int(out.get()[0])
        if left != drained:
            lost_runs += 1
            lost_total += left - drained
            print(f"{label} 2^{lg} {pct}% rep {rep}: left {left} drained {drained} LOST {left - drained}", flush=True)
            describe("aq before drain", before[:rw], m)
            describe("fq before drain", before[rw:2 * rw], m)
            after = buf.get()
            describe("aq after drain", after[:rw], m)
            describe("fq after drain", after[rw:2 * rw], m)
    print(f"SUMMARY {label} {defines} 2^{lg} {pct}%: {lost_runs} of {reps} runs lost, {lost_total} elements", flush=True)
