"""`gq sssp` as a user meets it: a graph file or a generated graph in, distances and
predecessors out (checked against scipy), and every bad input one line with exit code 2."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from gq import cli
from queues_cuda.backend import gpu_status


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.run([str(a) for a in args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_seed_dag_closed_form_and_result_file(tmp_path, capsys):
    out_npz = tmp_path / "r.npz"
    code, out, err = run(capsys, "sssp", "--generate", "seed-dag", "--vertices", 500, "--edges", 20000,
                         "--algorithm", "pardijkstra", "--check", "-o", out_npz)
    assert code == 0, err
    assert "improvements 20,000" in out  # every extra edge is a successful decrease-key
    with np.load(out_npz) as r:
        assert r["distances"].dtype == np.float64 and r["predecessors"].dtype == np.int64
        assert np.array_equal(r["distances"], np.arange(500.0))


@pytest.mark.parametrize("algorithm", ["pardijkstra", "scipy"])
def test_matrix_market_file(tmp_path, capsys, algorithm):
    rng = np.random.default_rng(2)
    g = sp.random(300, 300, density=0.02, random_state=3, format="coo")
    g.data = rng.integers(1, 9, g.nnz).astype(float)
    scipy.io.mmwrite(tmp_path / "g.mtx", g)
    code, out, err = run(capsys, "sssp", tmp_path / "g.mtx", "--source", 5, "--algorithm", algorithm, "--check")
    assert code == 0, err
    assert "distances equal scipy's" in out


@pytest.mark.parametrize("args, message", [
    ((), "give a graph file or --generate"),
    (("--generate", "kron"), "unknown generator 'kron'"),
    (("--generate", "road", "--param", "lanes=2"), "--param"),
    (("--generate", "road", "--param", "rows=x"), "expected an integer"),
    (("--generate", "seed-dag", "--param", "n=10", "--param", "m=20", "--source", "10"), "source"),
    pytest.param(("--generate", "seed-dag", "--param", "n=10", "--param", "m=20", "--backend", "cuda"), "--backend cuda",
                 marks=pytest.mark.skipif(gpu_status()[0] is not None, reason="a GPU answers: --backend cuda runs")),
    (("--generate", "seed-dag", "--param", "n=10", "--param", "m=20", "-o", "r.txt"), ".npz"),
    (("--generate", "road", "--vertices", "100"), "--vertices applies to --generate seed-dag or delaunay"),
    (("--generate", "rmat", "--edges", "100"), "--edges applies to --generate seed-dag"),
    (("g.mtx", "--vertices", "100"), "apply to --generate only"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, message):
    code, out, err = run(capsys, "sssp", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_default_algorithm_is_near_far(capsys):
    code, out, err = run(capsys, "sssp", "--generate", "road", "--param", "rows=30", "--param", "cols=30", "--check")
    assert code == 0, err
    assert "; near-far from 0" in out and "distances equal scipy's" in out


def test_negative_weight_file(tmp_path, capsys):
    (tmp_path / "neg.txt").write_text("0 1 2.0\n1 2 -1.5\n")
    code, _, err = run(capsys, "sssp", tmp_path / "neg.txt")
    assert code == 2 and "neg.txt" in err and "negative" in err


def test_bench_table_and_sweep(tmp_path, capsys):
    code, out, err = run(capsys, "sssp", "--generate", "road", "--param", "rows=20", "--param", "cols=20",
                         "--bench", "--repeats", 1, "--json", tmp_path / "one.json")
    assert code == 0, err
    for algorithm in ("scipy", "pardijkstra", "pardijkstra-batched", "near-far", "bellman-ford"):
        assert algorithm in out
    assert (tmp_path / "one.json").exists()
    sweep_json = tmp_path / "sweep.json"
    code, out, err = run(capsys, "bench", "sssp", "--param", "n=200", "--sweep", "m=300,2000", "--repeats", 1,
                         "--json", sweep_json)
    assert code == 0, err
    import json

    record = json.loads(sweep_json.read_text())
    assert [g["edges"] for g in record["graphs"]] == [300, 2000]
    assert all(r["exact"] for g in record["graphs"] for r in g["rows"])
    assert "commit" in record and "gpu" in record
