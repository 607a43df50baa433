"""tools/gpu_bfs_bench.py's blocks-an-SM label: a row that ran fewer blocks an SM than it asked for
(fewer were resident) says so, so a table never shows a configuration that did not run."""

from tool_loader import load_tool

bench = load_tool("gpu_bfs_bench")


def test_label_is_the_request_when_it_ran():
    assert bench.per_sm_label({"blocks_per_sm": 2, "ran_blocks_per_sm": 2.0}) == "2"


def test_label_shows_fewer_resident_blocks():
    assert bench.per_sm_label({"blocks_per_sm": 4, "ran_blocks_per_sm": 3.0}) == "4>3"
    assert bench.per_sm_label({"blocks_per_sm": 4, "ran_blocks_per_sm": 3.5}) == "4>3.5"


def test_label_of_a_row_without_a_run():
    # a row whose run failed before its blocks were known
    assert bench.per_sm_label({"blocks_per_sm": 1}) == "1"
