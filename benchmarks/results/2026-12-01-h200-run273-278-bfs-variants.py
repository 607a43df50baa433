"""Probe trees for the queue BFS: copies of the working tree's python packages with SFQ's memory
orders changed (runs/, not shipped). python3 runs/bfs_variants.py DEST"""
import shutil, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SFQ = "queues_cuda/include/gq/sfq.cuh"
PUT = ("store<mo::release>(slot(t), ((uint64_t)(want + 1u) << 32) | v);",
       "store<mo::relaxed>(slot(t), ((uint64_t)(want + 1u) << 32) | v);")
TICK = [("return put(wave_faa<mo::acquire>(tail()), v, err);", "return put(wave_faa<mo::relaxed>(tail()), v, err);"),
        ("return take(wave_faa<mo::acquire>(head()), out, err);", "return take(wave_faa<mo::relaxed>(head()), out, err);")]
TAKE = ("while (turn_of(w = load<mo::acquire>(slot(t))) != want)", "while (turn_of(w = load<mo::relaxed>(slot(t))) != want)")
CAS_PUT = ("""    while (turn_of(load<mo::relaxed>(slot(t))) != want)
      if (!spin.step(err, kSiteSfqEnqueueTurn, t)) return false;
    store<mo::release>(slot(t), ((uint64_t)(want + 1u) << 32) | v);""", """    const uint64_t open = (uint64_t)want << 32;
    while (cas<mo::release>(slot(t), open, ((uint64_t)(want + 1u) << 32) | v) != open)
      if (!spin.step(err, kSiteSfqEnqueueTurn, t)) return false;""")
CAS_PUT_R = (CAS_PUT[0], CAS_PUT[1].replace("cas<mo::release>", "cas<mo::relaxed>"))
BQ = "sssp_demo/include/sssp/bfs_queue.h"
ERR = ("""        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        if (gq::ballot(kFullWarp, err.raised())) break;""", """        expand(g, s, u, got, level + 1, look, chunk_count, c, err, emit);
        if (gq::ballot(kFullWarp, k + grid.size() < count && err.raised())) break;""")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bfs_timeline import PATCHES as TL, TL2
NOINLINE = (BQ, "  GQ_HD void flush() {", "  GQ_HD GQ_NOINLINE void flush() {")
VARIANTS = {"base": [], "TL": TL, "TL2": TL2, "N": [NOINLINE], "NTL": [NOINLINE] + TL,
            "NECR": [NOINLINE, (BQ,) + ERR, CAS_PUT_R] + TICK + [TAKE], "ECRTL": [(BQ,) + ERR, CAS_PUT_R] + TICK + [TAKE] + TL, "E": [(BQ,) + ERR], "C": [CAS_PUT], "EC": [(BQ,) + ERR, CAS_PUT],
            "ECR": [(BQ,) + ERR, CAS_PUT_R] + TICK + [TAKE]}


def make(dest: Path):
    for name, subs in VARIANTS.items():
        t = dest / name
        if t.exists():
            shutil.rmtree(t)
        for d in ("queues_cuda", "sssp_demo", "tools"):
            shutil.copytree(ROOT / d, t / d, ignore=shutil.ignore_patterns("__pycache__"))
        for sub in subs:
            path, old, new = sub if len(sub) == 3 else (SFQ,) + sub
            p = t / path
            text = p.read_text()
            assert text.count(old) == 1, (name, old)
            p.write_text(text.replace(old, new))
        print(name, len(subs), "substitutions")


if __name__ == "__main__":
    make(Path(sys.argv[1]))
