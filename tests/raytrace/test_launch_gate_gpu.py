"""The launch gate (raytrace/cuda_render.py _LaunchGate, kernels/render.cu rt_launch_gate) on the
GPU: the stream runs nothing behind it until the host releases it, then runs what was enqueued;
past its budget it lets the stream go and the host is warned; GQ_LAUNCH_GATE=0 turns it off."""

from __future__ import annotations

import time
import warnings

import pytest

from queues_cuda.queues import QUEUES
from raytrace.build import cuda_module
from raytrace.cuda_render import _LaunchGate

pytestmark = pytest.mark.gpu

HELD_S = 0.2  # far longer than the GPU needs to run a one-element copy that nothing holds back


def _module():
    return cuda_module(QUEUES["sfq"].kind_id)


def _copy_behind(gate):
    """A one-element copy enqueued behind the gate, then an event; returns the copy's source (kept
    alive until the copy has run), its destination and the event."""
    import cupy

    src = cupy.full(1, 7, cupy.uint32)
    dst = cupy.zeros(1, cupy.uint32)
    gate.hold()
    cupy.copyto(dst, src)
    after = cupy.cuda.Event()
    after.record()
    return src, dst, after


def _ran_by(event, seconds: float) -> bool:
    """Whether the stream passed `event` within `seconds` (polled: never a host wait that hangs)."""
    deadline = time.monotonic() + seconds
    while not event.done:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def test_the_stream_waits_for_the_release(monkeypatch):
    monkeypatch.delenv("GQ_LAUNCH_GATE", raising=False)
    gate = _LaunchGate(_module())
    _, dst, after = _copy_behind(gate)
    assert not _ran_by(after, HELD_S), "the copy behind the gate ran before the release"
    gate.release()
    assert _ran_by(after, 5.0), "the stream did not go on after the release"
    assert int(dst.get()[0]) == 7
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # released in time: no warning
        gate.warn_if_gave_up()


def test_past_its_budget_the_gate_lets_go_and_says_so(monkeypatch):
    monkeypatch.delenv("GQ_LAUNCH_GATE", raising=False)
    monkeypatch.setattr(_LaunchGate, "BUDGET_NS", 20_000_000)  # 20 ms
    gate = _LaunchGate(_module())
    _, dst, after = _copy_behind(gate)
    assert _ran_by(after, 5.0), "the gate held the stream past its budget"
    assert int(dst.get()[0]) == 7
    with pytest.warns(UserWarning, match="launch gate let the stream go"):
        gate.warn_if_gave_up()
    gate.release()


def test_gate_off_holds_nothing(monkeypatch):
    monkeypatch.setenv("GQ_LAUNCH_GATE", "0")
    gate = _LaunchGate(_module())
    _, dst, after = _copy_behind(gate)
    assert _ran_by(after, 5.0), "with GQ_LAUNCH_GATE=0 the stream was held"
    assert int(dst.get()[0]) == 7
