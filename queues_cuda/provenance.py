"""Where a measured result came from: the record every committed benchmark JSON carries
(DESIGN.md, "Every benchmark writes one JSON record").

The commit comes from ``$GQ_COMMIT`` (and ``$GQ_DIRTY``) when the caller sets it, else from
``git``. The caller wins: the GPU machine's copy of the working tree may carry a ``.git`` of some
other commit (runs 286-290 recorded c66de7a, the session's first commit, for trees of e41b540,
21ae819 and 9f44082), and an A/B tree unpacked inside the checkout finds the checkout's.
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
    commit = os.environ.get("GQ_COMMIT")
    if commit:
        dirty = os.environ.get("GQ_DIRTY", "unknown")
    else:
        commit = _git("rev-parse", "HEAD")
        dirty = bool(_git("status", "--porcelain")) if commit else None
        if commit is None:
            commit, dirty = "unknown", "unknown"
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
