"""Where a measured result came from: the record every committed benchmark JSON carries
(DESIGN.md, "Every benchmark writes one JSON record").

The commit comes from ``git`` when the tree is a checkout, else from ``$GQ_COMMIT`` (the GPU
machine receives a copy of the working tree without its history, so the caller passes it).
"""

from __future__ import annotations

import datetime
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

from .backend import gpu_status

ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def provenance(command: list[str] | None = None, **extra) -> dict:
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain")) if commit else None
    if commit is None:
        commit = os.environ.get("GQ_COMMIT", "unknown")
        dirty = os.environ.get("GQ_DIRTY", "unknown")
    gpu, why = gpu_status()
    record = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": commit,
        "dirty": dirty,
        "command": shlex.join(command if command is not None else sys.argv),
        "host": platform.node(),
        "python": platform.python_version(),
        "gpu": gpu if gpu else {"none": why},
    }
    record.update(extra)
    return record
