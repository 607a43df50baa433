"""Hardware counters per successful queue operation (issue 6, item 2), read by Nsight Compute.

`gq bench queues --hw-counters` runs, for each queue it measured, one balanced run (queue_bench.cuh:
every thread enqueues, then dequeues, over and over) in a child process under `ncu` (kernel
replay, clocks left as they are). ncu reads the SM counters of the whole kernel: warp and thread
instructions executed, warp-cycles active, cycles with an issue, and the warp-state breakdown
(why a resident warp did not issue). `per_op` puts them per successful operation of the whole
kernel (enqueues and dequeues over warm-up and window):

  * thread instructions per operation;
  * warp-cycles per warp operation (a warp's 32 lanes each complete one operation in it): what
    one operation costs a warp in SM cycles, issued or waiting;
  * the same split by stall reason (long_scoreboard: waiting on a load or an atomic's result;
    membar: on a fence; lg_throttle: on a full memory queue; ...).

ncu measures the counters over several replays of the kernel, restoring memory before each, and
the operation count is that of the last replay. The kernel runs for a fixed time, so each replay
does about the same work: the figures are good to a few per cent, not exactly. A run that stalled
(the bench's stall rule, or no operation inside its window) is marked: its figures describe a
stuck queue. The machine needs `ncu` (PATH or /usr/local/cuda/bin) and permission to read the
counters; without the permission the row carries ncu's message instead of figures.
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
from pathlib import Path

METRICS = ("smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "smsp__warps_active.sum",
           "smsp__issue_active.sum", "gpu__time_duration.sum")
SECTION = "WarpStateStats"
STALL_PREFIX, STALL_SUFFIX = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
WARP = 32
NCU_PLACES = ("/usr/local/cuda/bin/ncu",)
PROFILE_TIMEOUT_S = 600


def find_ncu() -> str | None:
    """ncu's path, or None where Nsight Compute is not installed."""
    return shutil.which("ncu") or next((p for p in NCU_PLACES if os.access(p, os.X_OK)), None)


def ncu_rows(text: str) -> list[dict[str, str]]:
    """The kernels of `ncu --csv --page raw` output: one dict a kernel, metric name to value as
    printed. ncu's own log lines (==PROF==, ==WARNING==) and the program's output are skipped:
    the table is the lines that start with a quote, and its second line holds the units."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    table = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(table) < 3:
        return []
    header = table[0]
    return [dict(zip(header, row)) for row in table[2:] if len(row) == len(header)]


def number(text: str | None) -> float | None:
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def per_op(metrics: dict[str, str], counts: dict) -> dict:
    """One kernel's counters per successful operation (see the head of this file). `counts`:
    the child's record (all_enq_ok, all_deq_ok, stall)."""
    ops = counts["all_enq_ok"] + counts["all_deq_ok"]
    warp_ops = ops / WARP
    get = lambda name: number(metrics.get(name))  # noqa: E731
    row = {"ops": ops, "kernel_s": (get("gpu__time_duration.sum") or 0.0) / 1e9, "stall": bool(counts["stall"])}
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


def profile(ncu: str, queue: str, threads: int, warmup_s: float, window_s: float, capacity: int) -> dict:
    """One balanced run of `queue` at `threads` under ncu; its row (figures, or `error`)."""
    with tempfile.TemporaryDirectory() as tmp:
        counts_path = Path(tmp) / "counts.json"
        cmd = [ncu, "--kernel-name", "gq_bench", "--launch-count", "1", "--clock-control", "none",
               "--section", SECTION, "--metrics", ",".join(METRICS), "--csv", "--page", "raw",
               "--print-units", "base", sys.executable, "-m", "queues_cuda.hw_counters", queue, str(threads),
               str(int(warmup_s * 1e9)), str(int(window_s * 1e9)), str(capacity), str(counts_path)]
        row = {"queue": queue, "kernel": "balanced", "threads": threads, "capacity": capacity}
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=PROFILE_TIMEOUT_S,
                               cwd=Path(__file__).resolve().parent.parent)
        except subprocess.TimeoutExpired:
            return {**row, "error": f"ncu did not finish within {PROFILE_TIMEOUT_S} s"}
        kernels = ncu_rows(p.stdout)
        if p.returncode or not kernels or not counts_path.exists():
            why = [ln for ln in (p.stderr + p.stdout).splitlines() if ln.strip()][-3:]
            return {**row, "error": f"ncu exit {p.returncode}: " + " | ".join(why)}
        counts = json.loads(counts_path.read_text())
    return {**row, **counts, **per_op(kernels[0], counts), "counters": kernels[0]}


def _child(argv: list[str]) -> int:
    """The process ncu profiles: one balanced run; its counts go to the JSON path given."""
    from . import bench_queues as bq

    queue, threads, warmup_ns, window_ns, capacity, out = argv
    bench = bq.launcher("cuda", bq.BENCH_BY_NAME[queue])
    threads_run, min_blocks = bench.resident(int(threads))
    c = bench.run("balanced", threads_run, 0, int(warmup_ns), int(window_ns), int(capacity), 0, False, False,
                  min_blocks=min_blocks)
    run = bq.summarize_run(c, (int(warmup_ns) + int(window_ns)) / 1e9, int(window_ns) / 1e9, "cuda", False)
    Path(out).write_text(json.dumps({
        "threads_run": threads_run, "min_blocks_per_sm": min_blocks,
        "all_enq_ok": run["all_enq_ok"], "all_deq_ok": run["all_deq_ok"],
        "window_ops": run["enq_ok"] + run["deq_ok"], "stall": run["stall"] or run["enq_ok"] + run["deq_ok"] == 0,
    }))
    return 0


def table_lines(rows: list[dict]) -> list[str]:
    lines = ["hardware counters (ncu), balanced kernel, per successful operation:",
             f"  {'queue':7s} {'threads':>8s} {'inst/op':>8s} {'cycles/warp-op':>14s}  "
             "most stalled on (cycles a warp-op)"]
    for r in rows:
        if "error" in r:
            lines.append(f"  {r['queue']:7s} {r['threads']:>8d}  no counters: {r['error'][:100]}")
            continue
        top = ", ".join(f"{k} {v:,.0f}" for k, v in list(r.get("stall_cycles_per_warp_op", {}).items())[:3])
        fmt = lambda x, spec: format(x, spec) if x is not None else "-"  # noqa: E731
        lines.append(f"  {r['queue']:7s} {r['threads_run']:>8d} {fmt(r.get('thread_inst_per_op'), '8,.0f')} "
                     f"{fmt(r.get('warp_cycles_per_warp_op'), '14,.0f')}  {'STALLED ' if r['stall'] else ''}{top}")
    return lines


def draw(ax, rows: list[dict]) -> None:
    """Where a warp's cycles go per operation, one bar per profiled queue: the share of each stall
    reason (the largest four, the rest together), with the cycles per warp operation and the
    instructions per operation written beside it (the totals differ by orders of magnitude
    between queues, the shares say why)."""
    reasons = []
    for r in rows:
        for name in list(r["stall_cycles_per_warp_op"])[:4]:
            if name not in reasons:
                reasons.append(name)
    labels = [f"{r['queue']} ({r['threads_run']:,} thr){' stalled' if r['stall'] else ''}" for r in rows]
    left = [0.0] * len(rows)
    for name in reasons + ["other"]:
        shares = []
        for r in rows:
            cycles = r["stall_cycles_per_warp_op"]
            total = sum(cycles.values()) or 1.0
            part = cycles.get(name, 0.0) if name != "other" else sum(v for k, v in cycles.items() if k not in reasons)
            shares.append(100.0 * part / total)
        ax.barh(labels, shares, left=left, label=name)
        left = [a + b for a, b in zip(left, shares)]
    for i, r in enumerate(rows):
        ax.text(101, i, f"{r['warp_cycles_per_warp_op']:,.0f} cyc, {r['thread_inst_per_op']:,.0f} inst",
                va="center", fontsize=8)
    ax.set_xlim(0, 150)
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel("% of a warp's cycles per successful operation, by what it waited on")
    ax.set_title("hardware counters (ncu), balanced kernel")
    ax.invert_yaxis()
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=4)


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
