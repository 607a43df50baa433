"""Run 314 probe: where a stalled G-WFQ 25 % split run spends its seconds (diag tree's extra count words)."""
import json, os, sys
from queues_cuda import bench_queues as bq
from queues_cuda.queues import QUEUES
out = sys.argv[1]
kind = QUEUES["gwfq"]
res = []
for spec in os.environ["VARIANTS"].split(","):
    name, defs = spec.split("=", 1)
    stats = "GQ_QUEUE_STATS" in defs
    bench = bq._CudaBench(kind, tuple(d for d in defs.split("+") if d))
    for threads in [int(x) for x in os.environ.get("THREADS", "262144").split(",")]:
        for pct in [int(x) for x in os.environ.get("PCTS", "25").split(",")]:
            run_threads, mb = bench.resident(threads)
            prod = bq.producer_threads(run_threads, pct, bq.ROLE_LANES["cuda"])
            for r in range(int(os.environ.get("RUNS", "5"))):
                try:
                    rc = bench.run("split", run_threads, pct, 20_000_000, 100_000_000, max(threads, 4096), prod, True, stats, mb)
                except Exception as e:  # a budget run out: the flag names the site
                    print(f"variant={name} threads={threads} ERROR {e}", flush=True)
                    res.append(dict(variant=name, threads=threads, pct=pct, error=str(e)))
                    continue
                c = [int(x) for x in rc.counts]
                t0 = c[6]
                row = dict(variant=name, threads=threads, pct=pct, event_s=rc.event_s, drained=rc.drained,
                           enq=c[0], deq=c[2], empty=c[3], all_enq=c[4], all_deq=c[5],
                           last_s=(c[7] - t0) / 1e9, prod_exit_s=(c[10] - t0) / 1e9, prod_op_ms=c[11] / 1e6,
                           worst_prod_tid=c[14] & 0xFFFFF, cons_op_ms=c[12] / 1e6, cons_exit_s=(c[13] - t0) / 1e9,
                           cons_op_after_close_ms=c[15] / 1e6, cons_ops_after_close=c[16])
                if rc.stats is not None:
                    row.update(zip(bq.STATS_WORDS, (int(x) for x in rc.stats)))
                res.append(row)
                print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)
json.dump(res, open(f"{out}/diag.json", "w"), indent=1)
