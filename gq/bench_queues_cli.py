"""`gq bench queues`: fixed-duration queue micro-benchmarks (seed 001, Fig. 4).

    gq bench queues --kernel balanced --threads 2^9..2^18 --duration 0.5
    gq bench queues --kernel split --producers 25,50,75 --queue glfq,gwfq --stats
    gq bench queues --kernel split --queue glfq,gwfq --poll-backoff 1024
    gq bench queues --kernel balanced --threads 2^18 --queue glfq,gwfq,ideal --hw-counters

Prints a table (successful operations per second, EMPTY and FULL answers per successful
operation, stalls, conservation), writes the JSON record and a throughput-against-threads chart
(queues_cuda/bench_queues.py does the measuring; queues_cuda/hw_counters.py reads the hardware
counters through Nsight Compute).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from gq.output_paths import check_output_path
from queues_cuda.backend import BACKENDS, resolve

DEFAULT_THREADS = {"cuda": "2^9..2^18", "cpu": "4,8,16"}


@click.command("queues")
@click.option("--kernel", default="both", show_default=True, help="balanced, split, or both.")
@click.option("--threads", "threads_text", default=None,
              help="Thread counts: 2^9..2^18 (powers of two), a list 512,1024, or both mixed "
                   f"[default: {DEFAULT_THREADS['cuda']} on cuda, {DEFAULT_THREADS['cpu']} on cpu].")
@click.option("--producers", "producers_text", default="25,50,75", show_default=True,
              help="Producer percentages of the split kernel.")
@click.option("--duration", type=float, default=0.1, show_default=True, help="Measured window per run (s).")
@click.option("--warmup", type=float, default=0.02, show_default=True, help="Warm-up before the window (s).")
@click.option("--runs", type=int, default=5, show_default=True, help="Runs per configuration; the median is reported.")
@click.option("--queue", "queue_texts", multiple=True,
              help="Queues to measure (repeat, or comma-separated): glfq, sfq, gwfq, ymc, ideal, or all "
                   "[default: all, with the ideal ring]; broker (not linearizable, labelled so) only by name.")
@click.option("--capacity", type=int, default=None, help="Queue capacity [default: max(threads, 4096)].")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
@click.option("--stats", is_flag=True,
              help="Also run the counter builds, apart from the timed runs: per successful operation, "
                   "slow-path entries and helps (gwfq, ymc), retries and lost CASes (glfq, sfq), "
                   "blind tickets (glfq, gwfq).")
@click.option("--poll-backoff", "poll_backoff", type=int, default=0, show_default=True, metavar="NS",
              help="Polite polling: after an EMPTY or FULL answer a split-kernel thread backs off, "
                   "doubling from 32 ns up to NS (0: the seed's back-to-back polling). A separate build; "
                   "the balanced kernel is the same either way.")
@click.option("--hw-counters", "hw_counters", is_flag=True,
              help="Also read the SM's hardware counters through Nsight Compute (ncu) for one balanced run of "
                   "each queue, at the largest thread count where it did not stall: instructions, warp-cycles "
                   "and stall reasons per successful operation (GPU only).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where the record goes [default: benchmarks/queues-<date>.json].")
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Throughput-against-threads PNG [default: the JSON's name with .png].")
def bench_queues(kernel, threads_text, producers_text, duration, warmup, runs, queue_texts, capacity, backend,
                 stats, poll_backoff, hw_counters, json_out, chart) -> int:
    """Successful queue operations per second against threads: balanced and split kernels."""
    from queues_cuda import bench_queues as bq
    from queues_cuda.files import write_json_atomically

    kernels = bq.parse_kernels(kernel)
    producers = bq.parse_producers(producers_text)
    queues = bq.parse_queues(queue_texts)
    check_output_path("--json", json_out, ".json", folder=False)  # written with its folders
    check_output_path("--chart", chart, ".png", folder=False)
    used = resolve(backend)
    threads = bq.parse_threads(threads_text if threads_text is not None else DEFAULT_THREADS[used])
    bq.validate(used, queues, threads, duration, warmup, runs, capacity, poll_backoff, hw_counters)
    json_out = json_out if json_out is not None else bq.default_json_path()
    chart = chart if chart is not None else json_out.with_suffix(".png")
    total = bq.total_runs(queues, kernels, threads, producers, runs, stats, hw_counters)
    click.echo(f"backend {used}: {total} runs of {warmup:g} s + {duration:g} s "
               f"(about {total * (warmup + duration):.0f} s of measuring)", err=True)

    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(click.progressbar(length=total, label="measuring", file=sys.stderr,
                                                    item_show_func=lambda s: s))
        record = bq.run_bench(used, queues, kernels, threads, producers, duration, warmup, runs, capacity, stats,
                              progress=lambda label: bar.update(1, label),
                              on_row=lambda rec: write_json_atomically(json_out, rec), poll_backoff_ns=poll_backoff,
                              hw_counters=hw_counters)
    for line in bq.table_lines(record):
        click.echo(line)
    write_json_atomically(json_out, record)
    click.echo(f"wrote {json_out}")
    note = bq.chart(record, chart)
    click.echo(f"gq: {note}" if note else f"wrote {chart}", err=bool(note))
    capped = sorted({(r["queue"], r["threads"], r["threads_run"]) for r in record["rows"] if r["capped"]})
    for queue, asked, ran in capped:
        click.echo(f"gq: {queue}: {asked} threads cannot all be resident on this GPU; ran {ran}", err=True)
    for line in bq.stall_lines(record) + bq.pause_lines(record):
        click.echo(f"gq: {line}", err=True)
    bad = [r for r in record["rows"] if r["conserved"] is False]
    for r in bad:
        click.echo(f"gq: {r['queue']} {r['kernel']} {r['threads_run']} threads: enqueues != dequeues + drained",
                   err=True)
    return 1 if bad else 0
