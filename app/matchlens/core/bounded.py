"""Reading files users name without reading forever: size limits, devices and FIFOs.

Every file read whole (a labels file, the two texts of `diff` and the Compare tab) goes through
`read_bytes`, and every stream copied to disk (standard input, a pipe given as data) through
`copy_stream`; each stops at a limit with one sentence instead of filling memory or the disk
(`/dev/zero` used to fill 34 GB of the temp folder in 30 s). A character device that is not a
terminal (`/dev/zero`, `/dev/urandom`) is refused at once: it is not a file of data. A FIFO
nobody writes to yet is waited for with a sentence on standard error after `NOTICE_AFTER`
seconds (it used to wait forever in silence), and the wait wakes up every quarter second, so
Ctrl+C is honoured.

`MATCHLENS_MAX_INPUT_BYTES` (bytes) raises or lowers every limit here at once.
"""

from __future__ import annotations

import contextlib
import os
import select
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from matchlens.core.errors import MatchLensError

STREAM_LIMIT = 4 << 30  # a pipe copied to a temporary file (`score -`)
TEXT_LIMIT = 256 << 20  # a file read whole into memory (labels, diff and compare texts)
NOTICE_AFTER = 2.0  # seconds of silence from a FIFO before saying that we wait for it
_ENV = "MATCHLENS_MAX_INPUT_BYTES"
_BLOCK = 1 << 20


class InputBoundError(MatchLensError):
    """An input past its limit, a device, or a FIFO that could not be opened: one sentence
    (without the file's name; the caller adds it in its own form)."""


def limit(default: int) -> int:
    """`default`, or the environment's `MATCHLENS_MAX_INPUT_BYTES` when set to a number."""
    text = os.environ.get(_ENV, "").strip()
    return int(text) if text.isdigit() else default


def size_text(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def _notice(text: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def open_input(path: Path, name: str, notice: Callable[[str], None] = _notice) -> BinaryIO:
    """`path` opened for binary reading. A device is refused; a FIFO is opened without
    blocking and waited for (saying so after `NOTICE_AFTER` s). OSError as from open()."""
    mode = os.stat(path).st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        fd = os.open(path, os.O_RDONLY | os.O_NOCTTY)
        if not os.isatty(fd):
            os.close(fd)
            raise InputBoundError("is a device, not a file of data")
        return os.fdopen(fd, "rb")
    if not stat.S_ISFIFO(mode):
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _wait_for_writer(fd, name, notice)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _wait_for_writer(fd: int, name: str, notice: Callable[[str], None]) -> None:
    """Return once the FIFO has data or its writer closed it (POLLIN or POLLHUP)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    waited, said = 0.0, False
    while not poller.poll(250):
        waited += 0.25
        if waited >= NOTICE_AFTER and not said:
            notice(f"matchlens: {name} is a pipe (FIFO) no program is writing to yet; "
                   "waiting for one (Ctrl+C stops)")
            said = True


def read_bytes(path: Path, name: str, cap: int = TEXT_LIMIT,
               notice: Callable[[str], None] = _notice) -> bytes:
    """The whole file, at most `cap` bytes (see `limit`); InputBoundError past it."""
    cap = limit(cap)
    with open_input(path, name, notice) as handle:
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise InputBoundError(f"is larger than {size_text(cap)}, the most read whole "
                              f"(set {_ENV} to raise it)")
    return data


def copy_stream(source: BinaryIO, out: BinaryIO, cap: int = STREAM_LIMIT) -> int:
    """Copy `source` to `out` in blocks, at most `cap` bytes; InputBoundError past it."""
    cap = limit(cap)
    done = 0
    while block := source.read(_BLOCK):
        done += len(block)
        if done > cap:
            raise InputBoundError(f"gave more than {size_text(cap)}, the most copied from a "
                                  f"stream (set {_ENV} to raise it)")
        out.write(block)
    return done
