"""tools/gpu_queue_ncu.py's reading of ncu's raw CSV and its per-operation arithmetic, on a
hand-made output (the tool itself needs ncu and a GPU)."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location("gpu_queue_ncu", Path(__file__).parents[2] / "tools" / "gpu_queue_ncu.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)

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
    rows = tool.ncu_rows(OUTPUT)
    assert len(rows) == 1
    assert rows[0]["Kernel Name"] == "gq_bench"
    assert rows[0]["smsp__inst_executed.sum"] == "6,400"


def test_per_operation_figures():
    counts = {"all_enq_ok": 1600, "all_deq_ok": 1600, "window_ops": 2500}  # 3,200 operations: 100 warp ops
    row = tool.per_op(tool.ncu_rows(OUTPUT)[0], counts)
    assert row["ops"] == 3200
    assert not row["stall"]
    assert row["kernel_s"] == pytest.approx(0.025)
    assert row["thread_inst_per_op"] == pytest.approx(64.0)
    assert row["warp_inst_per_warp_op"] == pytest.approx(64.0)
    assert row["warp_cycles_per_warp_op"] == pytest.approx(12800.0)
    # ratio x cycles with an issue / warp operations, largest first
    assert list(row["stall_cycles_per_warp_op"].items()) == [("long_scoreboard", 960.0), ("membar", 320.0)]


def test_a_run_without_operations_in_its_window_is_a_stall():
    counts = {"all_enq_ok": 1600, "all_deq_ok": 1600, "window_ops": 0}
    assert tool.per_op(tool.ncu_rows(OUTPUT)[0], counts)["stall"]


def test_no_output_no_rows():
    assert tool.ncu_rows("==ERROR== ERR_NVGPUCTRPERM - no permission\n") == []
