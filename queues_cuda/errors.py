"""Errors the queue layer raises.

`GQError` is a user error (bad input, no GPU for ``--backend cuda``): the command line prints its
one-line message and exits with code 2. `KernelError` means a kernel or CPU thread program raised
the error flag of ``arch.cuh``: it names the kernel, the site of the spin that gave up and the
state it saw.
"""

from __future__ import annotations


class GQError(Exception):
    """A problem with what the user asked for; the message says what and what is allowed."""


class KernelError(RuntimeError):
    """A device (or CPU runtime) program gave up and raised its error flag."""


# Mirrors gq::ErrorCode and gq::ErrorSite in include/gq/arch.cuh.
ERROR_CODES = {1: "spin budget exhausted", 2: "impossible state observed", 3: "out of room"}
ERROR_SITES = {
    0: "unknown",
    1: "sCQ enqueue retry loop (ticket)",
    2: "sCQ catch-up of Tail (tail)",
    3: "G-LFQ FULL confirmation (guard sum)",
    4: "SFQ enqueue waiting for its slot turn (ticket)",
    5: "SFQ dequeue waiting for its slot turn (ticket)",
    6: "FIFO producer retrying a FULL queue (value)",
    7: "FIFO consumer retrying an EMPTY queue (thread)",
    8: "sCQ dequeue retry loop (ticket)",
    9: "SFQ claim of a ticket by CAS (ticket)",
    10: "tile renderer re-enqueueing a ray into its tile queue (pixel)",
    11: "tile renderer waiting for a ray while rays are outstanding (samples finished)",
    12: "several queues in one warp: a retry, or a value from another queue (value or thread)",
    13: "parBucketHeap level (level or key)",
    14: "Broker Queue reservation on Count, undone over and over (Count)",
    15: "Broker Queue waiting for its slot's turn after a reservation (ticket)",
    30: "shortest-path grid barrier: a block never arrived (barrier generation)",
    31: "shortest-path frontier or update list out of room (slots asked for)",
    32: "sliced parDijkstra: a block's minimum never published, or an edge outside its slice (round << 32 | block, "
        "or vertex << 32 | target)",
    40: "queue benchmark: consumers waiting for the producers to stop (producers still running)",
    20: "G-WFQ ring enqueue retry loop (ticket)",
    21: "G-WFQ ring dequeue retry loop (ticket)",
    22: "G-WFQ SlowFAA cooperative increment of Head/Tail (round ticket)",
    23: "G-WFQ FULL confirmation (guard sum)",
    24: "G-WFQ-YMC enqueue: Tail advance or cell claim (cell)",
    25: "G-WFQ-YMC dequeue: Head advance or request claim (cell)",
    26: "G-WFQ-YMC segment pool exhausted: a segment still in use blocks its reuse (segment)",
}


def raise_if_flagged(words, kernel: str, context: str) -> None:
    """Turn the 4-word error flag (code, site, detail lo, detail hi) into a KernelError."""
    code, site, lo, hi = (int(w) for w in words[:4])
    if code == 0:
        return
    detail = lo | (hi << 32)
    what = ERROR_SITES.get(site, f"site {site}")
    raise KernelError(
        f"{kernel}: {ERROR_CODES.get(code, f'error {code}')} in {what}; last state {detail} ({context})"
    )
