"""Atomic file writes: a temporary file beside the target, then a rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from matchlens.core.errors import OutputError


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike, *, mode: str = "w", encoding: str | None = "utf-8",
                  newline: str | None = None) -> Iterator[IO]:
    """Yield a file to write; it replaces `path` only if the block finishes without error."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{target}: is a folder, not a file to write")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise OutputError(f"{target}: cannot write here ({err.strerror or err})") from None
    kwargs = {} if "b" in mode else {"encoding": encoding, "newline": newline}
    try:
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
