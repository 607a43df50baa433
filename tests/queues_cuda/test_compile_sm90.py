"""Every CUDA source compiles for sm_90 with no GPU present (NVRTC from cuda-bindings, or nvcc),
for every queue and every planted fault: a kernel that stops compiling fails CI."""

import pytest

from queues_cuda.build import compile_sm90
from queues_cuda.queues import FAULTS, QUEUES, tuning_defines

VARIANTS = [(q, None) for q in QUEUES] + [(q, f) for f, (_, qs) in FAULTS.items() for q in qs]


@pytest.mark.parametrize("queue, fault", VARIANTS)
def test_compiles_for_sm90(queue, fault):
    defines = (FAULTS[fault][0],) if fault else ()
    compiler, size = compile_sm90(QUEUES[queue].kind_id, defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


@pytest.mark.parametrize("queue", [q for q, kind in QUEUES.items() if kind.wait_free])
def test_slow_path_build_compiles_for_sm90(queue):
    """The build `gq queues check --patience 0 --help-delay 1 --stats` asks for."""
    defines = tuning_defines(queue, patience=0, help_delay=1, stats=True)
    compiler, size = compile_sm90(QUEUES[queue].kind_id, defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


def test_ymc_forced_slow_path_build_compiles_for_sm90():
    """The YMC build of tests/queues_cuda/test_gpu_queues.py's forced slow path, with its late enqueues."""
    defines = tuning_defines("ymc", patience=0, help_delay=1, stats=True) + ("GQ_YMC_LATE_ENQUEUE_NS=200000",)
    compiler, size = compile_sm90(QUEUES["ymc"].kind_id, defines)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


def test_sfq_one_lap_build_compiles_for_sm90():
    """The build of SFQ's one-lap view as the kind's queue (GQ_SFQ_ONE_LAP), which
    tests/queues_cuda/test_gpu_queues.py checks."""
    compiler, size = compile_sm90(QUEUES["sfq"].kind_id, ("GQ_SFQ_ONE_LAP=1",))
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


@pytest.mark.parametrize("stress", ["GQ_STRESS_BLIND_CLAIM", "GQ_STRESS_LEADER_FENCE"])
def test_ring_stress_builds_compile_for_sm90(stress):
    """The benchmark builds of tests/queues_cuda/test_ring_stress_gpu.py."""
    from queues_cuda.bench_queues import BENCH_KERNEL

    compiler, size = compile_sm90(QUEUES["glfq"].kind_id, tuple(stress.split(",")), BENCH_KERNEL)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"


def test_bucket_heap_compiles_for_sm90():
    from queues_cuda.build import KERNEL_DIR

    compiler, size = compile_sm90(0, (), KERNEL_DIR / "bucket_heap.cu")
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"
