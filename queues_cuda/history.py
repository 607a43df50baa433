"""Concurrent histories: one record per operation, ``(proc, op, arg, ret, call, end)`` as in
Porcupine's FIFO model. ``op`` 0 is enqueue(arg) with ``ret`` true or false (false: the queue was
full); ``op`` 1 is dequeue with ``arg`` null and ``ret`` the value, or null for empty. ``call``
and ``end`` come from one global clock.

On disk a history is JSON lines, one operation a line:
``{"proc": 3, "op": 0, "arg": 17, "ret": true, "call": 120, "end": 131}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import GQError

ENQ, DEQ = 0, 1


@dataclass
class History:
    """Columns of equal length; ``value`` is the enqueued value (op 0) or the dequeued one (op 1,
    when ``ok``). ``ok`` is the enqueue's success or whether the dequeue returned a value."""

    proc: np.ndarray   # int64
    op: np.ndarray     # uint8
    value: np.ndarray  # int64
    ok: np.ndarray     # bool
    call: np.ndarray   # int64
    end: np.ndarray    # int64

    def __len__(self) -> int:
        return len(self.op)

    @classmethod
    def from_columns(cls, proc, op, value, ok, call, end) -> "History":
        return cls(np.asarray(proc, np.int64), np.asarray(op, np.uint8), np.asarray(value, np.int64),
                   np.asarray(ok, bool), np.asarray(call, np.int64), np.asarray(end, np.int64))

    def record(self, i: int) -> dict:
        enq = int(self.op[i]) == ENQ
        return {
            "proc": int(self.proc[i]),
            "op": int(self.op[i]),
            "arg": int(self.value[i]) if enq else None,
            "ret": bool(self.ok[i]) if enq else (int(self.value[i]) if self.ok[i] else None),
            "call": int(self.call[i]),
            "end": int(self.end[i]),
        }

    def describe(self, i: int) -> str:
        r = self.record(i)
        what = f"enqueue({r['arg']}) -> {'ok' if r['ret'] else 'FULL'}" if r["op"] == ENQ else \
            f"dequeue() -> {r['ret'] if r['ret'] is not None else 'EMPTY'}"
        return f"[{r['call']:>8}, {r['end']:>8}] proc {r['proc']:>5}  {what}"

    def write_jsonl(self, path: Path) -> None:
        with open(path, "w") as f:
            for i in range(len(self)):
                f.write(json.dumps(self.record(i)) + "\n")

    @classmethod
    def read_jsonl(cls, path: Path) -> "History":
        rows = []
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise GQError(f"{path}: cannot read history: {exc.strerror}") from None
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise GQError(f"{path}:{lineno}: not JSON ({exc.msg})") from None
            rows.append(_parse_record(rec, f"{path}:{lineno}"))
        if not rows:
            raise GQError(f"{path}: no operations in the file")
        cols = list(zip(*rows))
        return cls.from_columns(*cols)


def recording_buffers(xp, total: int) -> tuple:
    """The columns a history thread program writes (history.cuh's HistoryArgs), on numpy or CuPy:
    op, ok, arg, ret, call, end."""
    return (xp.zeros(total, xp.uint8), xp.zeros(total, xp.uint8), xp.zeros(total, xp.uint32),
            xp.zeros(total, xp.uint32), xp.zeros(total, xp.uint64), xp.zeros(total, xp.uint64))


def from_recording(threads: int, ops: int, op, ok, arg, ret, call, end) -> History:
    """A History from those columns (numpy arrays); thread t recorded operations t*ops .. t*ops+ops-1."""
    value = np.where(op == ENQ, arg, ret).astype(np.int64)
    return History.from_columns(np.repeat(np.arange(threads), ops), op, value, ok.astype(bool), call, end)


def _parse_record(rec, where: str):
    if not isinstance(rec, dict):
        raise GQError(f"{where}: expected an object with proc, op, arg, ret, call, end")
    for field in ("proc", "op", "ret", "call", "end"):
        if field not in rec:
            raise GQError(f"{where}: missing field {field!r}")
    for field in ("proc", "call", "end"):
        if not isinstance(rec[field], int) or isinstance(rec[field], bool):
            raise GQError(f"{where}: field {field!r} must be an integer, got {rec[field]!r}")
    op = rec["op"]
    if op not in (ENQ, DEQ) or isinstance(op, bool):
        raise GQError(f"{where}: field 'op' must be 0 (enqueue) or 1 (dequeue), got {op!r}")
    if rec["end"] <= rec["call"]:
        raise GQError(f"{where}: field 'end' ({rec['end']}) must be greater than 'call' ({rec['call']})")
    arg, ret = rec.get("arg"), rec["ret"]
    if op == ENQ:
        if not isinstance(arg, int) or isinstance(arg, bool):
            raise GQError(f"{where}: an enqueue needs an integer 'arg', got {arg!r}")
        if not isinstance(ret, bool):
            raise GQError(f"{where}: an enqueue's 'ret' must be true or false (full), got {ret!r}")
        return rec["proc"], op, arg, ret, rec["call"], rec["end"]
    if arg is not None:
        raise GQError(f"{where}: a dequeue's 'arg' must be null, got {arg!r}")
    if ret is not None and (not isinstance(ret, int) or isinstance(ret, bool)):
        raise GQError(f"{where}: a dequeue's 'ret' must be an integer value or null (empty), got {ret!r}")
    return rec["proc"], op, (ret if ret is not None else -1), ret is not None, rec["call"], rec["end"]


def validate(h: History, where: str = "history") -> None:
    """The strict checker's preconditions: unique timestamps and unique enqueued values."""
    stamps = np.concatenate([h.call, h.end])
    if len(np.unique(stamps)) != len(stamps):
        raise GQError(f"{where}: timestamps are not unique; call/end must come from one global clock")
    enq = h.value[h.op == ENQ]
    if len(np.unique(enq)) != len(enq):
        raise GQError(f"{where}: enqueued values are not unique; the checker needs unique values")


def save_many(path: Path, histories: list[History], tags: list[str]) -> None:
    """Many histories in one compressed file (GPU runs record thousands): columns concatenated,
    with the length and a tag per history."""
    cat = lambda name, dtype: np.concatenate([getattr(h, name) for h in histories]).astype(dtype)  # noqa: E731
    np.savez_compressed(path, lengths=np.array([len(h) for h in histories], np.int64), tags=np.array(tags),
                        proc=cat("proc", np.int32), op=cat("op", np.uint8), value=cat("value", np.int64),
                        ok=cat("ok", bool), call=cat("call", np.int64), end=cat("end", np.int64))


def load_many(path: Path) -> list[tuple[str, History]]:
    with np.load(path) as npz:  # each access to an npz member decompresses it: read each once
        data = {k: npz[k] for k in npz.files}
    out, start = [], 0
    for tag, n in zip(data["tags"].tolist(), data["lengths"].tolist()):
        s = slice(start, start + n)
        out.append((tag, History.from_columns(data["proc"][s], data["op"][s], data["value"][s], data["ok"][s],
                                              data["call"][s], data["end"][s])))
        start += n
    return out
