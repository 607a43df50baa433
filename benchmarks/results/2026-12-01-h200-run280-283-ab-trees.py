"""A/B trees of runs 280-281: copies of the working tree's packages, with one half of the change
taken back by a text patch (runs/ab_trees.py then, not shipped).
  python3 runs/ab_trees.py DEST 280   # on 0752379's working tree: new, L0, R
  python3 runs/ab_trees.py DEST 281   # on 5d8d660's working tree: new, K0"""
import shutil, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SFQ = "queues_cuda/include/gq/sfq.cuh"
BQ = "sssp_demo/include/sssp/bfs_queue.h"
LV = "sssp_demo/include/sssp/bfs_levels.h"
# L0: lap 0 reads no turn, the BFS keeps release/acquire
KEEP_ORDER = [(BQ, "q.template dequeue<gq::mo::relaxed>(v, tid, err)", "q.dequeue(v, tid, err)"),
              (BQ, "enqueue_batch<kEdgeBatch, gq::mo::relaxed>", "enqueue_batch<kEdgeBatch>")]
# R: relaxed BFS, every lap reads its turns
READ_TURNS = [(SFQ, "const bool fresh = first + count <= n || kEveryLapFresh;", "const bool fresh = kEveryLapFresh;")]
# K0: the level's count read beside the chunk count, the bookkeeping kept on the leader
LEADER = [(LV, "const bool keeper = grid.rank() == grid.size() - 1u;", "const bool keeper = grid.leader();")]
ERR = [(BQ, """        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        if (gq::ballot(kFullWarp, err.raised())) break;""", """        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        if (gq::ballot(kFullWarp, k + grid.size() < count && err.raised())) break;""")]
SETS = {"283": {"base": [], "E": ERR}, "280": {"new": [], "L0": KEEP_ORDER, "R": READ_TURNS}, "281": {"new": [], "K0": LEADER}}


def make(dest: Path, variants: dict):
    for name, subs in variants.items():
        t = dest / name
        if t.exists():
            shutil.rmtree(t)
        for d in ("queues_cuda", "sssp_demo", "tools"):
            shutil.copytree(ROOT / d, t / d, ignore=shutil.ignore_patterns("__pycache__"))
        for path, old, new in subs:
            p = t / path
            text = p.read_text()
            assert text.count(old) == 1, (name, old)
            p.write_text(text.replace(old, new))
        print(name, len(subs), "substitutions")


if __name__ == "__main__":
    make(Path(sys.argv[1]), SETS[sys.argv[2]])
