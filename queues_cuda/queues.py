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
    # An unbounded queue never answers FULL; its histories are checked against the unbounded FIFO
    # model, and its capacity only sizes what it preallocates.
    bounded: bool = True
    # The most threads one queue may serve (None: no limit of its own).
    max_threads: int | None = None
    # Has a slow path: --patience, --help-delay and --stats select or show it.
    wait_free: bool = False
    # Claims linearizability against the strict bounded FIFO. False: the algorithm is known not to
    # be (a refuting history exists); `gq queues check` then holds it only to what it does keep.
    linearizable: bool = True


QUEUES: dict[str, QueueKind] = {
    "glfq": QueueKind("glfq", 1, "G-LFQ (lock-free, wave-batched sCQ rings)", "glfq.cuh", (1 << 31) - 2, False),
    "sfq": QueueKind("sfq", 2, "SFQ (Scogland-Feng ticketed ring)", "sfq.cuh", 1 << 40, True),
    "gwfq": QueueKind("gwfq", 3, "G-WFQ (wait-free, wCQ slow path on packed 64-bit words)", "gwfq.cuh",
                      (1 << 22) - 2, False, max_threads=(1 << 19) - 1, wait_free=True),
    "ymc": QueueKind("ymc", 4, "G-WFQ-YMC (Yang & Mellor-Crummey wait-free queue, arithmetic segment pool)",
                     "ymc.cuh", 1 << 26, False, bounded=False, wait_free=True),
}

# Queue kinds whose algorithm is not linearizable: built, checked (`gq queues check --queue broker`
# shows why) and measured when named, but kept out of QUEUES, which every application, test sweep
# and `all` iterates.
NOT_LINEARIZABLE: dict[str, QueueKind] = {
    "broker": QueueKind("broker", 5, "Broker Queue (Kerbl et al. 2018; ticket ring admitted by a count; "
                        "not linearizable)", "broker.cuh", 1 << 40, False, linearizable=False),
}
ALL_QUEUE_KINDS: dict[str, QueueKind] = {**QUEUES, **NOT_LINEARIZABLE}

# Planted faults: compile flags that break one mechanism on purpose, so tests can prove that the
# checkers catch a broken queue. Each names the queues it applies to.
FAULTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "skip-cycle": ("GQ_FAULT_SKIP_CYCLE", ("glfq",)),
    "no-broadcast": ("GQ_FAULT_NO_BROADCAST", ("glfq",)),
    "eager-full": ("GQ_FAULT_EAGER_FULL", ("glfq",)),
    "seed-ring": ("GQ_FAULT_SEED_RING", ("glfq",)),
    "sfq-no-turn": ("GQ_FAULT_SFQ_NO_TURN", ("sfq",)),
    "sfq-every-lap-fresh": ("GQ_FAULT_SFQ_EVERY_LAP_FRESH", ("sfq",)),
    "wfq-double-round": ("GQ_FAULT_WFQ_DOUBLE_ROUND", ("gwfq",)),
    "wfq-slow-empty": ("GQ_FAULT_WFQ_SLOW_EMPTY", ("gwfq",)),
    "ymc-no-deq-claim": ("GQ_FAULT_YMC_NO_DEQ_CLAIM", ("ymc",)),
}

# Slow-path constants of the wait-free queues (wcq_ring.cuh, ymc.cuh), as the build defines them.
PATIENCE_DEFINE = "GQ_WFQ_PATIENCE"
HELP_DELAY_DEFINE = "GQ_WFQ_HELP_DELAY"
STATS_DEFINE = "GQ_QUEUE_STATS"
MAX_TUNING = 1 << 20


def queue_kind(name: str, not_linearizable: bool = False) -> QueueKind:
    """The kind named; with `not_linearizable` also the kinds of NOT_LINEARIZABLE (the checker
    and the micro-benchmark take them, applications do not)."""
    from .errors import GQError

    if name in QUEUES:
        return QUEUES[name]
    if name in NOT_LINEARIZABLE:
        if not_linearizable:
            return NOT_LINEARIZABLE[name]
        raise GQError(f"--queue {name}: not linearizable (see gq queues check --queue {name}); "
                      f"allowed here: {', '.join(QUEUES)}")
    allowed = ALL_QUEUE_KINDS if not_linearizable else QUEUES
    raise GQError(f"--queue: unknown queue {name!r}; allowed: {', '.join(allowed)}")


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


def tuning_defines(queue: str, patience: int | None = None, help_delay: int | None = None,
                   stats: bool = False) -> tuple[str, ...]:
    """The defines that select a wait-free queue's patience and help delay, and its counters.

    Checked here, before any build: the options only mean something for a queue with a slow path.
    """
    from .errors import GQError

    kind = queue_kind(queue, not_linearizable=True)
    out: list[str] = []
    for option, value, define in (("--patience", patience, PATIENCE_DEFINE),
                                  ("--help-delay", help_delay, HELP_DELAY_DEFINE)):
        if value is None:
            continue
        if not kind.wait_free:
            waitfree = ", ".join(k for k, q in QUEUES.items() if q.wait_free)
            raise GQError(f"{option} applies to the queues with a slow path ({waitfree}), not to {queue}")
        if not 0 <= value <= MAX_TUNING:
            raise GQError(f"{option} must be between 0 and {MAX_TUNING}, got {value}")
        out.append(f"{define}={value}")
    if stats:
        out.append(STATS_DEFINE)
    return tuple(out)
