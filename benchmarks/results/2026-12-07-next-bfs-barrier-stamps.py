"""Per-level stage stamps of the BFS grid forms with the level's barrier taken apart (run 382's
probe): run 379's red stamps (2026-12-02-h200-run293-297-bfs-stamps.py with
2026-12-02-next-bfs-stamps-red.patch, its expand strings moved to main's expand_row call), plus
three stamps of each block's waiter in the barrier that ends a level: just before its arrival
(the fence), once it has seen the flip, and once the level's words are in hand.
  python3 bfs_barrier_stamps.py SRC_TREE DST_TREE        patch a copy of SRC_TREE into DST_TREE
  python3 bfs_barrier_stamps.py run DST_TREE GRAPHDIR    (PYTHONPATH=DST_TREE) print the stage table
Stamps %globaltimer into stats[8 + level * 8 + stage] by red.max:
  0 max over blocks (thread 0) of the level's start (after the barrier before it), 1 the same's min,
  2 max over warps with work of the first item in hand, 3 of its expansion (with emits) done,
  4 of the drain done (flush included); in the barrier that ends the level, over blocks' waiters:
  5 the max of the arrival (before the fence), 6 the min of the flip seen, 7 the min of the
  level's words in hand. The grid's stamps are on sync_read's waiter path in every form; only the
  level's barrier sets Grid::tl_stats, so the others stamp nothing.
With STAMPS_AT=start (prepared for run 385, not run yet) stages 5-7 stamp instead the queue form's
level start, each the max over its warps with work: 5 the drain's start, 7 the first turn's start
(past the ballot that ends the loop), 6 its redraw issued; the compaction form leaves them 0.
With STAMPS_AT=held (run 390) stages 5-7 split the queue form's items instead: 5 the max over its
turns that took an element from its slot (some lane had not seen it at the barrier) of the item in
hand, 6 the same over turns whose every element was held, 7 the count of turns that took (red.add).
Neither mode needs grid.h's barrier strings, which main no longer has since run 389.
With STAMPS_AT=order (prepared for run 394) the stages are the default's first five, and each
block's thread 0 also writes its release time (the level's start) for the first ORDER_LEVELS levels
into stats[8 + LEVELS * 8 + level * 256 + block]: is the order in which the blocks see the release
the same at every level, and are the lowest blocks (where compaction's small levels put their
items) among the first?"""
import os, shutil, statistics, sys
from pathlib import Path
import numpy as np

LEVELS = 16384
LV, BQ, BC, GR = ("sssp_demo/include/sssp/" + f for f in ("bfs_levels.h", "bfs_queue.h", "bfs_compaction.h", "grid.h"))
STAMP = """#if GQ_DEVICE_BUILD
GQ_HD GQ_INLINE void tl_put(uint64_t* stats, uint32_t level, uint32_t stage, uint64_t v) {
  // red, not atom: no result, so no scoreboard that a later wait of the code being timed shares
  if (level < %d) asm volatile("red.relaxed.gpu.global.max.u64 [%%0], %%1;" :: "l"(stats + 8 + level * 8 + stage), "l"(v) : "memory");
}
GQ_HD GQ_INLINE uint64_t tl_now(uint32_t dep) {
  uint64_t t;
  asm volatile("mov.u64 %%0, %%%%globaltimer;" : "=l"(t) : "r"(dep) : "memory");
  return t;
}
// lane 0 of a warp, after every lane's `dep` is in hand
GQ_HD GQ_INLINE void tl_warp(uint64_t* stats, uint32_t level, uint32_t stage, uint32_t dep) {
  const uint64_t t = tl_now(gq::reduce_or(kFullWarp, dep));
  if (gq::lane_id() == 0) tl_put(stats, level, stage, t);
}
#else
GQ_HD GQ_INLINE void tl_put(uint64_t*, uint32_t, uint32_t, uint64_t) {}
GQ_HD GQ_INLINE uint64_t tl_now(uint32_t) { return 0; }
GQ_HD GQ_INLINE void tl_warp(uint64_t*, uint32_t, uint32_t, uint32_t) {}
#endif
struct Grid {""" % LEVELS
PATCHES = [
    (GR, "struct Grid {", STAMP),
    (GR, "  gq::ErrorFlag err;          // its raise() also sets kBarStopBits in the barrier word\n",
     "  gq::ErrorFlag err;          // its raise() also sets kBarStopBits in the barrier word\n"
     "  mutable uint64_t* tl_stats = nullptr;\n  mutable uint32_t tl_level = 0;\n"),
    (GR, "        go = arrive_and_wait();\n",
     "        if (tl_stats) tl_put(tl_stats, tl_level, 5, tl_now(0));\n        go = arrive_and_wait();\n"
     "        if (tl_stats) tl_put(tl_stats, tl_level, 6, ~tl_now(go));\n"),
    (GR, "        for (uint32_t k = 0; k < K; ++k) v[k] = go ? gq::load<gq::mo::relaxed>(words[k]) : 0u;  // all in flight\n",
     "        for (uint32_t k = 0; k < K; ++k) v[k] = go ? gq::load<gq::mo::relaxed>(words[k]) : 0u;  // all in flight\n"
     "        if (tl_stats) tl_put(tl_stats, tl_level, 7, ~tl_now(v[0] + v[K - 1]));\n"),
    (LV, "    if (!grid.sync_read({ctl + kBfsChunks0 + level % 2, next}, {&nchunks, &count}, size)) break;\n",
     "    grid.tl_stats = s.stats;\n    grid.tl_level = level;\n"
     "    const bool tl_go = grid.sync_read({ctl + kBfsChunks0 + level % 2, next}, {&nchunks, &count}, size);\n"
     "    grid.tl_stats = nullptr;\n    if (!tl_go) break;\n"),
    (LV, "    if (count == 0u) break;\n",
     "    if (count == 0u) break;\n    if (grid.thread == 0) {\n      const uint64_t t = tl_now(count);\n"
     "      tl_put(s.stats, level, 0, t);\n      tl_put(s.stats, level, 1, ~t);\n    }\n"),
    (BQ, "      expand_row(g, s, u, got, begin, row_end, level + 1, look, chunk_count, c, err, emit);\n",
     "      worked = true;\n      tl_warp(s.stats, level, 2, u);\n"
     "      expand_row(g, s, u, got, begin, row_end, level + 1, look, chunk_count, c, err, emit);\n"
     "      tl_warp(s.stats, level, 3, (uint32_t)c.edges);\n"),
    (BQ, "    uint64_t ahead = tickets.ahead;\n", "    uint64_t ahead = tickets.ahead;\n    bool worked = false;\n"),
    (BQ, "    tickets.swap();\n",
     "    tickets.swap();\n    if (worked) tl_warp(s.stats, level, 4, (uint32_t)c.edges);\n"),
    (BC, "    for_each_warp_uniform(grid, count, [&](uint32_t i, bool live) {\n"
         "      expand(g, s, live ? cur[i] : 0u, live, level + 1, look, chunk_count, c, err, emit);\n    });\n",
     "    bool worked = false;\n    for_each_warp_uniform(grid, count, [&](uint32_t i, bool live) {\n"
     "      const uint32_t u = live ? cur[i] : 0u;\n      worked = true;\n      tl_warp(s.stats, level, 2, u);\n"
     "      expand(g, s, u, live, level + 1, look, chunk_count, c, err, emit);\n"
     "      tl_warp(s.stats, level, 3, (uint32_t)c.edges);\n    });\n"
     "    if (worked) tl_warp(s.stats, level, 4, (uint32_t)c.edges);\n"),
]

MODE = os.environ.get("STAMPS_AT", "barrier")
START, HELD, ORDER = MODE == "start", MODE == "held", MODE == "order"
ORDER_LEVELS = 1024
if ORDER:
    PATCHES = [(f, o, n.replace("      tl_put(s.stats, level, 1, ~t);\n",
                                "      tl_put(s.stats, level, 1, ~t);\n      tl_block(s.stats, level, grid.block, t);\n"))
               for f, o, n in PATCHES]
    PATCHES += [(GR, "struct Grid {", "#if GQ_DEVICE_BUILD\nGQ_HD GQ_INLINE void tl_block(uint64_t* stats, uint32_t level, uint32_t block, uint64_t t) {\n"
                 "  if (level < %d && block < 256) stats[8 + %d * 8 + level * 256 + block] = t;\n"
                 "}\n#else\nGQ_HD GQ_INLINE void tl_block(uint64_t*, uint32_t, uint32_t, uint64_t) {}\n#endif\nstruct Grid {"
                 % (ORDER_LEVELS, LEVELS))]
if START or HELD or ORDER:
    PATCHES = [x for x in PATCHES if x[0] != LV or "sync_read" not in x[1]]
    PATCHES = [x for x in PATCHES if not (x[0] == GR and "tl_stats" in x[2] and "mutable" not in x[2])]
if HELD:
    PATCHES = [(f, o, n.replace("      tl_warp(s.stats, level, 2, u);\n",
                                "      tl_warp(s.stats, level, 2, u);\n      tl_warp(s.stats, level, tl_took ? 5 : 6, u);\n"
                                "      if (tl_took && gq::lane_id() == 0) tl_add(s.stats, level, 7);\n") if f == BQ else n)
               for f, o, n in PATCHES]
    PATCHES += [(BQ, "      uint32_t u = tickets.item;\n",
                 "      const bool tl_took = gq::ballot(kFullWarp, have && !held) != 0u;\n      uint32_t u = tickets.item;\n"),
                (GR, "struct Grid {", "#if GQ_DEVICE_BUILD\nGQ_HD GQ_INLINE void tl_add(uint64_t* stats, uint32_t level, uint32_t stage) {\n"
                 "  if (level < %d) asm volatile(\"red.relaxed.gpu.global.add.u64 [%%0], 1;\" :: \"l\"(stats + 8 + level * 8 + stage) : \"memory\");\n"
                 "}\n#else\nGQ_HD GQ_INLINE void tl_add(uint64_t*, uint32_t, uint32_t) {}\n#endif\nstruct Grid {" % LEVELS)]
if START:
    PATCHES = [(f, o, n + "    if (gq::ballot(kFullWarp, ahead < end)) tl_warp(s.stats, level, 5, (uint32_t)end);\n")
               if o == "    uint64_t ahead = tickets.ahead;\n" else (f, o, n) for f, o, n in PATCHES]
    PATCHES += [(BQ, "      const bool spent", "      tl_warp(s.stats, level, 7, (uint32_t)ahead);\n      const bool spent"),
                (BQ, "      uint32_t u = tickets.item;\n",
                 "      tl_warp(s.stats, level, 6, (uint32_t)redraw.mask);\n      uint32_t u = tickets.item;\n")]

if sys.argv[1] != "run":
    src, dst = Path(sys.argv[1]), Path(sys.argv[2])
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    # run 395's tree (row heads read at the barrier) passes two more arguments to expand_row
    EXPAND = "c, err, emit);\n"
    for f, old, new in PATCHES:
        p = dst / f
        s = p.read_text()
        if f == BQ and "expand_row(" in old and s.count(old) == 0:
            old = old.replace(EXPAND, "c, err, emit, held, tickets.heads);\n")
            new = new.replace("chunk_count, " + EXPAND, "chunk_count, c, err, emit, held, tickets.heads);\n")
        assert s.count(old) == 1, (f, old)
        p.write_text(s.replace(old, new))
    sys.exit(0)

import cupy
from sssp_demo import bfs as B
tree, d = sys.argv[2], Path(sys.argv[3])


def order_of(name, algorithm, r, blocks):
    """Each block's release after the level's first, over the levels that stamped every block."""
    r = r[:, :blocks]
    r = r[(r > 0).all(axis=1)]
    if len(r) < 4:
        print(f"{name} {algorithm}: {len(r)} levels stamped by every block")
        return
    off = (r - r.min(axis=1, keepdims=True)) / 1000.0  # us after the level's first release
    mean = off.mean(axis=0)
    half = len(off) // 2
    a, b = off[:half].mean(axis=0), off[half:].mean(axis=0)
    rank = lambda x: np.argsort(np.argsort(x))
    rho = np.corrcoef(rank(a), rank(b))[0, 1]
    early = np.argsort(mean)
    print(f"{name} {algorithm}: {len(off)} levels; a block's release after the first, mean over levels: "
          f"blocks 0-3 {mean[:4].mean():.3f} us, all {mean.mean():.3f}, earliest block {mean.min():.3f}, "
          f"latest {mean.max():.3f}; rank correlation of the two halves' means {rho:.2f}")
    print(f"   earliest blocks {early[:8].tolist()}, latest {early[-8:].tolist()}; "
          f"per-level spread median {np.median(off.max(axis=1)):.3f} us")
assert B.__file__.startswith(tree), B.__file__
for name in ("road-24M", "road-2M", "delaunay-21"):
    z = np.load(d / f"{name}.npz")
    dg = B.DeviceGraph.upload(z["indptr"], z["indices"], int(z["n"]))
    for algorithm in ("compaction", "queue"):
        run = B.CudaBfs(dg, algorithm, "sfq", budget_s=2.0, blocks_per_sm=1)
        run.stats = cupy.zeros(8 + LEVELS * 8 + (ORDER_LEVELS * 256 if ORDER else 0), cupy.uint64)
        run.time(int(z["source"]), repeats=3, warmup=1)
        depth, _, st = run.run(int(z["source"]))
        assert np.array_equal(depth.get(), z["ref"])
        got = run.stats.get()
        a = got[8:8 + LEVELS * 8].reshape(LEVELS, 8).astype(np.int64)
        if ORDER:
            order_of(name, algorithm, got[8 + LEVELS * 8:].reshape(ORDER_LEVELS, 256).astype(np.int64), run.blocks)
        L = min(int(st["levels"]), LEVELS) - 1
        a = a[:L + 1]
        first = ~a[:, 1].astype(np.uint64)
        first = first.astype(np.int64)
        work = a[:, 2] > 0
        fl = (~a[:, 6].astype(np.uint64)).astype(np.int64)
        fw = (~a[:, 7].astype(np.uint64)).astype(np.int64)
        rows = {"release spread (last - first block)": a[:-1, 0] - first[:-1],
                "first release -> last item in hand": (a[:, 2] - first)[work],
                "item -> expansion done (last)": (a[:, 3] - a[:, 2])[work],
                "expansion -> drain done (last)": (a[:, 4] - a[:, 3])[work],
                "drain done -> next first release": (first[1:] - a[:-1, 4])[work[:-1]],
                "  drain done -> last arrival": (a[:-1, 5] - a[:-1, 4])[work[:-1]],
                "  last arrival -> first flip seen": (fl[:-1] - a[:-1, 5]),
                "  first flip seen -> first words in hand": (fw[:-1] - fl[:-1]),
                "  first words in hand -> first release": (first[1:] - fw[:-1]),
                "level (first release to next)": first[1:] - first[:-1]}
        if START:
            rows = {k: v for k, v in rows.items() if not k.startswith("  ")}
            if a[:, 5].any():
                rows.update({"  first release -> drain start": (a[:, 5] - first)[work],
                             "  drain start -> first turn start": (a[:, 7] - a[:, 5])[work],
                             "  first turn start -> redraw issued": (a[:, 6] - a[:, 7])[work],
                             "  redraw issued -> item in hand": (a[:, 2] - a[:, 6])[work]})
        if ORDER:
            rows = {k: v for k, v in rows.items() if not k.startswith("  ")}
        if HELD:
            rows = {k: v for k, v in rows.items() if not k.startswith("  ")}
            took, kept = a[:, 5] > 0, a[:, 6] > 0
            rows.update({"  first release -> last taken item": (a[:, 5] - first)[took],
                         "  first release -> last held item": (a[:, 6] - first)[kept],
                         "  turns that took a slot, a level (x1000)": a[work, 7] * 1000,
                         "  levels whose last item was taken (x1000)": ((a[:, 5] > a[:, 6]) * 1000)[work]})
        print(f"{name} {algorithm} kernel ms {statistics.median(run.kernel_ms):.2f} levels {L + 1}")
        for k, v in rows.items():
            if not len(v):  # a split this form does not stamp (HELD's, in compaction)
                continue
            v = v.astype(np.float64) / 1000.0
            print(f"   {k:40s} median {np.median(v):6.2f} us  mean {v.mean():6.2f}  p90 {np.percentile(v, 90):6.2f}  sum {v.sum() / 1000:7.2f} ms")
