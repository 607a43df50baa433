"""Writing files whole or not at all: every command's outputs (reports, images, arrays, results)
go through here, so a crash, a full disk or an interrupt never leaves half a file behind."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO


def write_file_atomically(path: str | os.PathLike, write: Callable[[IO[bytes]], None]) -> None:
    """Run ``write`` on a temporary file beside ``path``, then move it into place (``os.replace``
    is atomic on one file system); on any failure remove the temporary file and leave ``path`` as
    it was."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        # mkstemp makes the file private (0600); an output should get the permissions any other
        # new file of this user gets.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_json_atomically(path: str | os.PathLike, payload: dict) -> None:
    """The JSON record, indented, whole or not at all (its folder is created if missing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(payload, indent=2) + "\n"
    write_file_atomically(path, lambda f: f.write(text.encode()))


def _umask() -> int:
    mask = os.umask(0)  # the only portable way to read it is to set it and put it back
    os.umask(mask)
    return mask
