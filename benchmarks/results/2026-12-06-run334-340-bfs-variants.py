"""Probe trees of runs 334-340 (not shipped): the queue BFS's (SFQ's) level taken apart against compaction's.
  python3 2026-12-06-run334-340-bfs-variants.py HEAD_TREE OUT_DIR
HEAD_TREE is `git archive 4e415fb` unpacked; OUT_DIR gets one tree per variant:
  cg    the graph's indptr/indices loads past L1 (__ldcg), both forms          (run 334)
  rank  item i taken by thread rank i, compaction's placement, no draws       (runs 335-336)
  low   the threads of rank below the level's size each make one blocking
        dequeue at the level's start (the tickets drawn then)                  (run 335)
  r1    rank, the take a plain 32-bit load of the slot's value half (no turn, no hand-back)  (run 336)
  r3    rank, the emit compaction's warp_append on Tail's low half, 64-bit slot words        (run 336)
  r13   r1 and r3                                                              (runs 336-337)
  r4    r13 with the level's size counted in C (ctl), slots from 0 each level  (runs 337-338)
  r5    r4 over 32-bit words in the slot array: compaction's protocol in the queue's memory   (runs 337-338)
  r6    r4 with weak 64-bit stores; r7: r5 with relaxed 32-bit stores          (run 338)
  r8    r5 with a second 32-bit store per element, into an array of its own
        (a turn array apart from the values)                                   (run 340)
  w     head with SFQ's relaxed batch stores weak; w2: w and the take's first read weak      (run 338)"""
import shutil, sys
from pathlib import Path

head, out = Path(sys.argv[1]), Path(sys.argv[2])
BQ, LV, SFQ = "sssp_demo/include/sssp/bfs_queue.h", "sssp_demo/include/sssp/bfs_levels.h", "queues_cuda/include/gq/sfq.cuh"


def variant(name, base, edits):
    shutil.copytree(out / base if base != "head" else head, out / name)
    for path, old, new in edits:
        p = out / name / path
        s = p.read_text()
        assert old in s, (name, old[:60])
        p.write_text(s.replace(old, new))


variant("cg", "head", [
    (LV, '#include "advance.h"\n', '#include "advance.h"\n#if defined(__CUDA_ARCH__)\n#define GLD(p) __ldcg(p)\n#else\n#define GLD(p) (*(p))\n#endif\n'),
    (LV, "(uint32_t)g.indices[e]", "(uint32_t)GLD(g.indices + e)"),
    (LV, "have ? g.indptr[u] : 0, end = have ? g.indptr[u + 1] : 0", "have ? GLD(g.indptr + u) : 0, end = have ? GLD(g.indptr + u + 1) : 0")])

src = (head / BQ).read_text()
start = src.index("  auto drain = [&](uint32_t level, uint32_t count, BfsCounts& c) {\n    const Q cur = q[level];\n"
                  "    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;\n    const bool look = looks_first(grid, count);\n"
                  "    // A lane whose ticket")
stop_mark = "    tickets.ahead = ahead;\n    tickets.swap();\n  };\n"
old_drain = src[start:src.index(stop_mark) + len(stop_mark)]
draws = ("  tickets.ahead = gq::wave_faa<gq::mo::relaxed>(q.even.head());  // every lane's first run on each queue\n"
         "  tickets.ahead_next = gq::wave_faa<gq::mo::relaxed>(q.odd.head());\n")
head_of = ("  auto drain = [&](uint32_t level, uint32_t count, BfsCounts& c) {\n    const Q cur = q[level];\n"
           "    uint32_t* chunk_count = ctl + kBfsChunks0 + level % 2;\n    const bool look = looks_first(grid, count);\n")
rank = head_of + """    const uint64_t first = tickets.end;  // PROBE: item i taken by thread rank i (compaction's placement), no draws
    tickets.end += count;
    for_each_warp_uniform(grid, count, [&](uint32_t i, bool live) {
      uint32_t u = 0;
      const bool got = live && cur.template take<gq::mo::relaxed>(first + i, &u, err);
      expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
    });
    tickets.swap();
  };
"""
low = head_of + """    tickets.end += count;  // PROBE: the threads of rank below count each make one blocking dequeue (drawn now)
    for_each_warp_uniform(grid, count, [&](uint32_t i, bool live) {
      uint32_t u = 0;
      bool got = false;
      if (live) got = cur.template dequeue<gq::mo::relaxed>(&u, 0, err);
      expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
    });
    tickets.swap();
  };
"""
variant("rank", "head", [(BQ, old_drain, rank), (BQ, draws, "  // PROBE: no draws ahead\n")])
variant("low", "head", [(BQ, old_drain, low), (BQ, draws, "  // PROBE: no draws ahead\n")])

take = (BQ, "const bool got = live && cur.template take<gq::mo::relaxed>(first + i, &u, err);",
        """// PROBE R1: a plain 32-bit load of the slot's value half, no turn, no hand-back
      if (live) u = reinterpret_cast<const uint32_t*>(cur.slot(first + i))[0];
      const bool got = live;""")
emit = (BQ, """    if (!q[lvl].template enqueue_batch<kEdgeBatch, gq::mo::relaxed>(v, fresh, err) && !err.raised())
      err.raise(gq::kCapacity, gq::kSiteFrontier, lvl);""",
        """    // PROBE R3: compaction's warp_append on Tail's low half, then the slots' 64-bit words (lap 0)
    uint32_t n = 0;
    for (uint32_t j = 0; j < kEdgeBatch; ++j) n += fresh[j] ? 1u : 0u;
    const uint32_t at = warp_append(const_cast<uint32_t*>(q[lvl].tail_low()), n, 0xFFFFFFFFu, err);
    for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
      if (fresh[j]) gq::store<gq::mo::relaxed>(q[lvl].slot(at + i++), (1ull << 32) | v[j]);""")
variant("r1", "rank", [take])
variant("r3", "rank", [emit])
variant("r13", "rank", [take, emit])

r3_append = """    const uint32_t at = warp_append(const_cast<uint32_t*>(q[lvl].tail_low()), n, 0xFFFFFFFFu, err);
    for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
      if (fresh[j]) gq::store<gq::mo::relaxed>(q[lvl].slot(at + i++), (1ull << 32) | v[j]);"""
counted = [
    (BQ, "template <class Q>\nstruct BatchEmit {\n  LevelPair<Q> q;  // as QueueEmit's\n  const gq::ErrorFlag& err;",
     "template <class Q>\nstruct BatchEmit {\n  LevelPair<Q> q;  // as QueueEmit's\n  const gq::ErrorFlag& err;\n  uint32_t* ctl;"),
    (BQ, "BatchEmit<Q> emit{q, err};", "BatchEmit<Q> emit{q, err, ctl};"),
    (BQ, "bfs_levels(grid, g, s, tickets, drain, emit, check, c);", "CountedSize size{ctl};\n  bfs_levels(grid, g, s, size, drain, emit, check, c);"),
    (BQ, "    if (grid.leader()) q.even.enqueue(source, grid.rank(), grid.err);",
     "    if (grid.leader()) { gq::store<gq::mo::relaxed>(q.even.slot(0), (1ull << 32) | source); "
     "reinterpret_cast<uint32_t*>(q.even.slot(0))[0] = source; gq::store<gq::mo::relaxed>(grid.ctl + kBfsFrontier0, 1u); }  // PROBE")]
wide_take = (BQ, "if (live) u = reinterpret_cast<const uint32_t*>(cur.slot(first + i))[0];",
             "if (live) u = reinterpret_cast<const uint32_t*>(cur.slot(i))[0];")
narrow_take = (BQ, "if (live) u = reinterpret_cast<const uint32_t*>(cur.slot(first + i))[0];",
               "if (live) u = reinterpret_cast<const uint32_t*>(cur.slot(0))[i];")
variant("r4", "r13", counted + [wide_take, (BQ, r3_append, """    const uint32_t at = warp_append(ctl + kBfsFrontier0 + lvl % 3, n, 0xFFFFFFFFu, err);  // PROBE R4: count in C
    for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
      if (fresh[j]) gq::store<gq::mo::relaxed>(q[lvl].slot(at + i++), (1ull << 32) | v[j]);""")])
variant("r5", "r13", counted + [narrow_take, (BQ, r3_append, """    const uint32_t at = warp_append(ctl + kBfsFrontier0 + lvl % 3, n, 0xFFFFFFFFu, err);  // PROBE R5: count in C, 32-bit words
    uint32_t* list = reinterpret_cast<uint32_t*>(q[lvl].slot(0));
    for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
      if (fresh[j]) list[at + i++] = v[j];""")])
variant("r6", "r4", [(BQ, "if (fresh[j]) gq::store<gq::mo::relaxed>(q[lvl].slot(at + i++), (1ull << 32) | v[j]);",
                      "if (fresh[j]) *q[lvl].slot(at + i++) = (1ull << 32) | v[j];  // PROBE R6: weak 64-bit stores")])
variant("r7", "r5", [(BQ, "if (fresh[j]) list[at + i++] = v[j];",
                      "if (fresh[j]) gq::store<gq::mo::relaxed>(list + at + i++, v[j]);  // PROBE R7: relaxed 32-bit stores")])
variant("r8", "r5", [(BQ, """    uint32_t* list = reinterpret_cast<uint32_t*>(q[lvl].slot(0));
    for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
      if (fresh[j]) list[at + i++] = v[j];""", """    uint32_t* list = reinterpret_cast<uint32_t*>(q[lvl].slot(0));
    uint32_t* turns = list + q[lvl].n;  // PROBE R8: a 32-bit turn word per element in an array of its own
    for (uint32_t j = 0, i = 0; j < kEdgeBatch; ++j)
      if (fresh[j]) {
        list[at + i] = v[j];
        turns[at + i++] = 1u;
      }""")])
variant("w", "head", [(SFQ, "        if (use[j]) store<mo::relaxed>(base + kSlots + at[j], ((uint64_t)(2u * lap_of[j] + 1u) << 32) | v[j]);",
                       """        if (use[j]) {
          const uint64_t word = ((uint64_t)(2u * lap_of[j] + 1u) << 32) | v[j];
          if (Publish == mo::relaxed) base[kSlots + at[j]] = word;  // PROBE W: weak
          else store<mo::relaxed>(base + kSlots + at[j], word);
        }""")])
variant("w2", "w", [(SFQ, """    while (turn_of(w = load<kRead>(slot(t))) != want)
      if (!spin.step(err, kSiteSfqDequeueTurn, t)) return false;""",
                     """    w = Publish == mo::relaxed ? *slot(t) : load<kRead>(slot(t));  // PROBE W2: a weak first read
    while (turn_of(w) != want) {
      if (!spin.step(err, kSiteSfqDequeueTurn, t)) return false;
      w = load<kRead>(slot(t));
    }""")])
