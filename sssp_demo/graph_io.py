"""Graphs in, results out: Matrix Market and edge-list files to the interchange CSR, the checks
every shortest-path algorithm runs first, and the result file.

The interchange type is a ``scipy.sparse.csr_matrix`` of shape (n, n), the type
``scipy.sparse.csgraph.dijkstra`` takes: entry (u, v) is the directed edge u -> v, ``data`` holds
float64 weights, ``indices``/``indptr`` are int32 (int64 only where n or the edge count does not
fit). Conventions every reader and generator here keeps:

- Parallel edges become ONE edge with the MINIMUM weight, explicitly. A file listing two parallel
  roads means the cheaper one. (scipy's COO -> CSR conversion would SUM them into a longer road;
  so graphs are built by `csr_from_edges`, never through ``coo_matrix(...).tocsr()``.)
- Zero weights are stored as explicit entries. csgraph treats a stored zero as an edge of weight
  0; ``eliminate_zeros`` or sparse arithmetic would delete such edges, so do not send a graph
  through them.
- Self-loops are kept as given (the generators make none): a loop of weight >= 0 never shortens
  a path, and every algorithm must cope with one.
- Each row's columns are sorted (``has_sorted_indices``).

Files:

- Matrix Market (``.mtx``): ``coordinate`` format; field ``real``, ``integer`` or ``pattern``
  (pattern edges weigh 1); symmetry ``general`` or ``symmetric`` (each off-diagonal entry stands
  for both directions); 1-indexed; the matrix must be square. The header is parsed here, the
  entries by numpy's C tokenizer (``np.loadtxt``). scipy.io.mmread (fast_matrix_market, threaded)
  parses about 4x faster, but it is not used: its errors are in its own words, its symmetric
  expansion reorders entries so a bad weight could not be traced to its line, and its COO would
  still need the minimum rule. One parser for both formats gives every error the same form.
  Speed: a 10M-entry file (190 MB) reads in 2.6 s on one core, 1.0 s of it parsing.
- Edge lists (``.txt``, ``.el``, ``.tsv``: whitespace-separated; ``.csv``: comma-separated): one
  edge ``u v [w]`` per line, 0-indexed, every line with the same number of columns (2: weight 1;
  3: weight w); ``#`` and ``%`` start comments. There is no header, so n = largest vertex + 1.

Every problem is one `GraphError` line naming the file and the line or field, e.g.
``roads.txt: line 17: expected 'u v [w]' with integer vertices, got 'a b'``. Files are read fast
(C tokenizer, vectorized checks); only when something is wrong does a second, line-by-line pass
find the line to name.
"""

from __future__ import annotations

import numbers
import re
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from queues_cuda.errors import GQError
from queues_cuda.files import write_file_atomically

#: Predecessor of the source and of unreachable vertices (scipy.sparse.csgraph's convention).
NO_PREDECESSOR = -9999

#: Largest vertex count a file may declare: scipy.sparse.csgraph indexes with int32, and a bogus
#: huge id in a file must not make the reader allocate an indptr that large.
MAX_VERTICES = 2**31 - 1

MATRIX_MARKET_SUFFIXES = (".mtx",)
#: Edge-list suffix -> column delimiter (None: any whitespace).
EDGE_LIST_SUFFIXES = {".txt": None, ".el": None, ".tsv": None, ".csv": ","}
ALLOWED_SUFFIXES = MATRIX_MARKET_SUFFIXES + tuple(EDGE_LIST_SUFFIXES)

_INT = re.compile(r"[+-]?\d+\Z")
# What np.loadtxt parses as float64 (Python's float() is laxer: it also takes '1_0').
_FLOAT = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)\Z", re.IGNORECASE)


class GraphError(GQError):
    """A graph, graph file or result the shortest-path code cannot use; one line, says what."""


# --------------------------------------------------------------------------- building the CSR


def index_dtype(n: int, nnz: int) -> type:
    """int32 where both the vertex ids and the edge offsets fit (scipy wants one dtype for both)."""
    return np.int32 if max(n, nnz) < 2**31 else np.int64


def csr_from_edges(n: int, u, v, w) -> sp.csr_matrix:
    """The interchange CSR of the directed edges u[i] -> v[i] of weight w[i] on vertices 0..n-1.

    Rows come out sorted by column; parallel edges merge into one with the minimum weight;
    self-loops and zero weights stay. The caller has checked the ranges and weights. Peak memory
    is about 40 bytes per edge (a sort key, its order and the gathered copies).
    """
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    w = np.asarray(w, dtype=np.float64)
    key = u * n + v  # row-major order: one sort gives the rows and the sorted columns in each
    order = np.argsort(key, kind="stable")
    key = key[order]
    w = w[order]
    del order
    if len(key):
        first = np.empty(len(key), dtype=bool)
        first[0] = True
        np.not_equal(key[1:], key[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        del first
        w = np.minimum.reduceat(w, starts)
        key = key[starts]
    rows = key // n
    idx = index_dtype(n, len(key))
    indptr = np.zeros(n + 1, dtype=idx)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    indices = (key - rows * n).astype(idx)
    g = sp.csr_matrix((w, indices, indptr), shape=(n, n))
    g.has_sorted_indices = True
    return g


# --------------------------------------------------------------------------- checks


def _edge_of(g, i: int) -> tuple[int, int]:
    """(row, column) of the i-th stored entry of a CSR matrix."""
    row = int(np.searchsorted(g.indptr, i, side="right")) - 1
    return row, int(g.indices[i])


def check_weights(weights, edge_name) -> str | None:
    """The first weight that is NaN, infinite or negative, as the sentence naming it; or None.

    `edge_name(i)` names edge i, e.g. '(3, 7)'."""
    weights = np.asarray(weights)
    bad = ~np.isfinite(weights)
    if bad.any():
        i = int(np.argmax(bad))
        return f"weight {weights[i]} on edge {edge_name(i)}; weights must be finite numbers >= 0"
    neg = weights < 0
    if neg.any():
        i = int(np.argmax(neg))
        return f"negative weight {weights[i]} on edge {edge_name(i)}; shortest paths here need weights >= 0"
    return None


def validate_csgraph(g, source=None, name: str = "graph") -> None:
    """The checks every algorithm runs before it allocates anything: `g` is a square CSR with
    float64 weights, int32/int64 indices, a well-formed indptr, columns in range, finite weights
    >= 0; `source` (if given) is a vertex. Raises GraphError naming the field."""
    if not (sp.issparse(g) and g.format == "csr"):
        raise GraphError(f"{name}: expected a scipy.sparse CSR matrix (csr_matrix or csr_array), "
                         f"got {type(g).__name__}")
    if len(g.shape) != 2 or g.shape[0] != g.shape[1]:
        raise GraphError(f"{name}.shape: expected a square matrix (vertices x vertices), got {g.shape}")
    n = g.shape[0]
    if n < 1:
        raise GraphError(f"{name}.shape: expected at least one vertex, got {g.shape}")
    if g.data.dtype != np.float64:
        raise GraphError(f"{name}.data: expected float64 weights, got {g.data.dtype} "
                         f"(convert with g.astype(np.float64))")
    for field in ("indices", "indptr"):
        dt = getattr(g, field).dtype
        if dt not in (np.int32, np.int64):
            raise GraphError(f"{name}.{field}: expected int32 or int64, got {dt}")
    indptr, indices = g.indptr, g.indices
    if len(indptr) != n + 1:
        raise GraphError(f"{name}.indptr: expected n + 1 = {n + 1} offsets, got {len(indptr)}")
    if len(g.data) != len(indices):
        raise GraphError(f"{name}.data: expected one weight per stored entry ({len(indices)}), got {len(g.data)}")
    if indptr[0] != 0 or indptr[-1] != len(indices):
        raise GraphError(f"{name}.indptr: expected offsets from 0 to {len(indices)} (the stored entries), "
                         f"got {indptr[0]} .. {indptr[-1]}")
    if n > 1 and np.any(indptr[1:] < indptr[:-1]):
        row = int(np.argmax(indptr[1:] < indptr[:-1]))
        raise GraphError(f"{name}.indptr: offsets must not decrease, but row {row} runs from "
                         f"{indptr[row]} to {indptr[row + 1]}")
    if len(indices):
        out = (indices < 0) | (indices >= n)
        if out.any():
            i = int(np.argmax(out))
            row, col = _edge_of(g, i)
            raise GraphError(f"{name}.indices: column {col} in row {row} is out of range 0..{n - 1}")
    problem = check_weights(g.data, lambda i: str(_edge_of(g, i)))
    if problem:
        raise GraphError(f"{name}.data: {problem}")
    if source is not None:
        integral = isinstance(source, numbers.Integral) and not isinstance(source, (bool, np.bool_))
        if not integral or not 0 <= source < n:
            shown = int(source) if integral else repr(source)
            raise GraphError(f"source: expected a vertex in 0..{n - 1}, got {shown}")


# --------------------------------------------------------------------------- reading


def read_graph(path) -> sp.csr_matrix:
    """The graph in a Matrix Market or edge-list file as the interchange CSR (see the module)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in ALLOWED_SUFFIXES:
        raise GraphError(f"{path}: unknown graph file extension {suffix or '(none)'!r}; "
                         f"allowed: {', '.join(ALLOWED_SUFFIXES)}")
    if not path.is_file():
        raise GraphError(f"{path}: no such file")
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                raise GraphError(f"{path}: empty file")
            if chunk.strip():
                break
    if suffix in MATRIX_MARKET_SUFFIXES:
        return _read_matrix_market(path)
    return _read_edge_list(path, EDGE_LIST_SUFFIXES[suffix])


class _Layout:
    """How the data lines of a file look: what the line-by-line pass needs to name a bad line."""

    def __init__(self, columns, value_kind, form, index_word, comments, delimiter):
        self.columns = columns  # allowed column counts, e.g. (2, 3)
        self.value_kind = value_kind  # third column: 'float', or 'int' for Matrix Market 'integer'
        self.form = form  # the expected form, for messages, e.g. "'u v [w]'"
        self.index_word = index_word  # 'vertices' (edge lists) or 'indices' (Matrix Market)
        self.comments = comments
        self.delimiter = delimiter


def _data_lines(f, first_lineno: int, layout: _Layout):
    """(line number, tokens) of each line holding data; comments and blank lines skipped."""
    for lineno, line in enumerate(f, first_lineno):
        for c in layout.comments:
            cut = line.find(c)
            if cut >= 0:
                line = line[:cut]
        if not line.strip():
            continue
        if layout.delimiter is None:
            tokens = line.split()
        else:
            tokens = [t.strip() for t in line.split(layout.delimiter)]
        yield lineno, tokens


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def _line_problem(tokens, layout: _Layout, columns: int | None, first_line: int | None) -> str | None:
    """What is wrong with one data line under the same rules np.loadtxt applies; None if nothing."""
    shown = (layout.delimiter or " ").join(tokens)
    if len(tokens) not in layout.columns:
        return f"expected {layout.form}, got {shown!r} ({_plural(len(tokens), 'column')})"
    if columns is not None and len(tokens) != columns:
        return (f"{len(tokens)} columns, but line {first_line} has {columns}; every line needs the "
                f"same form {layout.form}")
    if not (_INT.match(tokens[0]) and _INT.match(tokens[1])):
        return f"expected {layout.form} with integer {layout.index_word}, got {shown!r}"
    for tok in tokens[:2]:
        if abs(int(tok)) >= 2**63:
            return f"integer {tok} is too large"
    if len(tokens) == 3:
        value = tokens[2]
        if layout.value_kind == "int" and not _INT.match(value):
            return f"expected an integer value (the header says field 'integer'), got {value!r}"
        if layout.value_kind == "float" and not _FLOAT.match(value):
            return f"expected {layout.form} with a number as weight, got {shown!r}"
    return None


def _diagnose(path: Path, start: int, first_lineno: int, layout: _Layout, fallback: str) -> GraphError:
    """The second pass: the first data line the fast parser rejected, as a GraphError."""
    columns, first_line = None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        f.seek(start)
        for lineno, tokens in _data_lines(f, first_lineno, layout):
            problem = _line_problem(tokens, layout, columns, first_line)
            if problem:
                return GraphError(f"{path}: line {lineno}: {problem}")
            if columns is None:
                columns, first_line = len(tokens), lineno
    return GraphError(f"{path}: could not parse the entries: {fallback}")


def _line_of_record(path: Path, start: int, first_lineno: int, layout: _Layout, record: int) -> int:
    """Line number of the record-th data line (0-based) after byte offset `start`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        f.seek(start)
        for i, (lineno, _) in enumerate(_data_lines(f, first_lineno, layout)):
            if i == record:
                return lineno
    return -1


def _load_columns(path: Path, start: int, first_lineno: int, layout: _Layout, columns: int):
    """The data lines as arrays (int64 columns, float64 weights); GraphError naming the bad line."""
    names = ("a", "b", "c")[:columns]
    kinds = (np.int64, np.int64, np.int64 if layout.value_kind == "int" else np.float64)
    dtype = np.dtype(list(zip(names, kinds)))
    with open(path, encoding="utf-8", errors="replace") as f:
        f.seek(start)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "input contained no data": handled below
                rec = np.loadtxt(f, dtype=dtype, comments=layout.comments, delimiter=layout.delimiter, ndmin=1)
        except ValueError as exc:
            raise _diagnose(path, start, first_lineno, layout, str(exc)) from None
    return [rec[nm] for nm in names]


def _read_matrix_market(path: Path) -> sp.csr_matrix:
    banner_form = "'%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>'"
    with open(path, "rb") as f:  # binary: tell() after readline() is the byte offset of the entries
        banner = f.readline().decode("utf-8", "replace").strip()
        tokens = banner.split()
        if len(tokens) != 5 or tokens[0] != "%%MatrixMarket":
            raise GraphError(f"{path}: line 1: expected the banner {banner_form}, got {banner[:80]!r}")
        obj, fmt, field, symmetry = (t.lower() for t in tokens[1:])
        if obj != "matrix":
            raise GraphError(f"{path}: line 1: object {obj!r} is not supported; expected 'matrix'")
        if fmt != "coordinate":
            why = " (a dense matrix)" if fmt == "array" else ""
            raise GraphError(f"{path}: line 1: format {fmt!r}{why} is not supported; expected 'coordinate'")
        if field not in ("real", "integer", "pattern"):
            raise GraphError(f"{path}: line 1: field {field!r} is not supported; expected one of real, integer, pattern")
        if symmetry not in ("general", "symmetric"):
            raise GraphError(f"{path}: line 1: symmetry {symmetry!r} is not supported; expected general or symmetric")
        lineno = 1
        while True:
            raw = f.readline()
            lineno += 1
            if not raw:
                raise GraphError(f"{path}: the file ends before the size line 'rows cols entries'")
            line = raw.decode("utf-8", "replace").strip()
            if line and not line.startswith("%"):
                break
        size_line = lineno
        size = line.split()
        if len(size) != 3 or not all(_INT.match(t) for t in size):
            raise GraphError(f"{path}: line {lineno}: expected the size line 'rows cols entries', got {line[:80]!r}")
        rows, cols, entries = (int(t) for t in size)
        if rows != cols:
            raise GraphError(f"{path}: line {lineno}: the matrix is {rows} x {cols}; a graph needs a square "
                             f"matrix (rows = cols = vertices)")
        if not 1 <= rows <= MAX_VERTICES:
            raise GraphError(f"{path}: line {lineno}: expected 1 .. {MAX_VERTICES} vertices, got {rows}")
        if entries < 0:
            raise GraphError(f"{path}: line {lineno}: expected a number of entries >= 0, got {entries}")
        start = f.tell()
    n = rows
    columns = 2 if field == "pattern" else 3
    layout = _Layout(
        columns=(columns,),
        value_kind="float" if field == "real" else "int",
        form="'row col'" if field == "pattern" else "'row col value'",
        index_word="indices",
        comments=("%",),
        delimiter=None,
    )
    cols_ = _load_columns(path, start, lineno + 1, layout, columns)
    i, j = cols_[0], cols_[1]
    if len(i) != entries:
        if len(i) < entries:
            raise GraphError(f"{path}: the file ends after {len(i)} of the {entries} entries its size line "
                             f"(line {size_line}) promises")
        extra = _line_of_record(path, start, lineno + 1, layout, entries)
        raise GraphError(f"{path}: line {extra}: entry {entries + 1}, but the size line (line {size_line}) "
                         f"promises {_plural(entries, 'entry', 'entries')}")

    def where(k):
        return f"line {_line_of_record(path, start, lineno + 1, layout, k)}"

    out_i, out_j = (i < 1) | (i > n), (j < 1) | (j > n)
    if out_i.any() or out_j.any():
        k = int(np.argmax(out_i | out_j))
        name, value = ("row", i[k]) if out_i[k] else ("column", j[k])
        raise GraphError(f"{path}: {where(k)}: {name} index {value} is out of range 1..{n} "
                         f"(the size line says {n} x {n}; Matrix Market counts from 1)")
    w = np.ones(len(i)) if field == "pattern" else cols_[2].astype(np.float64)
    problem = check_weights(w, lambda k: f"({i[k]}, {j[k]}) (1-indexed)")
    if problem:
        k = int(np.argmax(~np.isfinite(w) | (w < 0)))
        raise GraphError(f"{path}: {where(k)}: {problem}")
    u, v = i - 1, j - 1
    if symmetry == "symmetric":
        off = u != v  # the diagonal stands for one self-loop, not two
        u, v, w = np.concatenate([u, v[off]]), np.concatenate([v, u[off]]), np.concatenate([w, w[off]])
    return csr_from_edges(n, u, v, w)


def _read_edge_list(path: Path, delimiter) -> sp.csr_matrix:
    sep = delimiter or " "
    layout = _Layout(
        columns=(2, 3),
        value_kind="float",
        form=f"'u{sep}v[{sep}w]'" if delimiter else "'u v [w]'",
        index_word="vertices",
        comments=("#", "%"),
        delimiter=delimiter,
    )
    # The column count comes from the first data line; np.loadtxt then holds every line to it.
    columns = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, tokens in _data_lines(f, 1, layout):
            problem = _line_problem(tokens, layout, None, None)
            if problem:
                raise GraphError(f"{path}: line {lineno}: {problem}")
            columns = len(tokens)
            break
    if columns is None:
        raise GraphError(f"{path}: no edges, only comments (an edge list names its vertices through its edges)")
    cols_ = _load_columns(path, 0, 1, layout, columns)
    u, v = cols_[0], cols_[1]

    def where(k):
        return f"line {_line_of_record(path, 0, 1, layout, k)}"

    out_u, out_v = (u < 0) | (u >= MAX_VERTICES), (v < 0) | (v >= MAX_VERTICES)
    if out_u.any() or out_v.any():
        k = int(np.argmax(out_u | out_v))
        vertex = int(u[k] if out_u[k] else v[k])
        if vertex < 0:
            raise GraphError(f"{path}: {where(k)}: vertex {vertex} is negative; edge lists number vertices from 0")
        raise GraphError(f"{path}: {where(k)}: vertex {vertex} is out of range 0..{MAX_VERTICES - 1} "
                         f"(scipy.sparse.csgraph indexes vertices with int32)")
    w = cols_[2] if columns == 3 else np.ones(len(u))
    problem = check_weights(w, lambda k: f"({u[k]}, {v[k]})")
    if problem:
        k = int(np.argmax(~np.isfinite(w) | (w < 0)))
        raise GraphError(f"{path}: {where(k)}: {problem}")
    n = int(max(u.max(), v.max())) + 1
    return csr_from_edges(n, u, v, w)


# --------------------------------------------------------------------------- writing


def write_result(path, distances, predecessors) -> Path:
    """Write distances (float64, inf = unreachable) and predecessors (int64, NO_PREDECESSOR = none)
    to an ``.npz`` file, whole or not at all (queues_cuda/files.py): a reader never sees half a
    file and an interrupted run leaves the old one."""
    path = Path(path)
    if path.suffix.lower() != ".npz":
        raise GraphError(f"{path}: results are written as .npz, so the name must end in .npz")
    folder = path.parent
    if not folder.is_dir():
        raise GraphError(f"{path}: the folder {folder} does not exist (create it first)")
    dist = np.asarray(distances)
    pred = np.asarray(predecessors)
    if dist.ndim != 1 or pred.ndim != 1 or len(dist) != len(pred):
        raise GraphError(f"{path}: distances and predecessors must be 1-D of one length, "
                         f"got shapes {dist.shape} and {pred.shape}")
    if not np.issubdtype(dist.dtype, np.floating) and not np.issubdtype(dist.dtype, np.integer):
        raise GraphError(f"{path}: distances: expected numbers, got dtype {dist.dtype}")
    if not np.issubdtype(pred.dtype, np.integer):
        raise GraphError(f"{path}: predecessors: expected integers, got dtype {pred.dtype}")
    n = len(pred)
    bad = (pred != NO_PREDECESSOR) & ((pred < 0) | (pred >= n))
    if bad.any():
        k = int(np.argmax(bad))
        raise GraphError(f"{path}: predecessors[{k}] = {pred[k]}; expected a vertex in 0..{n - 1} "
                         f"or {NO_PREDECESSOR} (none)")
    write_file_atomically(path, lambda f: np.savez(f, distances=dist.astype(np.float64, copy=False),
                                                   predecessors=pred.astype(np.int64, copy=False)))
    return path

