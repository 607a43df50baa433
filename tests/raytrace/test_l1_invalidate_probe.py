"""tools/gpu_l1_invalidate_probe.py: every row's kernel compiles for sm_90 with no GPU present,
and the readers' table is one cycle through every word (so a chain's loads never settle into a
short loop that a smaller cache could hold)."""

import numpy as np
import pytest
from tool_loader import load_tool

from queues_cuda.build import NVRTC_FLAGS, compile_source_sm90

PROBE = load_tool("gpu_l1_invalidate_probe")


@pytest.mark.parametrize("row", PROBE.ROWS, ids=[r[0] for r in PROBE.ROWS])
def test_row_compiles_for_sm90(row):
    label, load, others, code, other_code = row
    defines = (f"-DLOAD={PROBE.LOADS[load]}", f"-DOTHERS={PROBE.OTHERS[others]}", f"-DTABLE={PROBE.TABLE}u",
               f"-DLOCAL={PROBE.LOCAL}u", f"-DCODE={code}u", f"-DOTHER_CODE={other_code}u")
    compiler, size = compile_source_sm90(PROBE.SOURCE, "l1_invalidate_probe.cu", NVRTC_FLAGS + defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin for {label}"


@pytest.mark.parametrize("n", [1, 2, 16, 4096])
def test_chain_is_one_cycle(n):
    table = PROBE.chain(n)
    seen, at = set(), 0
    for _ in range(n):
        seen.add(at)
        at = int(table[at])
    assert at == 0 and len(seen) == n
    assert np.array_equal(np.sort(table), np.arange(n))
