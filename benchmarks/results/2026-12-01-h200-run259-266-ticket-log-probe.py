"""With the tree patched by ticket_log_patch.py: split runs of the wave stress; on a loss, where the
stranded tickets were drawn. usage: LOG=blind|all STRESS_CASES=18:25:10 python3 ticket_log_probe.py LABEL"""
import os
import sys

import cupy
import numpy as np

from queues_cuda.bench_queues import _CudaBench, KERNEL_IDS, BLOCK, WORDS, PRODUCERS_LEFT, ALL_ENQ, ALL_DEQ, most, producer_threads
from queues_cuda.errors import raise_if_flagged
from queues_cuda.queues import QUEUES

HOT = 512
KHEAD, KTAIL, KENT = 0, HOT, 3 * HOT
IDX_MASK = (1 << 31) - 1
BOT = IDX_MASK - 1

label = sys.argv[1]
log_all = os.environ.get("LOG", "blind") == "all"
cases = [tuple(int(x) for x in c.split(":")) for c in os.environ.get("STRESS_CASES", "18:25:10").split(",")]
bench = _CudaBench(QUEUES["glfq"], ("GQ_STRESS_BLIND_WAVE",))
u32, u64 = np.uint32, np.uint64
for lg, pct, reps in cases:
    threads = 1 << lg
    lost_runs = 0
    for rep in range(reps):
        run_threads, min_blocks = bench.resident(threads)
        mod = bench.module(min_blocks)
        capacity = run_threads
        words_out = cupy.zeros(1, cupy.uint64)
        mod.get_function("gq_bench_words")((1,), (1,), (u64(capacity), u64(run_threads), words_out))
        words = int(words_out.get()[0])
        buf = cupy.empty(words, cupy.uint64)
        mod.get_function("gq_bench_init")((min(-(-words // BLOCK), 65535),), (BLOCK,), (buf, u64(capacity), u64(run_threads), u64(words)))
        grid = -(-run_threads // BLOCK) * BLOCK
        blog, blog_n = cupy.zeros(grid * 64, cupy.uint64), cupy.zeros(grid, cupy.uint32)
        clog = cupy.zeros(grid * 4096 if log_all else 1, cupy.uint64)
        clog_n = cupy.zeros(grid, cupy.uint32)
        for name, val in (("gq_blog", blog.data.ptr), ("gq_blog_n", blog_n.data.ptr), ("gq_clog", clog.data.ptr),
                          ("gq_clog_n", clog_n.data.ptr), ("gq_log_ring", buf.data.ptr)):
            cupy.ndarray((1,), cupy.uint64, mod.get_global(name))[...] = val
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
        before = buf.get()
        head = int(before[KHEAD])
        # Stop logging before the drain.
        cupy.ndarray((1,), cupy.uint64, mod.get_global("gq_log_ring"))[...] = 0
        out = cupy.zeros(1, cupy.uint64)
        drainers = min(run_threads, 4096)
        mod.get_function("gq_bench_drain")((-(-drainers // BLOCK),), (BLOCK,),
                                           (buf, u64(capacity), u32(run_threads), u32(drainers), u64(most(host)), out, err))
        cupy.cuda.Device().synchronize()
        lost = left - int(out.get()[0])
        bn = blog_n.get()
        bt = blog.get().reshape(grid, 64)
        sel = np.arange(64)[None, :] < np.minimum(bn, 64)[:, None]
        bthread = np.nonzero(sel)[0]
        btick = bt[sel].astype(np.int64)
        uniq, cnt = np.unique(btick, return_counts=True)
        msg = (f"{label} 2^{lg} {pct}% rep {rep} (min blocks {min_blocks}): LOST {lost}; blind tickets {int(bn.sum())}, "
               f"logged {len(btick)} (threads over 64: {int((bn > 64).sum())}), logged twice+ {int((cnt > 1).sum())}")
        if log_all:
            cn = clog_n
            csel = cupy.arange(4096, dtype=cupy.uint32)[None, :] < cupy.minimum(cn, 4096)[:, None]
            ct = clog.reshape(grid, 4096)
            ctick = ct[csel].astype(cupy.int64)
            allt = cupy.concatenate([cupy.asarray(btick), ctick]) - 2 * m
            held = cupy.bincount(allt, minlength=head - 2 * m)
            msg += (f"; claimed {int(cn.sum())}, logged {len(ctick)} (threads over 4096: {int((cn > 4096).sum())}); "
                    f"all logged twice+ {int((held > 1).sum())}; below Head never logged {int((held[:head - 2 * m] == 0).sum())}")
        low = btick < 2 * m  # below the ring's first ticket: no wave_faa could hand these out
        msg += (f"; min logged {int(btick.min()) if len(btick) else -1} (first ticket {2 * m}); logged below first ticket "
                f"{int(low.sum())}: {sorted(set(int(t) for t in btick[low]))[:20]}; held twice: {[int(t) for t in uniq[cnt > 1]][:12]}")
        print(msg, flush=True)
        if lost == 0:
            continue
        lost_runs += 1
        ent = before[KENT:KENT + 2 * m].astype(np.uint64)
        idx = (ent & np.uint64(IDX_MASK)).astype(np.int64)
        j = np.nonzero(idx < BOT)[0]
        cyc = (ent >> np.uint64(32)).astype(np.int64)
        tickets = cyc[j] * 2 * m + j
        stranded = np.sort(tickets[tickets < head])
        groups = np.split(stranded, np.nonzero(np.diff(stranded) != 1)[0] + 1)
        border = {int(t): int(th) for t, th in zip(btick, bthread)}

        def claimer(t):
            if not log_all:
                return None
            hit = cupy.nonzero(ct == t)[0]
            return int(hit[0]) // 4096 if len(hit) else None
        for g in groups[:12]:
            lo, hi = int(g[0]), int(g[-1])
            around = []
            for t in range(lo - 2, hi + 3):
                c = None if t in border else claimer(t)
                who = f"b{border[t]}" if t in border else (f"c{c}" if c is not None else "-")
                around.append(f"{t - lo:+d}:{who}")
            print(f"  stranded run {lo}..{hi} ({len(g)}), mod 32 {lo % 32}: " + " ".join(around), flush=True)
    print(f"SUMMARY {label} 2^{lg} {pct}%: {lost_runs} of {reps} runs lost", flush=True)
