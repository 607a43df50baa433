"""seq_cst as CUDA's atomics ABI spells it (gq/arch.cuh), held on the emitted PTX (no GPU needed).

ptxas turns `fence.sc` followed by `atom.acq_rel` or `st.release` into two fences back to back,
MEMBAR.SC.GPU and MEMBAR.ALL.GPU, and on the H200 the second one cost 200-450 ns a step of every
queue operation's chain (tools/gpu_chain_probe.py, run 216); the ABI's `fence.sc` then
`atom.acquire` / `st.relaxed` made G-LFQ 15-33 % faster (run 217). This holds every queue's
benchmark and check kernels to the ABI's form: nothing with a release of its own right behind a
`fence.sc`.
"""

import pytest

from queues_cuda.build import KERNEL_DIR, kernel_ptx
from queues_cuda.queues import ALL_QUEUE_KINDS

KERNELS = ["queue_bench.cu", "queue_check.cu"]


def fenced_accesses(ptx: str) -> list[str]:
    """The instruction right after each `fence.sc` of the PTX (labels, comments and braces skipped)."""
    lines = [ln.strip() for ln in ptx.splitlines()]
    code = [ln for ln in lines if ln and not ln.startswith(("//", "$", "{", "}", "."))]
    return [code[i + 1] for i, ln in enumerate(code[:-1]) if ln.startswith("fence.sc")]


def test_fenced_accesses_reads_the_next_instruction():
    ptx = ("fence.sc.gpu;\n$L__BB0_1:\n// note\natom.acquire.gpu.add.u64 %rd1, [%rd2], 1;\n"
           "fence.sc.gpu;\nld.acquire.gpu.u64 %rd3, [%rd2];\n")
    assert fenced_accesses(ptx) == ["atom.acquire.gpu.add.u64 %rd1, [%rd2], 1;", "ld.acquire.gpu.u64 %rd3, [%rd2];"]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("queue", list(ALL_QUEUE_KINDS))
def test_no_release_behind_a_seq_cst_fence(queue, kernel):
    after = fenced_accesses(kernel_ptx(ALL_QUEUE_KINDS[queue].kind_id, (), KERNEL_DIR / kernel))
    assert after, f"{queue} {kernel}: no fence.sc at all, so the rule holds nothing"
    doubled = [ins for ins in after if ins.startswith(("atom.acq_rel", "atom.release", "st.release"))]
    assert not doubled, (f"{queue} {kernel}: {len(doubled)} of {len(after)} fenced accesses carry a release "
                         f"of their own, e.g. {doubled[0]}")
