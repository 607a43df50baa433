"""`gq bench queues` as a user meets it (registered under `gq bench` here, as gq/cli.py will):
a short CPU sweep writes the table, the JSON record and the chart; every bad input is one line
with exit code 2 and writes nothing."""

from __future__ import annotations

import json

import pytest

from gq import cli
from gq.bench_queues_cli import bench_queues
from queues_cuda.backend import gpu_status

if "queues" not in cli.bench.commands:
    cli.bench.add_command(bench_queues)


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.run([str(a) for a in args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_cpu_sweep_writes_table_record_and_chart(tmp_path, capsys):
    out_json = tmp_path / "q.json"
    code, out, err = run(capsys, "bench", "queues", "--backend", "cpu", "--queue", "glfq,ideal", "--threads", "2^1..2^2",
                         "--producers", "50", "--duration", "0.02", "--warmup", "0.005", "--runs", "1",
                         "--json", out_json)
    assert code == 0, err
    rec = json.loads(out_json.read_text())
    assert rec["kind"] == "queue-bench" and rec["commit"] and "gpu" in rec
    assert rec["command"] and rec["settings"]["threads"] == [2, 4]
    assert len(rec["rows"]) == 2 * 2 * 2  # queues x (balanced, split 50%) x threads
    # A run stalled by a loaded host gives no figure (and says so); every other balanced run counts.
    assert all(r["stalls"] or r["ops_per_s_median"] > 0 for r in rec["rows"] if r["kernel"] == "balanced")
    assert "glfq    balanced" in out and f"wrote {out_json}" in out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "chart skipped" in err
    else:
        assert out_json.with_suffix(".png").stat().st_size > 1000


def test_poll_backoff_option_records_the_polite_build(tmp_path, capsys):
    out_json = tmp_path / "q.json"
    code, out, err = run(capsys, "bench", "queues", "--backend", "cpu", "--queue", "glfq", "--threads", "4",
                         "--producers", "50", "--duration", "0.02", "--warmup", "0.005", "--runs", "1",
                         "--poll-backoff", "1024", "--json", out_json, "--chart", tmp_path / "q.png")
    assert code == 0, err
    rec = json.loads(out_json.read_text())
    assert rec["settings"]["poll_backoff_ns"] == 1024
    assert [(r["kernel"], r.get("poll_backoff_ns")) for r in rec["rows"]] == [("balanced", None), ("split", 1024)]
    assert "poll ns" in out.splitlines()[0] and out.splitlines()[2].split()[-1] == "1024"


@pytest.mark.parametrize("args, words", [
    (["--threads", "2^4..2^2"], "--threads: a range runs"),
    (["--threads", "two"], "--threads: expected an integer"),
    (["--producers", "0"], "--producers: a percentage must be between 1 and 99"),
    (["--kernel", "mixed"], "--kernel: expected balanced, split or both"),
    (["--duration", "0"], "--duration must be above 0"),
    (["--runs", "0"], "--runs must be at least 1"),
    (["--queue", "lcrq"], "--queue: unknown queue 'lcrq'"),
    (["--json", "out.txt"], "--json: the name must end in .json"),
    (["--threads", "4096"], "--threads 4096: the CPU backend"),
    (["--poll-backoff", "-5"], "--poll-backoff must be between 0 (off) and 1000000 ns, got -5"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "bench", "queues", "--backend", "cpu", *args)
    assert code == 2
    assert err.startswith("gq: error: ") and words in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.skipif(gpu_status()[0] is not None, reason="a GPU answers here")
def test_backend_cuda_without_gpu_is_refused(capsys):
    code, _, err = run(capsys, "bench", "queues", "--backend", "cuda")
    assert code == 2 and "--backend cuda: no GPU available" in err


def test_hw_counters_refused_before_measuring(tmp_path, capsys):
    out = tmp_path / "q.json"
    code, _, err = run(capsys, "bench", "queues", "--backend", "cpu", "--queue", "glfq", "--threads", "4",
                       "--hw-counters", "--json", out)
    assert code == 2
    assert "--hw-counters" in err and "cuda backend" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.gpu
def test_gpu_hw_counters_of_one_queue(tmp_path, capsys):
    from queues_cuda import hw_counters as hw

    if hw.find_ncu() is None:
        pytest.skip("no ncu on this machine")
    out = tmp_path / "q.json"
    code, stdout, err = run(capsys, "bench", "queues", "--backend", "cuda", "--queue", "glfq", "--kernel", "balanced",
                            "--threads", "1024", "--runs", "1", "--duration", "0.01", "--warmup", "0.002",
                            "--hw-counters", "--json", out, "--chart", tmp_path / "q.png")
    assert code == 0, err
    (profiled,) = json.loads(out.read_text())["hw_counters"]
    if "error" in profiled and "ERR_NVGPUCTRPERM" in profiled["error"]:
        pytest.skip("ncu may not read the counters here: " + profiled["error"])
    assert "error" not in profiled, profiled["error"]
    assert profiled["queue"] == "glfq" and profiled["threads_run"] == 1024 and not profiled["stall"]
    assert profiled["ops"] > 0 and profiled["thread_inst_per_op"] > 10
    assert profiled["warp_cycles_per_warp_op"] > 0 and profiled["stall_cycles_per_warp_op"]
    assert "hardware counters (ncu)" in stdout
