"""Timeline patches for the BFS probe trees (runs/, not shipped): BFS_TIMELINE stamps %globaltimer
into stats[8 + level * 8 + stage] by atomicMax (lane 0 of each warp with work):
  0 leader at the level's start (after the barrier), 1 a warp's first item in hand,
  2 its expansion done, 3 its flush done (queue) / expansion done (compaction), 7 the count."""

LEVELS = 16384
STAMP_FN = ("struct BfsCounts {", """#if GQ_DEVICE_BUILD
GQ_HD GQ_INLINE void tl_stamp(uint64_t* stats, uint32_t level, uint32_t stage, uint32_t dep) {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "r"(dep) : "memory");
  if (gq::lane_id() == 0 && level < %d)
    atomicMax(reinterpret_cast<unsigned long long*>(stats + 8 + level * 8 + stage), (unsigned long long)t);
}
#else
GQ_HD GQ_INLINE void tl_stamp(uint64_t*, uint32_t, uint32_t, uint32_t) {}
#endif
struct BfsCounts {""".replace("%d", str(LEVELS)))
LEVEL0 = ("""    if (gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3) == 0u) break;""",
          """    if (grid.leader()) tl_stamp(s.stats, level, 0, 0);
    if (gq::load<gq::mo::relaxed>(ctl + kBfsFrontier0 + level % 3) == 0u) break;""")
Q1 = ("""        const bool got = have && frontier_take(cur, &u, tid, err);
        warp_count(took, got);
        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);""",
      """        const bool got = have && frontier_take(cur, &u, tid, err);
        worked = true;
        tl_stamp(s.stats, level, 1, u);
        warp_count(took, got);
        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        tl_stamp(s.stats, level, 2, (uint32_t)c.edges);""")
Q0 = ("""    const bool look = looks_first(grid, count);
    if (kBlockingFrontier) {""", """    const bool look = looks_first(grid, count);
    bool worked = false;
    if (kBlockingFrontier) {""")
Q3 = ("""    emit.flush();
  };
  auto check""", """    emit.flush();
    if (worked) tl_stamp(s.stats, level, 3, (uint32_t)c.edges);
  };
  auto check""")
C1 = ("""      expand(g, s, live ? cur[i] : 0u, live, level + 1, look, chunk_count, c, err, emit);""",
      """      const uint32_t u = live ? cur[i] : 0u;
      tl_stamp(s.stats, level, 1, u);
      expand(g, s, u, live, level + 1, look, chunk_count, c, err, emit);
      tl_stamp(s.stats, level, 2, (uint32_t)c.edges);
      tl_stamp(s.stats, level, 3, (uint32_t)c.edges);""")
LV = "sssp_demo/include/sssp/bfs_levels.h"
BQ = "sssp_demo/include/sssp/bfs_queue.h"
BC = "sssp_demo/include/sssp/bfs_compaction.h"
PATCHES = [(LV,) + STAMP_FN, (LV,) + LEVEL0, (BQ,) + Q0, (BQ,) + Q1, (BQ,) + Q3, (BC,) + C1]

# TL2 (SFQ builds only, GQ_QUEUE_KIND 2): stamps inside the flush: 4 at its entry, 5 after the
# shuffles, 6 with the ticket in hand, 7 after the put.
TL2_MEMBER = ("""  uint32_t count = 0, level = 0;
""", """  uint32_t count = 0, level = 0;
  uint64_t* tls = nullptr;
""")
TL2_SET = ("""  QueueEmit emit{q, tid, ctl, err};
""", """  QueueEmit emit{q, tid, ctl, err};
  emit.tls = s.stats;
""")
TL2_ENTRY = ("""    const uint32_t incl = warp_inclusive_sum(count);
    const uint32_t total = gq::shuffle(kFullWarp, incl, kWarp - 1);
    const gq::Queue& out = q[level & 1];""", """    tl_stamp(tls, level - 1, 4, count);
    const uint32_t incl = warp_inclusive_sum(count);
    const uint32_t total = gq::shuffle(kFullWarp, incl, kWarp - 1);
    const gq::Queue& out = q[level & 1];""")
TL2_PUT = ("""      if (want < total && !frontier_put(out, v, tid, err) && !err.raised())
        err.raise(gq::kCapacity, gq::kSiteFrontier, level);""", """#if GQ_QUEUE_KIND == 2
      tl_stamp(tls, level - 1, 5, v);
      bool ok = true;
      if (want < total) {
        const uint64_t t = gq::wave_faa<gq::mo::acquire>(out.tail());
        tl_stamp(tls, level - 1, 6, (uint32_t)t);
        ok = out.put(t, v, err);
      }
      tl_stamp(tls, level - 1, 7, ok);
      if (!ok && !err.raised()) err.raise(gq::kCapacity, gq::kSiteFrontier, level);
#else
      if (want < total && !frontier_put(out, v, tid, err) && !err.raised())
        err.raise(gq::kCapacity, gq::kSiteFrontier, level);
#endif""")
TL2 = PATCHES + [(BQ,) + TL2_MEMBER, (BQ,) + TL2_SET, (BQ,) + TL2_ENTRY, (BQ,) + TL2_PUT]
