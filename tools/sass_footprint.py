"""How much code a kernel runs, and whose (a measuring aid for issue 3):

    python3 tools/sass_footprint.py SOURCE_PAGE.csv [--disasm NVDISASM.txt --function rt_tiles]

SOURCE_PAGE.csv is Nsight Compute's source page of one launch, SASS rows
(`ncu --section SourceCounters --page source --print-source sass --csv`). Prints the kernel's
instructions, those executed at all, and the fewest that make up 99 % of its executed
instructions (its hot code: what the SM's instruction caches must hold for it to run), with the
share of warp-stall samples spent waiting for an instruction fetch (`stall_no_inst`).

With --disasm (`nvdisasm -gi` of the same module, built with -lineinfo: tools/ncu_render.py
--lineinfo) each instruction is charged, by the files of its inlining chain, to the queue
operations (gq/glfq, scq_ring, quiescence_guard, queue_select, queue_stats), the tracing
(rt/whitted.h and what it calls), the tile renderer's own bookkeeping (rt/tile_queues.h) or the
rest of the kernel, and the table is given per part.

Runs 142-146 (H200, G-LFQ 2x2, spheres100): rt_tiles' hot code was 3,148 instructions (49 KB), 57 %
of its stall samples waiting for a fetch; the compaction kernel's is about 1,500 (24 KB), 25-31 %;
after run 145's changes 2,788 (43.6 KB). Run 146's files reproduce that table:
    python3 tools/sass_footprint.py <(zcat benchmarks/results/2026-11-30-h200-run146-ncu-source-rt_tiles.csv.gz) \
        --disasm <(zcat benchmarks/results/2026-11-30-h200-run146-nvdisasm-gi.txt.gz)
"""

from __future__ import annotations

import argparse
import collections
import csv
import re
from pathlib import Path

QUEUE = {"glfq.cuh", "scq_ring.cuh", "quiescence_guard.cuh", "queue_select.cuh", "queue_stats.cuh"}
TRACE = {"whitted.h", "bvh.h", "shapes.h", "scene_view.h", "mesh_bvh.h", "triangle.h", "sampling.h", "camera.h"}


def source_rows(path: Path) -> list[dict]:
    """The first kernel's rows of an ncu source-page CSV: address offset, instructions executed,
    stall samples (all, and waiting for an instruction)."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"Address"'))
    header = next(csv.reader([lines[start]]))
    rows = []
    for line in lines[start + 1:]:
        if not line.startswith('"0x'):
            break
        r = dict(zip(header, next(csv.reader([line]))))
        rows.append(r)
    base = int(rows[0]["Address"], 16)
    value = lambda r, k: float(r.get(k, "0").replace(",", "") or 0)  # noqa: E731
    return [dict(offset=int(r["Address"], 16) - base, executed=value(r, "Instructions Executed"),
                 samples=value(r, "Warp Stall Sampling (All Samples)"), no_inst=value(r, "stall_no_inst"))
            for r in rows]


def inline_chains(path: Path, function: str) -> dict[int, tuple[str, ...]]:
    """Offset -> the files of the inlining chain of each instruction of `function` in an
    `nvdisasm -gi` listing (innermost first)."""
    chains, chain, fresh, inside = {}, [], True, False
    for line in path.read_text().splitlines():
        if line.startswith(".text."):
            inside = line.strip() == f".text.{function}:"
            continue
        if not inside:
            continue
        if "//## File" in line:
            if fresh:
                chain, fresh = [], False
            chain += re.findall(r'/([^/"]+)", line \d+', line)
            continue
        m = re.match(r"\s+/\*([0-9a-f]+)\*/\s", line)
        if m:
            chains[int(m.group(1), 16)] = tuple(chain)
            fresh = True
    return chains


def part_of(files: tuple[str, ...]) -> str:
    names = set(files)
    if names & QUEUE:
        return "queue"
    if names & TRACE:
        return "trace"
    if "tile_queues.h" in names:
        return "tile worker"
    return "kernel"


def hot_set(rows: list[dict], share: float = 0.99) -> set[int]:
    """The fewest instructions (by offset) whose executions make up `share` of all."""
    total = sum(r["executed"] for r in rows)
    hot, acc = set(), 0.0
    for r in sorted(rows, key=lambda r: -r["executed"]):
        if acc >= share * total:
            break
        acc += r["executed"]
        hot.add(r["offset"])
    return hot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("source_page", type=Path)
    ap.add_argument("--disasm", type=Path)
    ap.add_argument("--function", default="rt_tiles")
    args = ap.parse_args()
    rows = source_rows(args.source_page)
    hot = hot_set(rows)
    chains = inline_chains(args.disasm, args.function) if args.disasm else {}
    parts = collections.defaultdict(lambda: collections.Counter())
    for r in rows:
        c = parts[part_of(chains.get(r["offset"], ())) if chains else "all"]
        c["instructions"] += 1
        c["run"] += r["executed"] > 0
        c["hot"] += r["offset"] in hot
        c["executed"] += r["executed"]
        c["samples"] += r["samples"]
        c["no_inst"] += r["no_inst"]
    executed = sum(c["executed"] for c in parts.values()) or 1
    samples = sum(c["samples"] for c in parts.values()) or 1
    print(f"{'part':<12} {'instr':>6} {'run':>6} {'hot':>6} {'hot KB':>7} {'% exec':>7} {'% samples':>9} {'no_inst':>8}")
    rows_out = sorted(parts.items(), key=lambda kv: -kv[1]["executed"])
    if len(rows_out) > 1:
        total = collections.Counter()
        for _, c in rows_out:
            total.update(c)
        rows_out.append(("all", total))
    for name, c in rows_out:
        print(f"{name:<12} {c['instructions']:>6} {c['run']:>6} {c['hot']:>6} {c['hot'] * 16 / 1024:>7.1f} "
              f"{100 * c['executed'] / executed:>7.1f} {100 * c['samples'] / samples:>9.1f} "
              f"{100 * c['no_inst'] / max(c['samples'], 1):>7.1f}%")


if __name__ == "__main__":
    main()
