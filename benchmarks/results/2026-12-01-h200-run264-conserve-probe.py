"""Shipped queues under seed 001's split kernels at 2^18 threads (the 8-block, spilled build): does
every run conserve its elements? usage: python3 conserve_probe.py [RUNS]"""
import sys

from queues_cuda import bench_queues as bq
from queues_cuda.queues import QUEUES

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 6
for name in ("glfq", "gwfq", "ymc", "sfq"):
    bench = bq._CudaBench(QUEUES[name], ())
    for pct in (25, 75):
        try:
            row = bq.run_point(bench, "cuda", QUEUES[name], "split", 1 << 18, pct, 0.02, 0.1, 1 << 18, runs)
        except Exception as exc:  # a kernel error is a finding too
            print(name, pct, "ERROR", str(exc)[:300], flush=True)
            continue
        lost = [r["all_enq_ok"] - r["all_deq_ok"] - r["drained"] for r in row["runs"]]
        ops = [r.get("ops_per_s", 0) for r in row["runs"]]
        print(f"{name} 2^18 {pct}%: threads {row['threads_run']}, lost per run {lost}, dequeued {[r['all_deq_ok'] for r in row['runs']][:3]}", flush=True)
