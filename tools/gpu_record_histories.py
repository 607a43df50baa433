"""Record the GPU histories of the foundation issue (1,000 per queue at 512 to 2,048 threads) and
save them, so the linearizability search runs off the GPU machine (tools/check_saved_histories.py):
the search needs CPU time, not device time.

    python3 tools/gpu_record_histories.py OUT_DIR

$GQ_HISTORY_QUEUES (for example `ymc,gwfq`) records only those queues.
"""

import itertools
import os
import sys
import time
from pathlib import Path

from queues_cuda import cuda_runtime
from queues_cuda.check import MIX_ROTATION
from queues_cuda.history import save_many
from queues_cuda.queues import QUEUES

CAPACITIES = (1, 2, 3, 64, 4096)
RUNS = ((512, 2, 334), (1024, 1, 333), (2048, 1, 333))  # threads, ops per thread, histories

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
wanted = os.environ.get("GQ_HISTORY_QUEUES")
for name, kind in QUEUES.items():
    if wanted and name not in wanted.split(","):
        continue
    started = time.perf_counter()
    histories, tags = [], []
    for threads, ops, count in RUNS:
        combos = itertools.cycle(itertools.product(CAPACITIES, MIX_ROTATION))
        for k in range(count):
            capacity, (mix, pct) = next(combos)
            histories.append(cuda_runtime.record_history(kind, capacity, threads, ops, mix, pct, 10_007 * threads + k))
            tags.append(f"{name} threads={threads} ops={ops} capacity={capacity} mix={mix}:{pct} k={k}")
    save_many(out / f"histories-{name}.npz", histories, tags)
    print(f"{name}: {len(histories)} histories, {sum(map(len, histories))} operations, "
          f"{time.perf_counter() - started:.1f} s")
