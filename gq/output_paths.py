"""The check every `gq` command makes on a file it will write, before any work starts: the name
ends in the format's suffix, and its folder exists (a typo costs one line, never a lost run)."""

from __future__ import annotations

from pathlib import Path

from queues_cuda.errors import GQError


def check_output_path(option: str, path: Path | None, suffix: str, why: str = "", folder: bool = True) -> None:
    """GQError naming the option unless `path` (None: not asked for) ends in `suffix` and, with
    `folder`, its folder exists. `why` says what the file is ("the image is written as PNG")."""
    if path is None:
        return
    if path.suffix.lower() != suffix:
        reason = f"{why}, so " if why else ""
        raise GQError(f"{option}: {reason}the name must end in {suffix}, got {str(path)!r}")
    where = path.resolve().parent
    if folder and not where.is_dir():
        raise GQError(f"{option} {path}: the folder {where} does not exist (create it first)")
