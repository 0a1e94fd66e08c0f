"""Atomic file writes: a temporary file beside the target, then a rename.

* `atomic_writer(path)` yields a file; it replaces `path` only if the block finishes.
* `together()` groups writers (a scored table and its sidecar): every file is written and
  flushed first, then all are renamed in one step under a lock on their folder, so a disk that
  fills between them leaves neither, and two runs writing the same `-o` at once never leave a
  sidecar of one beside the table of the other. A rename that fails puts back what it replaced.
* A replaced file keeps its mode; a new one gets the umask's (mkstemp's 0600 is not what a
  user expects of a table they will share).
* Temporary files are named `.NAME.PID.xxxx.tmp`: one left by a run that was killed (its PID is
  gone) is removed by the next run writing NAME.
* `discard_all_temporaries()` removes every temporary this process has open, for a run leaving
  on a signal from another thread (matchlens.cli.interrupts): creating, renaming and removing them
  happens under `_lock`, which that call keeps, so no rename slips in after it.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import re
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from matchlens.core.errors import OutputError

_OLD_STYLE_STALE_AFTER = 3600.0  # s: temporaries from before PIDs were in their names


@dataclass
class _Pending:
    tmp: str
    target: Path


# This process's temporary files that exist now (a table, a sidecar, a backup before a rename).
_live: set[str] = set()
_lock = threading.RLock()

_group: contextvars.ContextVar[list[_Pending] | None] = contextvars.ContextVar(
    "matchlens_atomic_group", default=None)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike, *, mode: str = "w", encoding: str | None = "utf-8",
                  newline: str | None = None) -> Iterator[IO]:
    """Yield a file to write; it replaces `path` only if the block finishes without error
    (inside `together()`: once every file of the group is written)."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{target}: is a folder, not a file to write")
    folder = target.parent if str(target.parent) else Path(".")
    remove_stale_temporaries(target)
    kwargs = {} if "b" in mode else {"encoding": encoding, "newline": newline}
    group = _group.get()
    made: list[str] = []  # the temporary's name, known before the file exists
    try:
        try:
            fd = _create_temporary(target, folder, made)
        except OSError as err:
            raise OutputError(f"{target}: cannot write here ({err.strerror or err})") from None
        tmp = made[0]
        _set_mode(fd, target)
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if group is None:
            with _lock:
                os.replace(tmp, target)
                _live.discard(tmp)
        else:
            group.append(_Pending(tmp, target))
    except BaseException:
        for name in made:
            _unlink(name)
        raise


def _unlink(tmp: str) -> None:
    with _lock:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _live.discard(tmp)


def discard_all_temporaries() -> None:
    """Remove every temporary file of this process and keep the lock: the caller is about to
    `os._exit`, and no other thread may rename one into place meanwhile. A rename under way
    (a commit) finishes first."""
    _lock.acquire()
    for tmp in list(_live):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _live.clear()


_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | \
    getattr(os, "O_BINARY", 0)


def _create_temporary(target: Path, folder: Path, made: list[str]) -> int:
    """Create `.NAME.PID.xxxx.tmp` as mkstemp would, and return its descriptor; its name is in
    `made` before the file exists. (With mkstemp a SIGTERM, which cli/crash.py raises as an
    exception, could land after the file was made and before its name was returned: the file
    stayed behind. A signal mask cannot close that window: another thread takes the signal.)"""
    for _ in range(100):
        name = os.path.join(folder, f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        made.append(name)
        with _lock:  # named in _live before it exists (matchlens.cli.interrupts removes them)
            _live.add(name)
            try:
                return os.open(name, _FLAGS, 0o600)
            except FileExistsError:
                made.pop()  # not ours: never removed
                _live.discard(name)
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


@contextlib.contextmanager
def together() -> Iterator[None]:
    """Every `atomic_writer` inside replaces its target only when the block ends without
    error, all in one step (see the module docstring)."""
    pending: list[_Pending] = []
    token = _group.set(pending)
    try:
        yield
    except BaseException:
        _discard(pending)
        raise
    finally:
        _group.reset(token)
    try:
        _commit(pending)
    except BaseException:
        _discard(pending)
        raise


def _commit(pending: list[_Pending]) -> None:
    if not pending:
        return
    with _lock, _folder_lock(pending[0].target.parent):
        done: list[tuple[_Pending, str | None]] = []
        failed, backup = pending[0], None
        try:
            for failed in pending:
                backup = None
                backup = _keep_old(failed.target)
                os.replace(failed.tmp, failed.target)
                _live.discard(failed.tmp)
                done.append((failed, backup))
        except BaseException as err:
            if backup is not None:  # the failed one's target was not touched
                _unlink(backup)
            for item, kept in reversed(done):  # put back what was replaced
                with contextlib.suppress(OSError):
                    if kept is not None:
                        os.replace(kept, item.target)
                    else:
                        os.unlink(item.target)
            if isinstance(err, OSError):
                raise OutputError(f"{failed.target}: cannot write "
                                  f"({err.strerror or err})") from None
            raise
        for _, backup in done:
            if backup is not None:
                _unlink(backup)


def _keep_old(target: Path) -> str | None:
    """A hard link to the file about to be replaced (None when there is none), for undoing."""
    if not target.exists():
        return None
    backup = target.with_name(f".{target.name}.{os.getpid()}.old.tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(backup)
    try:
        with _lock:
            os.link(target, backup)
            _live.add(str(backup))
    except OSError:  # a file system without hard links: no undo, the renames still pair up
        return None
    return str(backup)


def _discard(pending: list[_Pending]) -> None:
    for item in pending:
        _unlink(item.tmp)
    pending.clear()


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (no lock file left behind); none where the
    platform has no flock."""
    try:
        import fcntl
    except ImportError:  # Windows: renames still pair up within one run
        yield
        return
    try:
        fd = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _set_mode(fd: int, target: Path) -> None:
    try:
        current = os.stat(target).st_mode
        wanted = stat.S_IMODE(current)
    except FileNotFoundError:
        wanted = 0o666 & ~current_umask()
    except OSError:
        return
    with contextlib.suppress(OSError, AttributeError):  # fchmod: not on Windows
        os.fchmod(fd, wanted)


def current_umask() -> int:
    """The process umask (read without changing it where /proc tells)."""
    with contextlib.suppress(OSError, ValueError), \
            open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere: set and restore at once
    os.umask(mask)
    return mask


def remove_stale_temporaries(target: Path) -> int:
    """Remove `.NAME.*.tmp` files that a killed run left beside `target`; returns how many.

    A temporary whose PID is alive belongs to a run writing right now, and stays."""
    folder = target.parent if str(target.parent) else Path(".")
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(?:(\d+)\.)?[^.]+(?:\.old)?\.tmp")
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None:
            continue
        pid = match.group(1)
        try:
            if pid is not None:
                if int(pid) == os.getpid() or _alive(int(pid)):
                    continue
            elif now - entry.stat(follow_symlinks=False).st_mtime < _OLD_STYLE_STALE_AFTER:
                continue
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: leave its files alone
    return True
