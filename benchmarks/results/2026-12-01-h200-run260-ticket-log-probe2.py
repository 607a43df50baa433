"""With the tree patched by `ticket_log_patch.py TREE blind2`: split runs of the wave stress, every blind
ticket's record [h, base, mask << 32 | lane, ns]; groups checked. usage: STRESS_CASES=18:25:6 python3 ticket_log_probe2.py"""
import os
from collections import defaultdict

import cupy
import numpy as np

from queues_cuda.bench_queues import _CudaBench, KERNEL_IDS, BLOCK, WORDS, PRODUCERS_LEFT, ALL_ENQ, ALL_DEQ, most, producer_threads
from queues_cuda.errors import raise_if_flagged
from queues_cuda.queues import QUEUES

HOT = 512
KHEAD, KENT = 0, 3 * HOT
IDX_MASK = (1 << 31) - 1
BOT = IDX_MASK - 1
K = 256
cases = [tuple(int(x) for x in c.split(":")) for c in os.environ.get("STRESS_CASES", "18:25:6").split(",")]
bench = _CudaBench(QUEUES["glfq"], ("GQ_STRESS_BLIND_WAVE",))
u32, u64 = np.uint32, np.uint64


def popc(x):
    return np.unpackbits(x.astype(">u4").view(np.uint8)).reshape(len(x), 32).sum(1).astype(np.int64)


for lg, pct, reps in cases:
    for rep in range(reps):
        run_threads, min_blocks = bench.resident(1 << lg)
        mod = bench.module(min_blocks)
        capacity = run_threads
        words_out = cupy.zeros(1, cupy.uint64)
        mod.get_function("gq_bench_words")((1,), (1,), (u64(capacity), u64(run_threads), words_out))
        words = int(words_out.get()[0])
        buf = cupy.empty(words, cupy.uint64)
        mod.get_function("gq_bench_init")((min(-(-words // BLOCK), 65535),), (BLOCK,), (buf, u64(capacity), u64(run_threads), u64(words)))
        grid = -(-run_threads // BLOCK) * BLOCK
        blog, blog_n = cupy.zeros(grid * K * 4, cupy.uint64), cupy.zeros(grid, cupy.uint32)
        for name, val in (("gq_blog", blog.data.ptr), ("gq_blog_n", blog_n.data.ptr), ("gq_log_ring", buf.data.ptr)):
            cupy.ndarray((1,), cupy.uint64, mod.get_global(name))[...] = val
        host_counts = np.zeros(WORDS, np.uint64)
        host_counts[PRODUCERS_LEFT] = producer_threads(run_threads, pct, 32)
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
        cupy.ndarray((1,), cupy.uint64, mod.get_global("gq_log_ring"))[...] = 0
        out = cupy.zeros(1, cupy.uint64)
        drainers = min(run_threads, 4096)
        mod.get_function("gq_bench_drain")((-(-drainers // BLOCK),), (BLOCK,),
                                           (buf, u64(capacity), u32(run_threads), u32(drainers), u64(most(host)), out, err))
        cupy.cuda.Device().synchronize()
        lost = left - int(out.get()[0])
        bn = blog_n.get()
        rec = blog.get().reshape(grid, K, 4)
        sel = np.arange(K)[None, :] < np.minimum(bn, K)[:, None]
        thr = np.nonzero(sel)[0]
        r = rec[sel]
        h, base, mask, lane, ns = r[:, 0].astype(np.int64), r[:, 1].astype(np.int64), (r[:, 2] >> 32).astype(np.int64), (r[:, 2] & 0xFFFFFFFF).astype(np.int64), r[:, 3].astype(np.int64)
        warp = thr // 32
        bad_lane = int((lane != thr % 32).sum())
        not_in_mask = int((((mask >> lane) & 1) == 0).sum())
        uniq, cnt = np.unique(h, return_counts=True)
        dup = uniq[cnt > 1]
        print(f"2^{lg} {pct}% rep {rep} (min blocks {min_blocks}): LOST {lost}; blind {int(bn.sum())}, logged {len(h)} "
              f"(threads over {K}: {int((bn > K).sum())}); lane != tid%32: {bad_lane}; lane not in own mask: {not_in_mask}; tickets held twice+: {len(dup)}", flush=True)
        # Groups: records with the same warp, base and mask. A group should have one record per lane of its mask.
        groups = defaultdict(list)
        for i in range(len(h)):
            groups[(int(warp[i]), int(base[i]), int(mask[i]))].append(i)
        short = [(k, v) for k, v in groups.items() if len(v) != bin(k[2]).count("1")]
        same_base = defaultdict(set)
        for (w, b, mk) in groups:
            same_base[b].add((w, mk))
        shared = {b: v for b, v in same_base.items() if len(v) > 1}
        print(f"  groups {len(groups)}; with records != lanes of mask: {len(short)}; bases shared by two groups: {len(shared)}", flush=True)
        for (w, b, mk), v in short[:6]:
            print(f"    group warp {w} base {b} mask {mk:08x} ({bin(mk).count('1')} lanes): records lanes {sorted(int(lane[i]) for i in v)} h {sorted(int(h[i]) for i in v)} ns {sorted(int(ns[i]) for i in v)[:3]}", flush=True)
        for b, v in list(shared.items())[:6]:
            print(f"    base {b} taken by {sorted(v)}", flush=True)
        for t in dup[:6]:
            ii = np.nonzero(h == t)[0]
            print(f"    ticket {int(t)} held by " + "; ".join(f"tid {int(thr[i])} lane {int(lane[i])} base {int(base[i])} mask {int(mask[i]):08x} ns {int(ns[i])}" for i in ii), flush=True)
        if lost:
            ent = before[KENT:KENT + 2 * m].astype(np.uint64)
            idx = (ent & np.uint64(IDX_MASK)).astype(np.int64)
            j = np.nonzero(idx < BOT)[0]
            cyc = (ent >> np.uint64(32)).astype(np.int64)
            tickets = cyc[j] * 2 * m + j
            stranded = np.sort(tickets[tickets < head])
            runs_ = np.split(stranded, np.nonzero(np.diff(stranded) != 1)[0] + 1)
            starts = base
            ends = base + popc(mask)
            for g in runs_[:8]:
                lo, hi = int(g[0]), int(g[-1])
                cover = np.nonzero((starts <= lo) & (ends > lo))[0]
                desc = "; ".join(f"tid {int(thr[i])} lane {int(lane[i])} h {int(h[i])} base {int(base[i])} mask {int(mask[i]):08x}" for i in cover[:6])
                print(f"  stranded {lo}..{hi} ({len(g)}): covering blind records: {desc or 'none'}", flush=True)
