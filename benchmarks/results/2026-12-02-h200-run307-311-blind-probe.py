"""Runs 307-311: a queue's benchmark kernel (G-LFQ, or G-WFQ with QUEUE=gwfq) in several builds,
one build a variant: does drawing blind tickets (a bare wave_faa on Head, without the claim's reads
of Head and Tail) pay, now that wave_faa hands out right tickets (run 267)?

usage, from the root of the tree to time (PYTHONPATH there):
  VARIANTS="name=DEF1+DEF2,name2=" [QUEUE=glfq] [SIZES=12,14,16,17,18] [RUNS=5] \
      python3 blind_probe.py OUT_DIR ROUNDS TAG
Each variant is the tree's build with those defines; every point (balanced, and the 25/50/75 %
splits, at 2^SIZES threads) is `bench_queues.run_point` with 20 ms of warm-up, a 100 ms window and
capacity max(threads, 4096), each run drained and checked; a row that did not conserve reads -1.
Writes OUT_DIR/blind-NAME-TAG<round>.json and prints the medians in G ops/s.
(Run 307 ran an earlier form with fixed points: balanced at 2^14, 2^16, 2^17, 2^18, splits at 2^16
and 2^18.)
"""
import json
import os
import sys
import time

from queues_cuda import bench_queues as bq
from queues_cuda.queues import QUEUES

out, rounds, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
variants = [v.split("=", 1) for v in os.environ["VARIANTS"].split(",")]
SIZES = [int(x) for x in os.environ.get("SIZES", "12,14,16,17,18").split(",")]
POINTS = [("balanced", 1 << t, None) for t in SIZES]
POINTS += [("split", 1 << t, p) for t in SIZES for p in (25, 50, 75)]
kind = QUEUES[os.environ.get("QUEUE", "glfq")]
benches = {name: bq._CudaBench(kind, tuple(d for d in defs.split("+") if d)) for name, defs in variants}
table = {}
for r in range(rounds):
    for name, _ in variants:
        t0 = time.time()
        rows = []
        for kernel, threads, pct in POINTS:
            row = bq.run_point(benches[name], "cuda", kind, kernel, threads, pct, 0.02, 0.1, max(threads, 4096), int(os.environ.get("RUNS", "5")))
            rows.append(row)
            key = (kernel, threads, pct)
            table.setdefault(key, {}).setdefault(name, []).append(
                (row["ops_per_s_median"] or 0) / 1e9 if row["conserved"] else -1.0)
        with open(f"{out}/blind-{name}-{tag}{r + 1}.json", "w") as f:
            json.dump({"variant": name, "defines": benches[name].defines, "rows": rows}, f)
        print(f"round {r + 1} {name}: {time.time() - t0:.0f} s", flush=True)
names = [n for n, _ in variants]
print("kernel   threads  pct  " + "  ".join(f"{n:>14}" for n in names))
for (kernel, threads, pct), d in table.items():
    print(f"{kernel:8} {threads:7} {pct or '-':>4}  " + "  ".join(
        f"{'/'.join(f'{x:.2f}' for x in d[n]):>14}" for n in names))
