"""Exactly-once FIFO conformance of a long run (seed 001 Sec. IV.b), in O(n log n).

Producer p emitted tokens ``(p << 32) | (seq + 1)`` for seq = 0 .. per_producer - 1; the run
logged, in order, which consumer dequeued which token. The run conforms when every token arrived
exactly once, none is out of range, and within each consumer's log the tokens of any one producer
appear in increasing seq order. Works on numpy or CuPy arrays alike (the check runs where the
data is).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FifoReport:
    tokens: int = 0          # tokens produced
    logged: int = 0          # tokens that came out
    lost: int = 0
    duplicated: int = 0
    out_of_range: int = 0
    order_violations: int = 0

    @property
    def ok(self) -> bool:
        return self.logged == self.tokens and not (self.lost or self.duplicated or self.out_of_range
                                                   or self.order_violations)

    def __iadd__(self, other: "FifoReport") -> "FifoReport":
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self


def check_tokens(tokens, consumers, logged: int, producers: int, per_producer: int) -> FifoReport:
    try:
        import cupy
        xp = cupy.get_array_module(tokens)
    except ImportError:
        import numpy as xp
    total = producers * per_producer
    n = min(int(logged), total)
    tok = tokens[:n]
    who = consumers[:n].astype(xp.int64)
    p = (tok >> 32).astype(xp.int64)
    seq = (tok & 0xFFFFFFFF).astype(xp.int64)
    good = (p < producers) & (seq >= 1) & (seq <= per_producer)
    p, seq, who = p[good], seq[good], who[good]
    counts = xp.bincount(p * per_producer + seq - 1, minlength=total)
    # Order: stable-sort the log by (consumer, producer); within each group seq must increase.
    key = who * producers + p
    if xp.__name__ == "numpy":
        order = xp.argsort(key, kind="stable")
    else:  # CuPy's argsort is not stable: break ties by log position explicitly
        order = xp.lexsort(xp.stack([xp.arange(len(key), dtype=xp.int64), key]))
    k, s = key[order], seq[order]
    violations = int(((k[1:] == k[:-1]) & (s[1:] <= s[:-1])).sum()) if len(k) > 1 else 0
    return FifoReport(
        tokens=total,
        logged=int(logged),
        lost=int((counts == 0).sum()),
        duplicated=int((counts > 1).sum()),
        out_of_range=int((~good).sum()),
        order_violations=violations,
    )
