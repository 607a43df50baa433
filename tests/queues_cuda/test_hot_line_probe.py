"""tools/gpu_hot_line_probe.py: every row's kernel compiles for sm_90 with no GPU present, and the
requests the table charges to the counter line follow from the row's switches."""

import pytest
from tool_loader import load_tool

from queues_cuda.build import NVRTC_FLAGS, compile_source_sm90

PROBE = load_tool("gpu_hot_line_probe")


@pytest.mark.parametrize("row", PROBE.ROWS, ids=[r[0] for r in PROBE.ROWS])
def test_row_compiles_for_sm90(row):
    label, k, other, faa, xchg, _ = row
    defines = (f"-DK={k}", f"-DLOAD_OTHER={other}", f"-DDO_FAA={faa}", f"-DDO_XCHG={xchg}")
    compiler, size = compile_source_sm90(PROBE.SOURCE, "hot_line_probe.cu", NVRTC_FLAGS + defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin for {label}"


def test_requests_on_the_counter_line():
    for label, k, other, faa, _, requests in PROBE.ROWS:
        assert requests == (0 if other else k) + faa, label
