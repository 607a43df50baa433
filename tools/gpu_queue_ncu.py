"""Hardware counters per successful queue operation (issue 6, item 2), read by Nsight Compute:

    python3 tools/gpu_queue_ncu.py OUT_DIR [QUEUE[:THREADS] ...]
        (default: glfq, gwfq and the ideal ring at 2^18 threads, glfq and sfq at 2^14, ymc at 2^13:
         YMC stalls in this kernel from 2^14 threads and SFQ from 2^15, run 14)

For each queue, one run of the balanced kernel (queue_bench.cuh: every thread enqueues, then
dequeues, over and over; 5 ms of warm-up, 20 ms of window) in a child process under `ncu`
(kernel replay, clocks left as they are), which reads the SM counters of the whole kernel: warp
instructions and thread instructions executed, warp-cycles active, cycles with an issue, and the
warp-state breakdown (why a warp did not issue). Each is put per successful operation of the
whole kernel (enqueues and dequeues over warm-up and window):

  * thread instructions per operation;
  * warp-cycles per warp operation (a warp's 32 lanes each complete one operation in it): about
    what one operation costs a warp in SM cycles, issued or waiting;
  * the same split by stall reason (long_scoreboard: waiting on a load or atomic's result;
    membar: on a fence; lg_throttle: on the memory queue being full; ...).

ncu measures the counters over several replays of the kernel, restoring memory before each, and
the operation count is that of the last replay; the kernel runs for a fixed time, so each replay
does about the same work, and the figures are good to a few per cent, not exactly. Kernel replay
serialises the kernel, but nothing else runs beside it anyway.

A run whose kernel took more than twice its budget, or finished no operation inside its window,
is marked a stall (`stall`): its figures describe a queue that was stuck, not one at work.

Needs `ncu` (PATH or /usr/local/cuda/bin) and permission to read the counters; where either is
missing it says so and exits 2. Writes one file, OUT_DIR/queue-ncu.json (card, commit, command,
one row per queue with every counter as read and ncu's raw output); prints a table.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WARMUP_S = 0.005
WINDOW_S = 0.020
DEFAULT = ("glfq:262144", "gwfq:262144", "ideal:262144", "glfq:16384", "sfq:16384", "ymc:8192")
METRICS = ("smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "smsp__warps_active.sum",
           "smsp__issue_active.sum", "gpu__time_duration.sum")
STALL_PREFIX, STALL_SUFFIX = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
WARP = 32


def child(queue: str, threads: int, out: Path) -> int:
    """One balanced run of `queue` (what ncu profiles); its counts go to `out` as JSON."""
    from queues_cuda import bench_queues as bq

    kind = bq.BENCH_BY_NAME[queue]
    bench = bq.launcher("cuda", kind)
    threads_run, min_blocks = bench.resident(threads)
    c = bench.run("balanced", threads_run, 0, int(WARMUP_S * 1e9), int(WINDOW_S * 1e9),
                  bq.default_capacity(threads_run), 0, False, False, min_blocks=min_blocks)
    w = c.counts
    out.write_text(json.dumps({
        "queue": queue, "threads": threads, "threads_run": threads_run, "min_blocks_per_sm": min_blocks,
        "all_enq_ok": int(w[bq.ALL_ENQ]), "all_deq_ok": int(w[bq.ALL_DEQ]),
        "window_ops": int(w[bq.ENQ_OK]) + int(w[bq.DEQ_OK]), "event_s": c.event_s,
    }))
    return 0


def ncu_rows(text: str) -> list[dict[str, str]]:
    """The kernels of `ncu --csv --page raw` output: one dict a kernel, metric name to value as
    printed. ncu's own log lines (==PROF==, ==WARNING==) and the program's output are skipped:
    the table is the lines that start with a quote; its second line is the units."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    table = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(table) < 3:
        return []
    header = table[0]
    return [dict(zip(header, row)) for row in table[2:] if len(row) == len(header)]


def number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def per_op(metrics: dict[str, str], counts: dict) -> dict:
    """The counters of one kernel per successful operation (see the head of this file)."""
    ops = counts["all_enq_ok"] + counts["all_deq_ok"]
    warp_ops = ops / WARP
    get = lambda name: number(metrics.get(name, ""))  # noqa: E731
    row = {"ops": ops, "kernel_s": (get("gpu__time_duration.sum") or 0) / 1e9}
    row["stall"] = counts.get("window_ops", 0) == 0 or row["kernel_s"] > 2 * (WARMUP_S + WINDOW_S)
    if not ops:
        return row
    inst, thread_inst = get("smsp__inst_executed.sum"), get("smsp__thread_inst_executed.sum")
    active, issue = get("smsp__warps_active.sum"), get("smsp__issue_active.sum")
    row["thread_inst_per_op"] = thread_inst / ops if thread_inst is not None else None
    row["warp_inst_per_warp_op"] = inst / warp_ops if inst is not None else None
    row["warp_cycles_per_warp_op"] = active / warp_ops if active is not None else None
    stalls = {}
    if issue is not None:
        for name, value in metrics.items():
            if name.startswith(STALL_PREFIX) and name.endswith(STALL_SUFFIX) and number(value) is not None:
                stalls[name[len(STALL_PREFIX):-len(STALL_SUFFIX)]] = number(value) * issue / warp_ops
    row["stall_cycles_per_warp_op"] = dict(sorted(stalls.items(), key=lambda kv: -kv[1]))
    return row


def find_ncu() -> str | None:
    return shutil.which("ncu") or next((p for p in ("/usr/local/cuda/bin/ncu",) if os.access(p, os.X_OK)), None)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return child(argv[1], int(argv[2]), Path(argv[3]))
    if not argv:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out_dir = Path(argv[0])
    specs = argv[1:] or list(DEFAULT)
    ncu = find_ncu()
    if ncu is None:
        print("gpu_queue_ncu: no ncu on PATH or in /usr/local/cuda/bin: hardware counters not read here",
              file=sys.stderr)
        return 2
    from queues_cuda.provenance import provenance

    out_dir.mkdir(parents=True, exist_ok=True)
    record = provenance(command=sys.argv, kind="queue-ncu", rows=[],
                        settings={"kernel": "balanced", "warmup_s": WARMUP_S, "window_s": WINDOW_S, "ncu": ncu,
                                  "metrics": list(METRICS), "sections": ["WarpStateStats"]})
    for spec in specs:
        queue, _, threads = spec.partition(":")
        threads = int(threads or 262144)
        counts_path = Path(tempfile.mkdtemp()) / "counts.json"
        cmd = [ncu, "--kernel-name", "gq_bench", "--launch-count", "1", "--clock-control", "none",
               "--section", "WarpStateStats", "--metrics", ",".join(METRICS), "--csv", "--page", "raw",
               "--print-units", "base", sys.executable, __file__, "--child", queue, str(threads), str(counts_path)]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
        kernels = ncu_rows(p.stdout)
        if p.returncode or not kernels or not counts_path.exists():
            why = (p.stderr or p.stdout).strip().splitlines()[-3:]
            print(f"{queue}: ncu gave no counters (rc {p.returncode}): {' | '.join(why)}", file=sys.stderr)
            record["rows"].append({"queue": queue, "threads": threads, "error": " | ".join(why),
                                   "ncu_output": p.stdout[-20000:] + p.stderr[-5000:]})
            if "ERR_NVGPUCTRPERM" in p.stdout + p.stderr:
                break
            continue
        counts = json.loads(counts_path.read_text())
        row = {**counts, **per_op(kernels[0], counts), "seconds": time.perf_counter() - t0, "counters": kernels[0],
               "ncu_output": p.stdout[-20000:]}
        record["rows"].append(row)
        (out_dir / "queue-ncu.json").write_text(json.dumps(record, indent=1))
    (out_dir / "queue-ncu.json").write_text(json.dumps(record, indent=1))
    print(f"\nbalanced kernel, per successful operation (ncu; {record.get('gpu', {}).get('name', '?')}):")
    print(f"{'queue':7} {'threads':>8} {'ops':>11} {'inst/op':>8} {'cyc/warp-op':>12}  top stalls (cycles/warp-op)")
    for r in record["rows"]:
        if "error" in r:
            print(f"{r['queue']:7} {r['threads']:>8}  no counters: {r['error'][:80]}")
            continue
        top = ", ".join(f"{k} {v:,.0f}" for k, v in list(r.get("stall_cycles_per_warp_op", {}).items())[:4])
        fmt = lambda x, spec: format(x, spec) if x is not None else "-"  # noqa: E731
        print(f"{r['queue']:7} {r['threads_run']:>8} {r['ops']:>11,} {fmt(r.get('thread_inst_per_op'), '8.0f')} "
              f"{fmt(r.get('warp_cycles_per_warp_op'), '12,.0f')}  {'STALL ' if r['stall'] else ''}{top}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
