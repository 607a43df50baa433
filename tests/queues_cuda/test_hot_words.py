"""The queues' hot words (arch.cuh, kHotStride): every queue's layout is a whole number of hot
strides, so that queues laid out back to back (the tile renderer's, the BFS's two) keep their
counters that far apart; and tools/gpu_counter_lines_probe.py, which measured the spacing,
compiles for sm_90 with no GPU present."""

import re
from pathlib import Path

import pytest
from tool_loader import load_tool

from queues_cuda import bench_queues as bq
from queues_cuda.build import NVRTC_FLAGS, compile_source_sm90, cpu_library
from queues_cuda.queues import QUEUES

ARCH = Path(__file__).resolve().parents[2] / "queues_cuda" / "include" / "gq" / "arch.cuh"
STRIDE = int(re.search(r"#define GQ_HOT_STRIDE_WORDS (\d+)", ARCH.read_text()).group(1))


@pytest.mark.parametrize("queue", list(QUEUES))
def test_queue_words_are_whole_strides(queue):
    lib = cpu_library(QUEUES[queue].kind_id, ())
    for capacity, threads in ((1, 1), (3, 7), (1000, 64), (4096, 4096), (5000, 70000)):
        words = int(lib.gq_queue_words(capacity, threads))
        assert words % STRIDE == 0, f"{queue}: {words} words for capacity {capacity}, {threads} threads"


def test_ideal_ring_words_are_whole_strides():
    """The benchmark's ideal ring (not a queue, so not in QUEUES) keeps the same rule."""
    lib = bq.launcher("cpu", bq.IDEAL).lib
    for capacity, threads in ((1, 1), (3, 7), (4096, 4096), (5000, 70000)):
        words = int(lib.gq_bench_words(capacity, threads))
        assert words % STRIDE == 0, f"ideal: {words} words for capacity {capacity}, {threads} threads"


def test_counter_lines_probe_compiles_for_sm90():
    probe = load_tool("gpu_counter_lines_probe")
    compiler, size = compile_source_sm90(probe.SOURCE, "counter_lines_probe.cu", NVRTC_FLAGS)
    assert size > 1000, f"{compiler} produced a {size}-byte cubin"
