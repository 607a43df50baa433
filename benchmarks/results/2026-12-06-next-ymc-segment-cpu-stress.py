"""CPU stress of the segmented hazard scan (2026-12-06, sixth session), run in a tree with both
2026-12-06-next-ymc-*-scan.patch applied: 60 YMC histories of 32 threads x 24 operations for each
scan segment of 1, 2, 4 and 8 threads, on the smallest pool the ticket gate allows (160 cells), each
checked against the FIFO. Seen: 240 histories, 0 not linearizable, 8 s on this 2-core machine.
Run: PYTHONPATH=. python benchmarks/results/2026-12-06-next-ymc-segment-cpu-stress.py"""

import itertools

from queues_cuda import cpu_runtime
from queues_cuda.check import check_history
from queues_cuda.queues import QUEUES

bad = n = 0
for seg in (1, 2, 4, 8):
    defines = ("GQ_YMC_POOL_MIN=64", "GQ_YMC_CELLS_PER_THREAD=1", f"GQ_YMC_SCAN_SEGMENT={seg}",
               "GQ_HOST_MIN_WAIT_NS=30000000000ull")
    combos = itertools.cycle(itertools.product((1, 2, 3, 64), [("alternate", 50), ("random", 50), ("random", 30)]))
    for k in range(60):
        cap, (mix, pct) = next(combos)
        h = cpu_runtime.record_history(QUEUES["ymc"], cap, 32, 24, mix, pct, 977 * seg + k, defines)
        verdict, text = check_history(h, None, 60.0, f"segment {seg}, history {k}")
        n += 1
        if verdict is not True:
            bad += 1
            print(text[:2000])
print("histories", n, "not linearizable or unknown", bad)
