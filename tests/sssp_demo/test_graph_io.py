"""Graph files to CSR and results to .npz: round trips through scipy's Matrix Market writer and
through edge lists, the minimum rule for parallel edges, zero weights and self-loops kept, and one
GraphError line naming the file and the line (or the field) for every bad input."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from sssp_demo import graph_io
from sssp_demo.graph_io import (
    NO_PREDECESSOR,
    GraphError,
    csr_from_edges,
    read_graph,
    validate_csgraph,
    write_result,
)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def dense(g):
    """Adjacency as a dense array with NaN for 'no edge' (so stored zeros stay visible)."""
    out = np.full(g.shape, np.nan)
    rows = np.repeat(np.arange(g.shape[0]), np.diff(g.indptr))
    out[rows, g.indices] = g.data
    return out


def assert_interchange(g):
    validate_csgraph(g)
    assert g.has_canonical_format, "sorted columns, no parallel edges"
    assert g.indices.dtype == np.int32


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("field", ["real", "integer", "pattern"])
@pytest.mark.parametrize("symmetry", ["general", "symmetric"])
def test_matrix_market_round_trip(tmp_path, field, symmetry):
    rng = np.random.default_rng(7)
    n = 40
    a = sp.random(n, n, density=0.1, random_state=rng, format="coo")
    a.data = np.round(a.data * 10) + 1 if field != "real" else a.data * 10
    if symmetry == "symmetric":
        a = sp.triu(a) + sp.triu(a, 1).T
    path = tmp_path / "g.mtx"
    scipy.io.mmwrite(str(path), a.tocsr(), field=field, symmetry=symmetry)
    g = read_graph(path)
    assert_interchange(g)
    want = a.toarray()
    if field == "pattern":
        want = (want != 0).astype(float)
    got = np.nan_to_num(dense(g), nan=0.0)
    np.testing.assert_array_equal(got, want)


def test_matrix_market_comments_blank_lines_and_case(tmp_path):
    path = write(tmp_path, "c.mtx", "%%MatrixMarket MATRIX Coordinate Real General\n% a comment\n\n%another\n"
                                    "3 3 2\n1 2 0.5\n\n% between entries\n3 1 2e0\n")
    np.testing.assert_array_equal(dense(read_graph(path)), [[np.nan, 0.5, np.nan], [np.nan] * 3, [2.0, np.nan, np.nan]])


@pytest.mark.parametrize("suffix, sep", [(".txt", " "), (".el", "\t"), (".tsv", "\t"), (".csv", ",")])
def test_edge_list_round_trip(tmp_path, suffix, sep):
    rng = np.random.default_rng(3)
    u, v = rng.integers(0, 30, 200), rng.integers(0, 30, 200)
    w = rng.random(200) * 5
    body = "\n".join(f"{a}{sep}{b}{sep}{float(c)!r}" for a, b, c in zip(u, v, w))
    g = read_graph(write(tmp_path, "g" + suffix, "# header comment\n% also a comment\n" + body + "\n"))
    assert_interchange(g)
    n = int(max(u.max(), v.max())) + 1
    want = np.full((n, n), np.inf)
    np.minimum.at(want, (u, v), w)  # parallel edges: the cheaper one
    np.testing.assert_array_equal(np.nan_to_num(dense(g), nan=np.inf), want)


def test_edge_list_unweighted_weighs_one(tmp_path):
    g = read_graph(write(tmp_path, "u.txt", "0 1\n1 2   # trailing comment\n\n2 0\n"))
    assert g.shape == (3, 3) and np.all(g.data == 1.0)


def test_parallel_edges_keep_the_minimum(tmp_path):
    """Two parallel roads mean the cheaper one; scipy's COO -> CSR would sum them (7 + 3 = 10)."""
    path = write(tmp_path, "p.txt", "0 1 7\n0 1 3\n1 2 1\n0 1 5\n")
    g = read_graph(path)
    assert g.nnz == 2 and dense(g)[0, 1] == 3.0
    assert sp.coo_matrix(([7.0, 3.0], ([0, 0], [1, 1])), shape=(3, 3)).tocsr()[0, 1] == 10.0
    mtx = write(tmp_path, "p.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 7\n1 2 3\n1 2 5\n")
    assert dense(read_graph(mtx))[0, 1] == 3.0


def test_symmetric_duplicate_of_mirror_keeps_minimum(tmp_path):
    path = write(tmp_path, "s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 4\n1 2 9\n")
    np.testing.assert_array_equal(dense(read_graph(path)), [[np.nan, 4.0], [4.0, np.nan]])


def test_zero_weights_and_self_loops_are_kept(tmp_path):
    g = read_graph(write(tmp_path, "z.txt", "0 1 0\n1 1 2.5\n1 2 0.0\n"))
    assert g.nnz == 3, "a stored zero is an edge of weight 0, not a missing edge"
    assert dense(g)[1, 1] == 2.5
    dist = dijkstra(g, indices=0)
    np.testing.assert_array_equal(dist, [0.0, 0.0, 0.0])
    sym = write(tmp_path, "z.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 3\n2 1 0\n")
    h = read_graph(sym)
    assert h.nnz == 3 and dense(h)[0, 0] == 3.0, "a diagonal entry is one self-loop, not two"


def test_unreachable_and_isolated_vertices(tmp_path):
    g = read_graph(write(tmp_path, "u.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 2\n1 2\n4 5\n"))
    assert g.shape == (5, 5)
    np.testing.assert_array_equal(dijkstra(g, indices=0), [0, 1, np.inf, np.inf, np.inf])


@pytest.mark.parametrize("name, text", [
    ("one.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 0\n"),
    ("one.txt", "0 0 1.5\n"),
])
def test_single_vertex(tmp_path, name, text):
    g = read_graph(write(tmp_path, name, text))
    assert g.shape == (1, 1)
    assert dijkstra(g, indices=0).tolist() == [0.0]


def test_csr_from_edges_empty_and_dtypes():
    g = csr_from_edges(4, [], [], [])
    assert g.shape == (4, 4) and g.nnz == 0 and g.indices.dtype == np.int32
    validate_csgraph(g, 3)


# --------------------------------------------------------------------------- bad files

BANNER = "%%MatrixMarket matrix coordinate real general\n"

BAD_FILES = [
    # (file name, content, the message after '<path>: ')
    ("bad.txt", "# comment\n" * 16 + "a b\n", "line 17: expected 'u v [w]' with integer vertices, got 'a b'"),
    ("neg.txt", "0 1 1\n1 2 2\n3 7 -2.5\n",
     "line 3: negative weight -2.5 on edge (3, 7); shortest paths here need weights >= 0"),
    ("nan.txt", "0 1 nan\n", "line 1: weight nan on edge (0, 1); weights must be finite numbers >= 0"),
    ("inf.txt", "0 1 2\n\n1 2 inf\n", "line 3: weight inf on edge (1, 2); weights must be finite numbers >= 0"),
    ("float.txt", "0 1 2\n1.5 2 1\n", "line 2: expected 'u v [w]' with integer vertices, got '1.5 2 1'"),
    ("word.txt", "0 1 heavy\n", "line 1: expected 'u v [w]' with a number as weight, got '0 1 heavy'"),
    ("mixed.txt", "0 1 2\n1 2\n", "line 2: 2 columns, but line 1 has 3; every line needs the same form 'u v [w]'"),
    ("four.txt", "0 1 2 3\n", "line 1: expected 'u v [w]', got '0 1 2 3' (4 columns)"),
    ("one.txt", "# c\n7\n", "line 2: expected 'u v [w]', got '7' (1 column)"),
    ("minus.txt", "0 1\n2 -1\n", "line 2: vertex -1 is negative; edge lists number vertices from 0"),
    ("huge.txt", "0 1\n1 4000000000\n", "line 2: vertex 4000000000 is out of range 0..2147483646"),
    ("header.csv", "u,v,w\n0,1,2\n", "line 1: expected 'u,v[,w]' with integer vertices, got 'u,v,w'"),
    ("empty.txt", "", "empty file"),
    ("blank.mtx", "  \n\n", "empty file"),
    ("comments.el", "# only\n% comments\n", "no edges, only comments"),
    ("banner.mtx", "%MatrixMarket matrix coordinate real general\n1 1 0\n",
     "line 1: expected the banner '%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>'"),
    ("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
     "line 1: format 'array' (a dense matrix) is not supported; expected 'coordinate'"),
    ("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 0\n",
     "line 1: field 'complex' is not supported; expected one of real, integer, pattern"),
    ("herm.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n",
     "line 1: symmetry 'hermitian' is not supported; expected general or symmetric"),
    ("vector.mtx", "%%MatrixMarket vector coordinate real general\n1 1 0\n",
     "line 1: object 'vector' is not supported; expected 'matrix'"),
    ("rect.mtx", BANNER + "% c\n3 4 0\n", "line 3: the matrix is 3 x 4; a graph needs a square matrix"),
    ("size.mtx", BANNER + "3 3\n", "line 2: expected the size line 'rows cols entries', got '3 3'"),
    ("nosize.mtx", BANNER + "% only a comment\n", "the file ends before the size line 'rows cols entries'"),
    ("short.mtx", BANNER + "3 3 3\n1 2 1\n2 3 1\n", "the file ends after 2 of the 3 entries its size line (line 2) promises"),
    ("long.mtx", BANNER + "3 3 1\n1 2 1\n% c\n2 3 1\n", "line 5: entry 2, but the size line (line 2) promises 1 entry"),
    ("none.mtx", BANNER + "3 3 0\n1 2 1\n", "line 3: entry 1, but the size line (line 2) promises 0 entries"),
    ("zero.mtx", BANNER + "3 3 2\n1 2 1\n0 3 1\n",
     "line 4: row index 0 is out of range 1..3 (the size line says 3 x 3; Matrix Market counts from 1)"),
    ("col.mtx", BANNER + "3 3 1\n1 4 1\n", "line 3: column index 4 is out of range 1..3"),
    ("negmtx.mtx", BANNER + "3 3 2\n1 2 1\n2 3 -1\n",
     "line 4: negative weight -1.0 on edge (2, 3) (1-indexed); shortest paths here need weights >= 0"),
    ("intfield.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n",
     "line 3: expected an integer value (the header says field 'integer'), got '1.5'"),
    ("pattern.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2 3.0\n",
     "line 3: expected 'row col', got '1 2 3.0' (3 columns)"),
    ("letters.mtx", BANNER + "2 2 1\nx 2 1\n", "line 3: expected 'row col value' with integer indices, got 'x 2 1'"),
    ("nanmtx.mtx", BANNER + "2 2 1\n1 2 NaN\n", "line 3: weight nan on edge (1, 2) (1-indexed)"),
    ("graph.gml", "graph [ ]\n", "unknown graph file extension '.gml'; allowed: .mtx, .txt, .el, .tsv, .csv"),
    ("noext", "0 1\n", "unknown graph file extension '(none)'; allowed: .mtx, .txt, .el, .tsv, .csv"),
]


@pytest.mark.parametrize("name, text, message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file_names_file_and_line(tmp_path, name, text, message):
    path = write(tmp_path, name, text)
    with pytest.raises(GraphError) as info:
        read_graph(path)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"{path}: "), text
    assert message in text, text


def test_missing_file(tmp_path):
    with pytest.raises(GraphError, match=r"nothere\.mtx: no such file"):
        read_graph(tmp_path / "nothere.mtx")


# --------------------------------------------------------------------------- validate_csgraph


def good_graph():
    return csr_from_edges(4, [0, 1, 2], [1, 2, 3], [1.0, 0.0, 2.0])


def with_field(**fields):
    g = good_graph()
    for name, value in fields.items():
        setattr(g, name, value)
    return g


BAD_GRAPHS = [
    (np.eye(3), None, "graph: expected a scipy.sparse CSR matrix (csr_matrix or csr_array), got ndarray"),
    (sp.coo_matrix(np.eye(3)), None, "graph: expected a scipy.sparse CSR matrix (csr_matrix or csr_array), got coo_matrix"),
    (sp.csr_matrix((3, 4)), None, "graph.shape: expected a square matrix (vertices x vertices), got (3, 4)"),
    (sp.csr_matrix((0, 0)), None, "graph.shape: expected at least one vertex, got (0, 0)"),
    (good_graph().astype(np.float32), None, "graph.data: expected float64 weights, got float32"),
    (with_field(data=np.array([1.0, -2.5, 2.0])), None,
     "graph.data: negative weight -2.5 on edge (1, 2); shortest paths here need weights >= 0"),
    (with_field(data=np.array([1.0, np.nan, 2.0])), None, "graph.data: weight nan on edge (1, 2); weights must be finite"),
    (with_field(data=np.array([1.0, 1.0, np.inf])), None, "graph.data: weight inf on edge (2, 3); weights must be finite"),
    (with_field(indices=np.array([1, 7, 3], dtype=np.int32)), None,
     "graph.indices: column 7 in row 1 is out of range 0..3"),
    (with_field(indices=np.array([1, -1, 3], dtype=np.int32)), None, "graph.indices: column -1 in row 1 is out of range"),
    (with_field(indices=np.array([1, 2, 3], dtype=np.int16)), None, "graph.indices: expected int32 or int64, got int16"),
    (with_field(indptr=np.array([0, 2, 1, 3, 3], dtype=np.int32)), None,
     "graph.indptr: offsets must not decrease, but row 1 runs from 2 to 1"),
    (with_field(data=np.array([1.0, 2.0])), None, "graph.data: expected one weight per stored entry (3), got 2"),
    (with_field(indptr=np.array([0, 1, 2, 3, 4], dtype=np.int32)), None, "graph.indptr: expected offsets from 0 to 3 (the stored entries), got 0 .. 4"),
    (good_graph(), 4, "source: expected a vertex in 0..3, got 4"),
    (good_graph(), -1, "source: expected a vertex in 0..3, got -1"),
    (good_graph(), 1.0, "source: expected a vertex in 0..3, got 1.0"),
    (good_graph(), True, "source: expected a vertex in 0..3, got True"),
    (good_graph(), np.int64(9), "source: expected a vertex in 0..3, got 9"),
]


@pytest.mark.parametrize("g, source, message", BAD_GRAPHS, ids=[b[2][:40] for b in BAD_GRAPHS])
def test_validate_csgraph_names_the_field(g, source, message):
    with pytest.raises(GraphError) as info:
        validate_csgraph(g, source)
    assert message in str(info.value), str(info.value)


def test_validate_csgraph_accepts_interchange_graphs():
    validate_csgraph(good_graph(), 0)
    validate_csgraph(good_graph(), np.int64(3))
    validate_csgraph(sp.csr_array(good_graph()), 2)
    g = good_graph()
    validate_csgraph(sp.csr_matrix((g.data, g.indices.astype(np.int64), g.indptr.astype(np.int64)), shape=g.shape))


# --------------------------------------------------------------------------- write_result


def test_write_result_round_trip_and_atomic(tmp_path):
    path = tmp_path / "out.npz"
    path.write_bytes(b"old")
    dist = [0.0, 1.5, np.inf]
    pred = np.array([NO_PREDECESSOR, 0, NO_PREDECESSOR], dtype=np.int32)
    assert write_result(path, dist, pred) == path
    with np.load(path) as f:
        assert f["distances"].dtype == np.float64 and f["predecessors"].dtype == np.int64
        np.testing.assert_array_equal(f["distances"], dist)
        np.testing.assert_array_equal(f["predecessors"], pred)
    assert sorted(os.listdir(tmp_path)) == ["out.npz"], "no temporary file left behind"


def test_write_result_failure_keeps_old_file(tmp_path, monkeypatch):
    path = tmp_path / "out.npz"
    path.write_bytes(b"old")

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(graph_io.np, "savez", broken)
    with pytest.raises(OSError, match="disk full"):
        write_result(path, [0.0], [NO_PREDECESSOR])
    assert path.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["out.npz"]


@pytest.mark.parametrize("name, dist, pred, message", [
    ("out.npy", [0.0], [NO_PREDECESSOR], "results are written as .npz, so the name must end in .npz"),
    ("nodir/out.npz", [0.0], [NO_PREDECESSOR], "does not exist (create it first)"),
    ("out.npz", [0.0, 1.0], [NO_PREDECESSOR], "distances and predecessors must be 1-D of one length"),
    ("out.npz", [0.0, 1.0], [NO_PREDECESSOR, 5], "predecessors[1] = 5; expected a vertex in 0..1 or -9999 (none)"),
    ("out.npz", [0.0], [0.5], "predecessors: expected integers, got dtype float64"),
])
def test_write_result_errors(tmp_path, name, dist, pred, message):
    with pytest.raises(GraphError) as info:
        write_result(tmp_path / name, dist, pred)
    assert message in str(info.value) and str(tmp_path) in str(info.value)
