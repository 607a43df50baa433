"""The queues' code leaves their callers room in registers (compiled for sm_90, no GPU needed).

A queue operation is inlined into every kernel that makes one, so what it holds in registers is
paid by the benchmark, the renderer and the BFS alike. At 2^18 threads the benchmark runs eight
256-thread blocks an SM, 32 registers a thread, and everything beyond spills. The quiescence
guard's collect loop, unrolled, once held its 64 shard loads in flight and took G-LFQ's benchmark
kernel to 182 registers (206 for G-WFQ) and 140 bytes of spills at four blocks an SM; rolled, 66
and none (72 and 4 bytes since G-LFQ keeps its free-ring flag, run 214), and on the H200 G-WFQ's
75 % split went from 36 to 50 % of its balanced rate at 2^16 threads (run 205, benchmarks/results/
README.md). At eight blocks an SM G-WFQ's kernel spills whatever it does; folding parking's flag
and counter into one byte took its spill stores from 972 to 960 bytes, and its balanced rate at
2^18 threads from 21.55 to 22.46 G on an H100 (run 333). These budgets keep all of that from
coming back.
"""

import pytest

from queues_cuda.build import KERNEL_DIR, kernel_resources
from queues_cuda.queues import QUEUES

BENCH = KERNEL_DIR / "queue_bench.cu"

# (queue, blocks an SM the launch bounds ask for, most registers, most bytes of spill stores)
BUDGETS = [
    ("glfq", 1, 96, 0),
    ("glfq", 4, 64, 16),
    ("gwfq", 1, 128, 0),
    ("gwfq", 8, 32, 960),
]


@pytest.mark.parametrize("queue, blocks, registers, spills", BUDGETS)
def test_bench_kernel_fits_its_register_budget(queue, blocks, registers, spills):
    defines = (f"GQ_BENCH_MIN_BLOCKS={blocks}",) if blocks > 1 else ()
    got = kernel_resources(QUEUES[queue].kind_id, defines, BENCH)["gq_bench"]
    assert got["registers"] <= registers, f"{queue} at {blocks} block(s) an SM: {got}"
    assert got["spill_stores"] <= spills, f"{queue} at {blocks} block(s) an SM: {got}"
