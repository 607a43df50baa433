"""`gq queues ...`: the queue layer's own commands."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from queues_cuda.backend import BACKENDS
from queues_cuda.check import CheckConfig, CheckReport, check_file, run_check
from queues_cuda.errors import GQError
from queues_cuda.files import write_json_atomically
from queues_cuda.queues import FAULTS, NOT_LINEARIZABLE, QUEUES


@click.group()
def queues() -> None:
    """Check and measure the GPU concurrent queues."""


def parse_capacities(text: str) -> tuple[int, ...]:
    try:
        caps = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise GQError(f"--capacity: expected integers separated by commas (e.g. 1,2,3,1024), got {text!r}") from None
    if not caps:
        raise GQError("--capacity: give at least one capacity")
    for c in caps:
        if c < 1:
            raise GQError(f"--capacity must be at least 1, got {c}")
    return caps


def print_table(reports: list[CheckReport]) -> None:
    head = ("queue", "backend", "histories", "operations", "linearizable", "tokens", "lost", "dup",
            "order", "range", "time s")
    rows = []
    for r in reports:
        lin = "yes" if r.not_linearizable == 0 and r.unknown == 0 else \
            f"NO ({r.not_linearizable})" if r.not_linearizable else f"unknown ({r.unknown})"
        if not r.claims_linearizable:
            lin = f"NO ({r.not_linearizable}), expected" if r.not_linearizable else \
                f"unknown ({r.unknown})" if r.unknown else "none refuted"
        if r.kernel_error:
            lin += " + HANG"
        f = r.fifo
        rows.append((r.queue, r.backend, str(r.histories), str(r.operations), lin, str(f.tokens),
                     str(f.lost), str(f.duplicated), str(f.order_violations), str(f.out_of_range),
                     f"{r.seconds:.1f}"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    click.echo("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in rows:
        click.echo("  ".join(v.rjust(w) for v, w in zip(row, widths)))


def print_stats(reports: list[CheckReport]) -> None:
    """The slow-path counters (--stats), in total and per successful operation."""
    head = ("queue", "successful ops", "slow-path entries", "helps given", "completed by others",
            "slow/op", "helps/op", "by others/op", "max steps/op")
    rows = []
    for r in reports:
        if r.stats is None:
            continue
        s, per = r.stats, r.per_op()
        rows.append((r.queue, str(s["successful_ops"]), str(s["slow_path_entries"]), str(s["helps_given"]),
                     str(s["completed_by_others"]), f"{per['slow_path_entries']:.4f}",
                     f"{per['helps_given']:.4f}", f"{per['completed_by_others']:.4f}", str(s["max_steps_per_op"])))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    click.echo("")
    click.echo("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in rows:
        click.echo("  ".join(v.rjust(w) for v, w in zip(row, widths)))


def print_not_linearizable(r: CheckReport) -> None:
    """For a queue kind that does not claim linearizability: the refutation, as expected, and
    what the kind is held to instead."""
    from queues_cuda import broker_history
    from queues_cuda.check import check_history

    click.echo("")
    if r.not_linearizable:
        click.echo(f"{r.queue}: not linearizable, as expected for this algorithm: {r.not_linearizable} of "
                   f"{r.histories} histories refuted" + (f", {r.unknown} unknown." if r.unknown else "."))
    else:
        click.echo(f"{r.queue}: not linearizable (a property of the algorithm), although "
                   + (f"none of the {r.histories} histories recorded in this run was refuted."
                      if r.histories else "no history was recorded in this run."))
    click.echo(f"  why: {broker_history.WHY}.")
    kept = [f"with their FULL and EMPTY answers removed (successful operations only), "
            f"{r.successful_linearizable} of {r.histories} histories are linearizable"
            + (f", {r.successful_unknown} unknown" if r.successful_unknown else "")] if r.histories else []
    if r.fifo.tokens:
        kept.append(f"FIFO per producer: {r.fifo.tokens:,} tokens, "
                    + ("each once, in order" if r.fifo.ok else "FAILED"))
    if kept:
        click.echo(f"{r.queue}: what it keeps: " + "; ".join(kept) + ".")
    if r.counterexample:
        click.echo(f"\n{r.queue}: {r.counterexample}")
        return
    h = broker_history.counterexample()
    verdict, text = check_history(h, broker_history.CAPACITY, 10.0, "the shortest refuting history")
    click.echo(f"\n{r.queue}: no recorded history was refuted in this run (a refutation needs a dequeuer "
               f"delayed between its reservation and its Head ticket). The shortest refuting history, "
               f"checked now ({'not linearizable' if verdict is False else 'UNEXPECTED verdict'}):")
    for i, what in enumerate(broker_history.narrative()):
        click.echo(f"    {h.describe(i) if i < len(h) else '':58s} {what}")
    click.echo("  " + text.replace("\n", "\n  "))


@queues.command()
@click.option("--queue", "queue_names", default="glfq", show_default=True,
              help=f"Queue(s) to check, comma-separated, or 'all' (the linearizable ones: {', '.join(QUEUES)}); "
                   f"not linearizable, by name only: {', '.join(NOT_LINEARIZABLE)}.")
@click.option("--backend", default="auto", show_default=True, help=f"One of {', '.join(BACKENDS)}.")
@click.option("--threads", type=int, default=64, show_default=True, help="Threads recording each history.")
@click.option("--ops", type=int, default=16, show_default=True, help="Operations per thread per history.")
@click.option("--histories", type=int, default=200, show_default=True, help="Histories to record and check.")
@click.option("--capacity", "capacity_text", default=None,
              help="Queue capacities, comma-separated; histories rotate over them. "
                   "[default: 1,2,3,1024; with --from-file: none, give the queue's capacity]")
@click.option("--fifo-tokens", type=int, default=1_000_000, show_default=True,
              help="Tokens for the exactly-once FIFO conformance run (0 skips it).")
@click.option("--fifo-threads", type=int, default=None, help="Threads of the FIFO run [default: --threads].")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--timeout", type=float, default=60.0, show_default=True,
              help="Seconds the checker may search one history before answering 'unknown'.")
@click.option("--save-histories", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write every history as JSON lines (h0001.jsonl, ...) into this folder.")
@click.option("--from-file", "from_files", multiple=True, type=click.Path(path_type=Path),
              help="Check recorded histories (JSON lines; a file or a folder of *.jsonl) instead of recording.")
@click.option("--fault", type=str, default=None,
              help=f"Build with a planted fault, to see the checkers catch it: {', '.join(FAULTS)}.")
@click.option("--patience", type=int, default=None,
              help="Wait-free queues: fast-path retries before an operation takes the slow path "
                   "(0 = one attempt) [default: the build's, 16].")
@click.option("--help-delay", type=int, default=None,
              help="Wait-free queues: operations between two looks at a peer's pending request "
                   "[default: the build's, 16].")
@click.option("--stats", is_flag=True, default=False,
              help="Wait-free queues: count slow-path entries, helps given and requests completed by "
                   "others, and show them per successful operation.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the verdicts as JSON.")
def check(queue_names, backend, threads, ops, histories, capacity_text, fifo_tokens, fifo_threads, seed,
          timeout, save_histories, from_files, fault, patience, help_delay, stats, json_out) -> int:
    """Record concurrent histories, check linearizability and FIFO conformance.

    \b
    Exit code 0 when every history is linearizable against the strict bounded FIFO model and
    the FIFO run delivered every token exactly once in per-producer order; 1 otherwise, with the
    first counter-example printed.

    \b
    A queue that does not claim linearizability (broker: the Broker Queue) is checked for what
    it keeps instead: its refuted histories are expected, and shown with the reason; exit code 0
    when its histories, with their FULL and EMPTY answers removed, are all linearizable, its FIFO
    run passes and no thread gave up; 1 otherwise.
    """
    if from_files:
        reports = _check_files(from_files, capacity_text, timeout)
    else:
        names = list(QUEUES) if queue_names == "all" else [q.strip() for q in queue_names.split(",")]
        caps = parse_capacities(capacity_text) if capacity_text is not None else CheckConfig.capacities
        configs = [CheckConfig(queue=q, backend=backend, capacities=caps, threads=threads, ops=ops,
                               histories=histories, fifo_tokens=fifo_tokens, fifo_threads=fifo_threads,
                               seed=seed, timeout=timeout, fault=fault, patience=patience,
                               help_delay=help_delay, stats=stats,
                               save_dir=(save_histories / q if len(names) > 1 else save_histories)
                               if save_histories else None)
                   for q in names]
        for cfg in configs:  # every check of the input before any work starts
            cfg.validate()
        reports = []
        for cfg in configs:
            units = cfg.histories + (len(set(cfg.capacities)) if cfg.fifo_tokens else 0)
            with click.progressbar(length=units, label=f"checking {cfg.queue}", file=sys.stderr) as bar:
                reports.append(run_check(cfg, progress=bar.update))
    print_table(reports)
    if any(r.stats is not None for r in reports):
        print_stats(reports)
    for r in reports:
        if not r.claims_linearizable:
            print_not_linearizable(r)
    failed = [r for r in reports if not r.ok]
    for r in failed:
        if r.claims_linearizable and r.counterexample:
            click.echo(f"\n{r.queue}: {r.counterexample}")
        if r.successful_counterexample:
            click.echo(f"\n{r.queue}: its successful operations alone are not linearizable: "
                       f"{r.successful_counterexample}")
        if r.kernel_error:
            click.echo(f"\n{r.queue}: a thread program gave up: {r.kernel_error}")
        if r.fifo.tokens and not r.fifo.ok:
            click.echo(f"\n{r.queue}: FIFO conformance failed: {r.fifo}")
    if json_out:
        write_json_atomically(json_out, {"reports": [_as_json(r) for r in reports]})
    return 1 if failed else 0


def _check_files(paths, capacity_text, timeout) -> list[CheckReport]:
    capacity = None
    if capacity_text is not None:
        caps = parse_capacities(capacity_text)
        if len(caps) != 1:
            raise GQError("--capacity: with --from-file give the one capacity of the recorded queue")
        capacity = caps[0]
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.glob("*.jsonl"))
            if not found:
                raise GQError(f"--from-file {p}: the folder holds no *.jsonl histories")
            files += found
        elif p.exists():
            files.append(p)
        else:
            raise GQError(f"--from-file {p}: no such file or folder")
    return [check_file(f, capacity, timeout) for f in files]


def _as_json(r: CheckReport) -> dict:
    out = dataclasses.asdict(r)
    out["ok"] = r.ok
    out["stats_per_op"] = r.per_op()
    out["fifo"]["ok"] = r.fifo.ok if r.fifo.tokens else None
    return out
