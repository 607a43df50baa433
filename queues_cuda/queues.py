"""The queue kinds of the native layer, as the command line and the builds name them.

Each id is the ``GQ_QUEUE_KIND`` that include/gq/queue_select.cuh maps to a header.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class QueueKind:
    name: str
    kind_id: int
    title: str
    header: str
    max_capacity: int
    has_blocking: bool


QUEUES: dict[str, QueueKind] = {
    "glfq": QueueKind("glfq", 1, "G-LFQ (lock-free, wave-batched sCQ rings)", "glfq.cuh", (1 << 31) - 2, False),
    "sfq": QueueKind("sfq", 2, "SFQ (Scogland-Feng ticketed ring)", "sfq.cuh", 1 << 40, True),
}

# Planted faults: compile flags that break one mechanism on purpose, so tests can prove that the
# checkers catch a broken queue. Each names the queues it applies to.
FAULTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "skip-cycle": ("GQ_FAULT_SKIP_CYCLE", ("glfq",)),
    "no-broadcast": ("GQ_FAULT_NO_BROADCAST", ("glfq",)),
    "eager-full": ("GQ_FAULT_EAGER_FULL", ("glfq",)),
    "seed-ring": ("GQ_FAULT_SEED_RING", ("glfq",)),
    "sfq-no-turn": ("GQ_FAULT_SFQ_NO_TURN", ("sfq",)),
}


def queue_kind(name: str) -> QueueKind:
    from .errors import GQError

    try:
        return QUEUES[name]
    except KeyError:
        raise GQError(f"--queue: unknown queue {name!r}; allowed: {', '.join(QUEUES)}") from None


def fault_define(fault: str | None, queue: str) -> str | None:
    from .errors import GQError

    if fault is None:
        return None
    if fault not in FAULTS:
        raise GQError(f"--fault: unknown fault {fault!r}; allowed: {', '.join(FAULTS)}")
    define, applies = FAULTS[fault]
    if queue not in applies:
        raise GQError(f"--fault {fault} applies to {', '.join(applies)}, not to {queue}")
    return define
