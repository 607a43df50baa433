"""tools/gpu_queue_bench.py's sweep on the CPU, with the measuring stood in for: a point whose every
run stalled with the short window is measured again with the long one, its panel keeps the long
window, and a stall with the long window ends the panel."""

import pytest
from tool_loader import load_tool

from queues_cuda import bench_queues as bq

tool = load_tool("gpu_queue_bench")


def fake_run_point(stalls_at):
    """run_point's stand-in: a row of a figure, or of stalled runs where stalls_at(threads, window)."""
    calls = []

    def run_point(bench, backend, kind, kernel, n, pct, warmup_s, window_s, capacity, runs):
        calls.append((kernel, pct, n, window_s))
        stalled = stalls_at(n, window_s)
        return {"queue": kind.name, "kernel": kernel, "producers_pct": pct, "threads": n, "threads_run": n,
                "ops_per_s_median": None if stalled else 1e6, "stalls": 2 if stalled else 0,
                "conserved": True, "warmup_s": warmup_s, "window_s": window_s,
                "runs": [{"span_s": 3 * (warmup_s + window_s), "stall": stalled}] * (2 if stalled else runs)}

    return run_point, calls


@pytest.fixture
def sweep(monkeypatch):
    monkeypatch.setattr(tool, "PRODUCERS", [50])
    monkeypatch.setattr(bq, "launcher", lambda *a, **k: object())

    def go(stalls_at, threads):
        run_point, calls = fake_run_point(stalls_at)
        monkeypatch.setattr(bq, "run_point", run_point)
        record = {"rows": [], "notes": [], "errors": []}
        tool.sweep_queue(record, None, "cpu", "sfq", ["balanced", "split"], threads, 1)
        return record, calls

    monkeypatch.setattr(tool, "write_json_atomically", lambda *a: None)
    return go


def test_a_short_window_stall_is_measured_again_long_and_the_panel_keeps_the_long_window(sweep):
    short, long = tool.WINDOW_S, tool.LONG_WINDOW_S
    # Stalls with the short window from 4 threads on; with the long one only at 16.
    record, calls = sweep(lambda n, w: n >= 4 and (w == short or n >= 16), [2, 4, 8, 16, 32])
    balanced = [c for c in calls if c[0] == "balanced"]
    assert balanced == [("balanced", None, 2, short), ("balanced", None, 4, short), ("balanced", None, 4, long),
                        ("balanced", None, 8, long), ("balanced", None, 16, long)]
    rows = [(r["threads"], r["window_s"], r["ops_per_s_median"]) for r in record["rows"] if r["kernel"] == "balanced"]
    assert rows == [(2, short, 1e6), (4, long, 1e6), (8, long, 1e6), (16, long, None)]  # one row a point
    notes = [n for n in record["notes"] if n.startswith("sfq balanced")]
    first = f"sfq balanced: stalled at 4 threads with {short:g} s windows (spans 0.15-0.15 s); from there {long:g} s windows"
    last = f"sfq balanced: stalled at 16 threads with {long:g} s windows; larger thread counts of this panel not run"
    assert notes == [first, last]
    # The split panel starts over with the short window.
    assert next(c for c in calls if c[0] == "split") == ("split", 50, 2, short)


def test_no_stall_no_long_window(sweep):
    record, calls = sweep(lambda n, w: False, [2, 4])
    assert {c[3] for c in calls} == {tool.WINDOW_S} and not record["notes"] and len(record["rows"]) == 4
