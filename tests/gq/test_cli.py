"""The command line as a user meets it: one-line errors with exit code 2, a passing check with
exit code 0, a planted fault with exit code 1 and a counter-example, histories saved and checked
again from their files."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from queues_cuda.backend import gpu_status

ROOT = Path(__file__).resolve().parents[2]


def gq(*args, env=None):
    return subprocess.run([sys.executable, "-m", "gq", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=600)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--queue", "nope"], "unknown queue 'nope'; allowed: glfq, sfq"),
        (["--threads", "0"], "--threads must be at least 1"),
        (["--capacity", "-1"], "--capacity must be at least 1"),
        (["--capacity", "x"], "--capacity: expected integers"),
        (["--backend", "gpu"], "unknown backend 'gpu'"),
        (["--fault", "nope"], "unknown fault 'nope'"),
        (["--from-file", "missing.jsonl"], "no such file or folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, needle, tmp_path):
    out = gq("queues", "check", *args, "--json", str(tmp_path / "r.json"))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and needle in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "r.json").exists()  # nothing half-written


@pytest.mark.skipif(gpu_status()[0] is not None, reason="a GPU answers here")
def test_cuda_without_gpu_is_a_clear_error():
    out = gq("queues", "check", "--backend", "cuda")
    assert out.returncode == 2 and out.stderr.startswith("gq: error: --backend cuda: no GPU available")


def test_info():
    out = gq("info")
    assert out.returncode == 0
    assert "backend cpu" in out.stdout and "sm_90 compile check" in out.stdout and "build cache" in out.stdout


def test_check_passes_and_histories_round_trip(tmp_path):
    runs = tmp_path / "runs"
    out = gq("queues", "check", "--queue", "all", "--backend", "cpu", "--histories", "6", "--threads", "16",
             "--ops", "8", "--fifo-tokens", "2000", "--save-histories", str(runs), "--json", str(tmp_path / "r.json"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "glfq" in out.stdout and "sfq" in out.stdout and "yes" in out.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert all(r["ok"] for r in report["reports"])
    files = sorted((runs / "glfq").glob("*.jsonl"))
    assert len(files) == 6
    # Histories rotate over five mixes per capacity: the first five were recorded at capacity 1.
    again = gq("queues", "check", "--from-file", str(files[1]), "--capacity", "1")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "h0002.jsonl" in again.stdout
    # The same history read as a capacity-1000 queue has FULL answers no such queue may give.
    wrong = gq("queues", "check", "--from-file", str(files[1]), "--capacity", "1000")
    full_answers = '"ret": false' in files[1].read_text()
    assert wrong.returncode == (1 if full_answers else 0)


def test_tampered_history_is_rejected_with_a_counterexample(tmp_path):
    path = tmp_path / "h.jsonl"
    lines = [
        {"proc": 0, "op": 0, "arg": 1, "ret": True, "call": 1, "end": 2},
        {"proc": 0, "op": 0, "arg": 2, "ret": True, "call": 3, "end": 4},
        {"proc": 1, "op": 1, "arg": None, "ret": 2, "call": 5, "end": 6},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = gq("queues", "check", "--from-file", str(path), "--capacity", "4")
    assert out.returncode == 1
    assert "counter-example" in out.stdout and "dequeue() -> 2" in out.stdout


def test_fault_build_exits_1():
    out = gq("queues", "check", "--queue", "glfq", "--backend", "cpu", "--fault", "eager-full", "--capacity", "1",
             "--histories", "10", "--fifo-tokens", "0")
    assert out.returncode == 1
    assert "NO" in out.stdout and "counter-example" in out.stdout
