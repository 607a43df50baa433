"""tools/gpu_chain_probe.py: the kernel of every kind of step compiles for sm_90 with no GPU present."""

import pytest
from tool_loader import load_tool

from queues_cuda.build import NVRTC_FLAGS, compile_source_sm90

PROBE = load_tool("gpu_chain_probe")


@pytest.mark.parametrize("kind", PROBE.KINDS, ids=[k[0] for k in PROBE.KINDS])
def test_kind_compiles_for_sm90(kind):
    label, k = kind
    compiler, size = compile_source_sm90(PROBE.SOURCE, "chain_probe.cu", NVRTC_FLAGS + (f"-DKIND={k}",))
    assert size > 1000, f"{compiler} produced a {size}-byte cubin for {label}"
