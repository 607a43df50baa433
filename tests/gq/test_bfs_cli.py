"""`gq bfs` as a user meets it: generated and
file graphs in, depth and parent out (checked against scipy), the benchmark table and its JSON,
and every bad input one line with exit code 2."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from gq import cli
from gq.bfs_cli import bfs
from queues_cuda.backend import gpu_status
from sssp_demo import bfs as B


@pytest.fixture(autouse=True)
def registered():
    """`gq bfs` in the command group (gq/cli.py registers it; a tree without that line gets it
    for these tests only)."""
    added = "bfs" not in cli.main.commands
    if added:
        cli.main.add_command(bfs)
    yield
    if added:
        cli.main.commands.pop("bfs", None)


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.run(["bfs", *(str(a) for a in args)])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.fixture
def mtx(tmp_path):
    g = sp.random(300, 300, density=0.01, random_state=3, format="coo")
    path = tmp_path / "g.mtx"
    scipy.io.mmwrite(path, g)
    return path, g.tocsr()


def test_matrix_market_result_file(tmp_path, capsys, mtx):
    path, g = mtx
    out_npz = tmp_path / "r.npz"
    code, out, err = run(capsys, path, "--source", 4, "-o", out_npz, "--check", "--backend", "cpu")
    assert code == 0, err
    assert "depths equal scipy's" in out
    assert "queue sfq:" in out  # the default frontier queue
    with np.load(out_npz) as r:
        assert r["depth"].dtype == np.int32 and r["parent"].dtype == np.int32
        assert np.array_equal(r["depth"], B.reference_depth(*B.as_csr(g), 4))


@pytest.mark.parametrize("generate, extra", [("kron", ("--scale", 8)), ("delaunay", ("--vertices", 300)),
                                             ("road", ("--vertices", 400))])
@pytest.mark.parametrize("queue, algorithm", [("glfq", "queue"), ("ymc", "queue"), ("glfq", "compaction")])
def test_generated_graphs(capsys, generate, extra, queue, algorithm):
    code, out, err = run(capsys, "--generate", generate, *extra, "--queue", queue, "--algorithm", algorithm,
                         "--backend", "cpu", "--check")
    assert code == 0, err
    assert "levels" in out and "depths equal scipy's" in out


def test_bench_table_and_json(tmp_path, capsys):
    record = tmp_path / "bfs.json"
    code, out, err = run(capsys, "--generate", "road", "--vertices", 900, "--bench", "--repeats", 2,
                         "--backend", "cpu", "--json", record)
    assert code == 0, err
    for variant in ("queue/glfq", "queue/sfq", "queue/gwfq", "queue/ymc", "compaction"):
        assert variant in out
    data = json.loads(record.read_text())
    assert data["kind"] == "bfs-bench" and "commit" in data
    rows = data["graphs"][0]["rows"]
    assert len(rows) == 5 and all(r["exact"] and len(r["ms_runs"]) == 2 for r in rows)
    assert len({r["levels"] for r in rows}) == 1


@pytest.mark.parametrize("args, message", [
    ((), "give a graph file or --generate"),
    (("--generate", "grid"), "--generate: unknown generator 'grid'"),
    (("--generate", "kron", "--vertices", 10), "--vertices does not apply"),
    (("--generate", "kron", "--scale", 0), "--scale"),
    (("--generate", "road", "--vertices", 100, "--source", 100), "--source: expected a vertex in 0..99"),
    (("--generate", "road", "--vertices", 100, "--source", -2), "--source"),
    (("--generate", "road", "--queue", "lifo"), "--queue: unknown queue 'lifo'"),
    (("--generate", "road", "--algorithm", "dfs"), "--algorithm: unknown algorithm 'dfs'"),
    (("--generate", "road", "-o", "out.txt"), "-o: the name must end in .npz"),
    (("--generate", "road", "-o", "/no/such/folder/r.npz"), "does not exist"),
    (("--generate", "road", "--json", "x.json"), "apply to --bench only"),
    (("--generate", "road", "--bench", "--repeats", 0), "--repeats"),
    (("no-such-file.mtx",), "no such file"),
    (("graph.bin",), "unknown graph file extension"),
    pytest.param(("--generate", "road", "--backend", "cuda"), "--backend cuda",
                 marks=pytest.mark.skipif(gpu_status()[0] is not None, reason="a GPU answers here")),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2
    lines = [line for line in err.strip().splitlines() if not line.startswith("generating ")]  # progress
    assert len(lines) == 1 and lines[0].startswith("gq: error: ") and message in lines[0], err
    assert not list(tmp_path.iterdir())  # nothing written


def test_bad_matrix_market_file(tmp_path, capsys):
    path = tmp_path / "bad.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 x 1.0\n")
    code, out, err = run(capsys, path)
    assert code == 2 and err.startswith("gq: error: ") and "bad.mtx" in err
