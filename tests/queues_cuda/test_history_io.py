"""Histories as JSON lines: round trip, and bad files refused with the file, line and field."""

import json

import pytest

from queues_cuda.errors import GQError
from queues_cuda.history import DEQ, ENQ, History, validate


def sample():
    return History.from_columns([0, 1, 1], [ENQ, DEQ, DEQ], [17, 17, -1], [True, True, False],
                                [1, 3, 7], [2, 6, 8])


def test_round_trip(tmp_path):
    path = tmp_path / "h.jsonl"
    sample().write_jsonl(path)
    first = json.loads(path.read_text().splitlines()[0])
    assert first == {"proc": 0, "op": 0, "arg": 17, "ret": True, "call": 1, "end": 2}
    assert json.loads(path.read_text().splitlines()[2])["ret"] is None
    back = History.read_jsonl(path)
    for col in ("proc", "op", "value", "ok", "call", "end"):
        assert (getattr(back, col) == getattr(sample(), col)).all()


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"proc": 0, "op": 2, "arg": 1, "ret": true, "call": 1, "end": 2}', "field 'op' must be 0"),
        ('{"proc": 0, "op": 0, "arg": null, "ret": true, "call": 1, "end": 2}', "needs an integer 'arg'"),
        ('{"proc": 0, "op": 1, "arg": null, "ret": "x", "call": 1, "end": 2}', "'ret' must be an integer"),
        ('{"proc": 0, "op": 0, "arg": 1, "ret": true, "call": 5, "end": 2}', "field 'end'"),
        ('{"op": 0, "arg": 1, "ret": true, "call": 1, "end": 2}', "missing field 'proc'"),
        ("not json", "not JSON"),
    ],
)
def test_bad_lines_name_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(GQError) as err:
        History.read_jsonl(path)
    assert str(path) + ":1" in str(err.value) and message in str(err.value)


def test_strict_preconditions():
    h = sample()
    h.end[2] = h.call[1]  # a timestamp used twice
    with pytest.raises(GQError, match="timestamps are not unique"):
        validate(h)
    h = History.from_columns([0, 1], [ENQ, ENQ], [5, 5], [True, True], [1, 3], [2, 4])
    with pytest.raises(GQError, match="values are not unique"):
        validate(h)
