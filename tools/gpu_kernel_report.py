"""Registers, local memory and resident threads of the renderer's kernels on this GPU, per
queue kind: what bounds the persistent grid and the compaction waves.

    python3 tools/gpu_kernel_report.py
"""

from queues_cuda.cuda_runtime import resident_threads
from queues_cuda.queues import QUEUES
from raytrace.build import cuda_module

for name, kind in QUEUES.items():
    mod = cuda_module(kind.kind_id)
    for k in ("rt_wave", "rt_tiles", "rt_tiles_seed"):
        fn = mod.get_function(k)
        a = fn.attributes
        print(f"{name:5s} {k:14s} regs {a['num_regs']:4d}  local {a['local_size_bytes']:5d} B  "
              f"resident threads {resident_threads(fn)}")
