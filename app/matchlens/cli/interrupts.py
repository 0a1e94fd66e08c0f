"""Ctrl+C (SIGINT) or SIGTERM ends a headless run within a fraction of a second, whatever the
main thread is doing.

A Python signal handler only runs in the main thread between bytecodes, and a batch spends
seconds in single C calls (the chrF/BLEU numba kernel over a chunk, rapidfuzz's cpdist): the
handler would wait for the call to end. Instead the C-level handler writes the signal number to
a pipe (`signal.set_wakeup_fd`) and a watcher thread blocked on that pipe does the leaving:
it kills the forked scoring worker (SIGKILL, not waited for: init reaps it once we are gone),
removes this run's temporary files (core.atomic), prints the one line and `os._exit`s with
130 or 143. Those calls release the GIL (numba kernels are `nogil`, cpdist too), so the
watcher runs at once; during Python code it gets the GIL within the switch interval (5 ms).

Only for the process's own command line (`matchlens.main` with argv None): `os._exit` from a
thread would end a test runner or an embedding program.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

from matchlens.cli.exit_codes import EXIT_INTERRUPTED, EXIT_TERMINATED

_LINES = {signal.SIGINT: "matchlens: interrupted; no output was written",
          signal.SIGTERM: "matchlens: terminated; no output was written"}
_started = False
# Set when a signal's leaving starts: its cleanup removes the copy of standard input and the
# temporary files, so the main thread may fail on them (a "cannot be read" sentence and exit 2
# racing the watcher's exit 130/143). The main thread asks `hold_if_leaving` before it speaks or
# exits, and waits for the watcher to end the process instead.
LEAVING = threading.Event()


def hold_if_leaving() -> None:
    """In the main thread, before a sentence or an exit: while a signal's leaving is under way,
    wait for the watcher to end the process (it exits within moments; 5 s is a safety net)."""
    if LEAVING.is_set() and threading.current_thread() is threading.main_thread():
        threading.Event().wait(5)


def active() -> bool:
    """True once `watch()` has taken over SIGINT and SIGTERM in this process."""
    return _started


def watch() -> bool:
    """Leave at once on SIGINT/SIGTERM from now on; False where it cannot (not the main
    thread, no pipes)."""
    global _started
    if _started:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        read_fd, write_fd = os.pipe()
        os.set_blocking(write_fd, False)  # set_wakeup_fd requires it: a handler never blocks
    except OSError:
        return False
    try:
        # A Python-level handler must be installed for the C handler to write to the pipe;
        # it does nothing: the watcher is the only one to act, so the line is printed once.
        for signum in _LINES:
            signal.signal(signum, _ignore)
        signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except (ValueError, OSError):
        for fd in (read_fd, write_fd):
            os.close(fd)
        return False
    watcher = threading.Thread(target=_watch, args=(read_fd,), name="matchlens-interrupts",
                               daemon=True)
    # It only ever blocks in os.read holding no lock, so a fork (core.scoring.parallel) stays safe.
    watcher.fork_safe = True  # type: ignore[attr-defined]
    watcher.start()
    _started = True
    return True


def _ignore(signum, frame) -> None:
    """The main thread's part: none (see `watch`)."""


def _watch(read_fd: int) -> None:
    while True:
        try:
            data = os.read(read_fd, 64)
        except InterruptedError:
            continue
        except OSError:
            return
        for signum in data:
            if signum in _LINES:
                _leave(signum)


def _leave(signum: int) -> None:
    LEAVING.set()
    # Looked up, not imported: the main thread may hold the import lock (numba loading); a
    # module not imported yet has no worker or temporary file to clean up. A module caught
    # half imported lacks the function (a signal during start-up): skipped, and no cleanup's
    # failure may keep this thread from leaving, or the interrupt would be lost.
    for module, cleanup in (("matchlens.core.scoring.forked", "kill_workers"),
                            ("matchlens.core.atomic", "discard_all_temporaries"),
                            ("matchlens.core.datasets.readers", "discard_copies")):
        # kill_workers: the forked scoring worker; discard_all_temporaries keeps its lock (no
        # rename after this); discard_copies: the copy of standard input (`score -`)
        function = getattr(sys.modules.get(module), cleanup, None)
        if function is not None:
            with contextlib.suppress(Exception):
                function()
    # straight to the descriptor: sys.stderr's lock may be held by the main thread
    with contextlib.suppress(OSError):
        os.write(2, (_LINES[signum] + "\n").encode())
    os._exit(EXIT_INTERRUPTED if signum == signal.SIGINT else EXIT_TERMINATED)
