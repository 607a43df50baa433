"""tools/ncu_render.py reads its rows as documented."""

import pytest
from tool_loader import load_tool

ncu_render = load_tool("ncu_render")


def test_rows():
    assert ncu_render.parse_row("compaction") == (dict(renderer="compaction"), ())
    assert ncu_render.parse_row("glfq:2x2") == (dict(renderer="queue", queue="glfq", tiles=(2, 2)), ())
    assert ncu_render.parse_row("gwfq:4X3:RT_SCENE_SHARED=0,RT_MIN_BLOCKS=6") == (
        dict(renderer="queue", queue="gwfq", tiles=(4, 3)), ("RT_SCENE_SHARED=0", "RT_MIN_BLOCKS=6"))


@pytest.mark.parametrize("row", ["glfq", "glfq:2x2:A:B", "glfq:2by2"])
def test_bad_rows(row):
    with pytest.raises((SystemExit, ValueError)):
        ncu_render.parse_row(row)
