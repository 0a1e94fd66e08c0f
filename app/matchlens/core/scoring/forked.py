"""A forked copy of this process as a second core: whether one may be started (`can_fork`),
the worker itself (`ForkedWorker`, killed on Ctrl+C by `kill_workers`), and numbered chunks of
work shared by this process and one child (`share_chunks`: each process reads the next chunk
number from a pipe, the child sends what it found when it is done)."""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from matchlens.core.datasets.source import gc_paused
from matchlens.core.metrics.registry import threads_per_process


def can_fork() -> bool:
    """True where a forked worker is safe and useful: Linux (macOS frameworks break after
    fork; Windows has none), called from the main thread with no other Python thread running
    (a lock another thread holds would stay locked in the child), and at least two cores for
    this process."""
    if not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return False
    if threading.get_ident() != threading.main_thread().ident:
        return False
    # a thread marked fork_safe (matchlens.cli.interrupts' watcher) only waits in a read, no lock held
    others = [t for t in threading.enumerate()
              if t is not threading.current_thread() and not getattr(t, "fork_safe", False)]
    if others:
        return False
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except OSError:
        return False


_workers: set[int] = set()  # pids of the forked workers running now (or not yet waited for)
# Workers that sent everything and are exiting: not waited for at once (tearing down a big
# copy-on-write heap takes ~50 ms), but before the next fork or by `reap_workers`.
_exiting: set[int] = set()
# Held from the fork until the child's pid is in _workers: a signal handled meanwhile by
# another thread (matchlens.cli.interrupts) waits for it, so no worker escapes kill_workers.
_workers_lock = threading.Lock()


def kill_workers() -> None:
    """SIGKILL every forked worker, not waiting for them: for a process about to `os._exit`
    (matchlens.cli.interrupts); init reaps them. Waiting took ~0.2 s (a big heap to tear down)."""
    with _workers_lock:
        for pid in list(_workers):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


class ForkedWorker:
    """A forked copy of this process running `task(stream)`; the parent reads `stream`.

    `stream` is None when no child could be started. On leaving the block the child is waited
    for (killed first if the block raised); `ok` then says whether it finished its task.
    """

    def __init__(self, task: Callable[[BinaryIO], None]) -> None:
        self.pid: int | None = None
        self.stream: BinaryIO | None = None
        self.ok = False
        self.sent = False  # set by the owner once it has read everything the task sends
        reap_workers()
        read_fd, write_fd = os.pipe()
        _workers_lock.acquire()
        try:
            pid = os.fork()
        except OSError:
            _workers_lock.release()
            os.close(read_fd)
            os.close(write_fd)
            return
        if pid != 0:
            _workers.add(pid)
            _workers_lock.release()
        if pid == 0:  # the child: do the task, never return into the caller's code
            code = 1
            try:
                os.close(read_fd)
                gc.disable()  # a collection would touch (and so copy) every page of the heap
                with open(write_fd, "wb") as out:
                    task(out)
                code = 0
            except BaseException:  # noqa: S110 - reported to the parent by the exit code
                pass
            finally:
                os._exit(code)
        os.close(write_fd)
        self.pid = pid
        self.stream = open(read_fd, "rb")  # noqa: SIM115 - closed in __exit__

    def __enter__(self) -> ForkedWorker:
        return self

    def __exit__(self, exc_type, *_exc) -> None:
        if self.pid is None:
            return
        if exc_type is not None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        self.stream.close()  # type: ignore[union-attr]
        if exc_type is None and self.sent:  # its task is done; its exit need not be waited for
            self.ok = True
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == 0:
                _exiting.add(self.pid)
                return
        else:
            _, status = os.waitpid(self.pid, 0)
        _workers.discard(self.pid)
        self.ok = exc_type is None and os.waitstatus_to_exitcode(status) == 0


def reap_workers() -> None:
    """Wait for the workers that are exiting (see `_exiting`)."""
    while _exiting:
        pid = _exiting.pop()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        _workers.discard(pid)


class SharedChunks:
    """Chunks 0..count-1, shared by this process and a forked child that starts on them at
    once; `finish` takes the rest here."""

    def __init__(self, count: int, score: Callable[[int, dict], None]) -> None:
        self._score = score
        queue_r, queue_w = os.pipe()
        try:
            os.write(queue_w, b"".join(i.to_bytes(4, "little") for i in range(count)))
        finally:
            os.close(queue_w)
        self._queue = queue_r
        parent = os.getpid()

        def child_task(stream: BinaryIO) -> None:
            done: list[int] = []
            found: dict = {}
            # a parent killed (or gone on Ctrl+C) before it could kill us: stop after this chunk
            while os.getppid() == parent and (i := self._next_chunk()) is not None:
                score(i, found)
                done.append(i)
            pickle.dump((done, found), stream, protocol=pickle.HIGHEST_PROTOCOL)

        # One process per core: the C++ metrics use one thread each. Held until finish or
        # abort, in the child too (it is forked inside).
        self._held = contextlib.ExitStack()
        try:
            self._held.enter_context(threads_per_process(1))
            self._held.enter_context(gc_paused())
            self._child = self._held.enter_context(ForkedWorker(child_task))
        except BaseException:
            self._close()
            raise

    def _next_chunk(self) -> int | None:
        data = os.read(self._queue, 4)
        return int.from_bytes(data, "little") if len(data) == 4 else None

    def finish(self, messages: dict) -> set[int]:
        """The numbers of the chunks whose scores are in (the child's only if it finished);
        `messages` gets theirs."""
        mine: list[int] = []
        theirs: tuple[list[int], dict] = ([], {})
        try:
            while (i := self._next_chunk()) is not None:
                self._score(i, messages)
                mine.append(i)
            if self._child.stream is not None:
                try:
                    theirs = pickle.load(self._child.stream)
                    self._child.sent = True
                except (EOFError, pickle.UnpicklingError, OSError):
                    theirs = ([], {})
        except BaseException:
            self._close(*sys.exc_info())
            raise
        self._close()
        if not self._child.ok:
            theirs = ([], {})
        for key, rows in theirs[1].items():
            messages.setdefault(key, {}).update(rows)
        return {*mine, *theirs[0]}

    def abort(self) -> None:
        """Kill the child (it is waited for) and let go of everything."""
        try:
            raise _Aborted
        except _Aborted:
            self._close(*sys.exc_info())

    def _close(self, *exc_info) -> None:
        try:
            self._held.__exit__(*(exc_info or (None, None, None)))
        finally:
            if self._queue is not None:
                os.close(self._queue)
                self._queue = None


class _Aborted(Exception):
    """What `ForkedWorker.__exit__` sees when the caller stops early: kill the child."""


def share_chunks(count: int, work: Callable[[int, dict], None]) -> SharedChunks:
    """Chunks 0..count-1 worked on by this process and a forked child that starts on them now
    (for work that is not a BatchResult: `fields`' counts). `work(i, found)` puts chunk i's
    result in `found` under keys of its own (each a dict); `.finish(found)` works the chunks
    left here, adds the child's entries to `found` and returns the numbers of the chunks
    done (those a failed child left are not: the caller works them itself); `.abort()` kills
    the child. The caller checks `can_fork()` first."""
    return SharedChunks(count, work)

