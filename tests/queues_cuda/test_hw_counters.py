"""queues_cuda/hw_counters.py, behind `gq bench queues --hw-counters`: reading ncu's raw CSV, the
per-operation arithmetic, where a queue is profiled, the refusals (the command itself is tested in
tests/gq/test_bench_queues_cli.py)."""

import pytest

from queues_cuda import bench_queues as bq
from queues_cuda import hw_counters as hw
from queues_cuda.errors import GQError

OUTPUT = """==PROF== Connected to process 1234 (/usr/bin/python3)
some program output
==PROF== Profiling "gq_bench": 0%....50%....100% - 9 passes
"ID","Kernel Name","gpu__time_duration.sum","smsp__inst_executed.sum","smsp__thread_inst_executed.sum",\
"smsp__warps_active.sum","smsp__issue_active.sum","smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",\
"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"
"","","ns","inst","inst","warp","cycle","ratio","ratio"
"0","gq_bench","25,000,000","6,400","204,800","1,280,000","3,200","10","30"
==PROF== Disconnected from process 1234
"""


def test_rows_skip_logs_and_units():
    rows = hw.ncu_rows(OUTPUT)
    assert len(rows) == 1
    assert rows[0]["Kernel Name"] == "gq_bench"
    assert rows[0]["smsp__inst_executed.sum"] == "6,400"
    assert hw.ncu_rows("==ERROR== ERR_NVGPUCTRPERM - no permission\n") == []


def test_per_operation_figures():
    counts = {"all_enq_ok": 1600, "all_deq_ok": 1600, "stall": False}  # 3,200 operations: 100 warp operations
    row = hw.per_op(hw.ncu_rows(OUTPUT)[0], counts)
    assert row["ops"] == 3200 and not row["stall"]
    assert row["kernel_s"] == pytest.approx(0.025)
    assert row["thread_inst_per_op"] == pytest.approx(64.0)
    assert row["warp_inst_per_warp_op"] == pytest.approx(64.0)
    assert row["warp_cycles_per_warp_op"] == pytest.approx(12800.0)
    # ratio x cycles with an issue / warp operations, largest first
    assert list(row["stall_cycles_per_warp_op"].items()) == [("long_scoreboard", 960.0), ("membar", 320.0)]
    assert hw.per_op(hw.ncu_rows(OUTPUT)[0], {**counts, "stall": True})["stall"]


def row(queue, kernel, threads, stalls):
    return {"queue": queue, "kernel": kernel, "threads": threads, "stalls": stalls}


def test_profiled_at_the_largest_thread_count_that_did_not_stall():
    rows = [row("ymc", "balanced", 2**13, 0), row("ymc", "balanced", 2**14, 2), row("ymc", "balanced", 2**18, 2),
            row("glfq", "balanced", 2**13, 0), row("glfq", "balanced", 2**18, 0), row("glfq", "split", 2**18, 0),
            row("sfq", "balanced", 2**13, 2), row("sfq", "balanced", 2**18, 2)]
    threads = [2**13, 2**14, 2**18]
    assert bq.hw_threads(rows, "ymc", threads) == 2**13
    assert bq.hw_threads(rows, "glfq", threads) == 2**18
    assert bq.hw_threads(rows, "sfq", threads) == 2**13  # all stalled: the smallest
    assert bq.hw_threads(rows, "gwfq", threads) == 2**18  # no balanced point measured


def test_refused_on_the_cpu_and_without_ncu(monkeypatch):
    with pytest.raises(GQError, match="--hw-counters .* cuda backend"):
        bq.validate("cpu", ["glfq"], [4], 0.01, 0.0, 1, None, hw_counters=True)
    monkeypatch.setattr(hw, "find_ncu", lambda: None)
    with pytest.raises(GQError, match="--hw-counters needs Nsight Compute's ncu"):
        bq.validate("cuda", ["glfq"], [1024], 0.01, 0.0, 1, None, hw_counters=True)


def test_chart_gets_a_panel_for_the_counters(tmp_path):
    pytest.importorskip("matplotlib")
    profiled = {"queue": "glfq", "threads_run": 1024, "stall": False, "thread_inst_per_op": 350.0,
                "warp_cycles_per_warp_op": 50000.0,
                "stall_cycles_per_warp_op": {"membar": 35000.0, "long_scoreboard": 9000.0, "wait": 1700.0,
                                             "branch_resolving": 1000.0, "selected": 500.0}}
    record = {"settings": {"backend": "cuda"}, "gpu": {"name": "test card"},
              "rows": [{"queue": "glfq", "kernel": "balanced", "producers_pct": None, "threads_run": 1024,
                        "ops_per_s_median": 1e9}],
              "hw_counters": [profiled, {"queue": "ymc", "threads": 1024, "error": "ncu exit 1: no permission"}]}
    assert bq.chart(record, tmp_path / "q.png") is None
    assert (tmp_path / "q.png").stat().st_size > 1000
