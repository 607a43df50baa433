"""The wave-ticket probe of run 250 as it ran (runs/wave_probe.py, with wave_probe.cu beside it): Run runs/wave_probe.cu: every ticket below Head taken exactly once? usage: python3 wave_probe.py"""
from pathlib import Path
import numpy as np
import cupy
from queues_cuda.build import INCLUDE_DIR
src = (Path(__file__).parent / "wave_probe.cu").read_text()
mod = cupy.RawModule(code=src, options=("-std=c++17", f"-I{INCLUDE_DIR}"), backend="nvrtc")
k = mod.get_function("wave_probe")
threads, iters = 1 << 18, 32
limit = threads * iters
for mode, name in ((0, "wave in one arm, claim in the other"), (1, "per-lane fetch-add in one arm"), (2, "wave_faa, no branch")):
    for rep in range(3):
        head = cupy.zeros(1, cupy.uint64)
        tail = cupy.full(1, 1 << 60, cupy.uint64)
        taken = cupy.zeros(limit, cupy.uint32)
        k((threads // 256,), (256,), (head, tail, taken, np.uint64(limit), np.uint32(iters), np.uint32(rep * 7 + 1), np.uint32(mode)))
        cupy.cuda.Device().synchronize()
        h = int(head.get()[0])
        t = taken[:min(h, limit)].get()
        print(f"mode {mode} ({name}) rep {rep}: Head {h}, tickets never held {int((t == 0).sum())}, held twice or more {int((t > 1).sum())}", flush=True)
