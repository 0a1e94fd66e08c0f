"""Lane processes started ahead of their lanes: `matchlens compare A B` starts them first thing.

A lane's child (`lane_worker`) takes ~0.3-0.5 s of CPU to start (Python, numpy, rapidfuzz, the
metrics' warm-up). Started when the window first asks for work, that start-up sits between the
window's request and the first answer; started before the window is built, it runs on the
other core while Qt starts, and the lanes are ready when the texts arrive. `LanePool` takes a
spare (`take`) before it starts a process of its own. Spares nobody took are told to quit when
this process ends. Light on purpose (no numpy, no Qt): `main` imports it before anything else.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import threading
from pathlib import Path

from matchlens.workers.background import child_command, lower_priority

LANE_MODULE = "matchlens.workers.lane_worker"

_spares: list[subprocess.Popen[bytes]] = []
_lock = threading.Lock()


def lane_count() -> int:
    """How many lanes a pool has by default: one per core, 2 to 4. More only time-slice the
    same cores (measured: 3 lanes on 2 cores answered later than 2)."""
    return max(2, min(4, os.cpu_count() or 2))


def spawn() -> subprocess.Popen[bytes]:
    """A new lane child process at the background priority (it says ("ready",) when it is)."""
    proc = subprocess.Popen(child_command(LANE_MODULE), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    lower_priority(proc.pid)
    return proc


def prestart(count: int | None = None) -> int:
    """Start `count` (default: `lane_count()`) lane processes now; returns how many started.
    Nothing under MATCHLENS_COMPUTE=thread (lanes are threads there), nor if one cannot start
    (the pool then starts its own and reports the failure where it always has)."""
    if os.environ.get("MATCHLENS_COMPUTE") == "thread":
        return 0
    started = 0
    with _lock:
        for _ in range(count or lane_count()):
            try:
                _spares.append(spawn())
            except OSError:
                break
            started += 1
    return started


def prestart_for(paths: list[Path], min_bytes: int = 4_000) -> int:
    """`prestart()` when the files together hold more than `min_bytes` (the compare view
    scores smaller texts on its own thread, without lanes); a file that cannot be read is
    left to the window to report."""
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += Path(path).stat().st_size
    return prestart() if total > min_bytes else 0


def take() -> subprocess.Popen[bytes] | None:
    """A started spare that is still running, or None."""
    with _lock:
        while _spares:
            proc = _spares.pop(0)
            if proc.poll() is None:
                return proc
            _close(proc)
    return None


def waiting() -> list[subprocess.Popen[bytes]]:
    """The spares started and not yet taken (a copy)."""
    with _lock:
        return list(_spares)


def _close(proc: subprocess.Popen[bytes]) -> None:
    # End of input: the child's read loop returns and it exits.
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


@atexit.register
def discard() -> None:
    """Let the spares nobody took go (each exits at the end of its input)."""
    with _lock:
        spares = list(_spares)
        _spares.clear()
    for proc in spares:
        _close(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=1.0)
