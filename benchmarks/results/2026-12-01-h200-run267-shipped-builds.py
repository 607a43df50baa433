"""Compile every shipped GPU module of the tree at ROOT with NVRTC 13.0.88 (the device's) and disassemble.
usage: shipped.py ROOT OUTDIR"""
import os, subprocess, sys
root, outdir = sys.argv[1], sys.argv[2]
sys.path.insert(0, root)
from queues_cuda import build as qb, bench_queues as bq
from queues_cuda.queues import QUEUES
import raytrace.build as rb
from sssp_demo import bfs
os.makedirs(outdir, exist_ok=True)
jobs = []
for q in ("glfq", "gwfq", "sfq", "ymc"):
    k = QUEUES[q].kind_id
    for mb in (1, 8):
        jobs.append((f"bench-{q}-{mb}", k, bq.BENCH_KERNEL, (qb.INCLUDE_DIR,), qb.NVRTC_FLAGS, (f"GQ_BENCH_MIN_BLOCKS={mb}",) if mb > 1 else ()))
    jobs.append((f"check-{q}", k, qb.KERNEL_DIR / "queue_check.cu", (qb.INCLUDE_DIR,), qb.NVRTC_FLAGS, ()))
    jobs.append((f"render-{q}", k, rb.KERNEL, rb.INCLUDE_DIRS, rb.NVRTC_FLAGS, ()))
    jobs.append((f"bfs-{q}", k, bfs.KERNEL, bfs.INCLUDE_DIRS, qb.NVRTC_FLAGS, ()))
procs = []
for name, k, path, inc, fl, defs in jobs:
    flags = list(qb._file_flags(k, defs, tuple(inc), tuple(fl))) + ["--gpu-architecture=sm_90"]
    src = f"{outdir}/{name}.cu"
    open(src, "w").write(path.read_text())
    cub = f"{outdir}/{name}.cubin"
    procs.append((name, subprocess.Popen(f"{sys.executable} benchmarks/results/2026-12-01-h200-run267-nvrtc-compile.py {os.environ['NV130']} {src} {cub} {' '.join(flags)} >/dev/null 2>{outdir}/{name}.err && /tmp/nvd/nvidia/cu13/bin/nvdisasm -c {cub} > {outdir}/{name}.sass", shell=True)))
    while sum(p.poll() is None for _, p in procs) >= 2:
        import time; time.sleep(0.5)
for name, p in procs:
    p.wait(); print(name, "ok" if p.returncode == 0 else "FAILED")
