"""Background work for the batch tab: superqt workers behind a small cancellable `Task`.

Each `Task` is a QObject living in the GUI thread; the superqt worker's signals are connected
to its bound methods, so every result arrives in the GUI thread (queued), and a cancelled task
never delivers anything. The work function gets a `cancel` callable it must poll.

Garbage collection matters at a million rows: a loaded table is ~3 million Python objects, and
one full collection pass over them holds the GIL for ~0.3–0.5 s — the window would freeze even
though the work is on another thread. So freshly loaded data is moved out of the collector's
reach with `gc.freeze()` (it has no reference cycles; refcounting still frees it), and an old
table is torn down in slices on a worker instead of in one 0.4 s deallocation.
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from PySide6.QtCore import QObject, Signal
from superqt.utils import create_worker

from matchlens.core.datasets import Table
from matchlens.core.datasets.stored_table import read_stored
from matchlens.core.errors import MatchLensError
from matchlens.core.scoring.batch import BatchResult, Chunk, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping, Prepared, prepare
from matchlens.core.scoring.pipeline import score_chunks
from matchlens.core.scoring.stats import Final, finalize
from matchlens.workers.background import child_command, lower_priority
from matchlens.workers.frames import read_frame, write_frame

_RELEASE_SLICE = 16_384
# From this many rows on, scoring runs in a child process (see score_child for why); below it a
# thread is quicker than starting a Python (~0.5 s) and the GIL is only shared briefly.
PROCESS_ROWS = 20_000
# Rows per request to the child (each column is pickled on its own, a ~3 ms GIL hold).
CHILD_CHUNK_ROWS = 10_000


class Task(QObject):
    """One job on the global thread pool; emits in the GUI thread, never after cancel().

    A task has no Qt parent and is never deleteLater()'d: Python owns it, and it goes when the
    last reference does (the live set's, once its thread is done). deleteLater() on it raced
    Python's own collection: Qt destroyed the C++ object after Python had freed the wrapper,
    a segfault in the event loop once every few thousand tasks. `owner` only says whose
    shutdown stops it.
    """

    sig_yielded = Signal(object)
    sig_returned = Signal(object)
    sig_errored = Signal(object)  # the exception
    sig_done = Signal()  # after returned/errored, or after a cancel once the thread stops

    _live: set[Task] = set()  # started and not yet finished (strong references, for shutdown)

    def __init__(self, fn: Callable[..., Any], *args: Any, owner: QObject | None = None,
                 **kwargs: Any) -> None:
        super().__init__()
        self.owner = owner
        self._cancel = threading.Event()
        self._worker = create_worker(fn, *args, cancel=self._cancel.is_set, _start_thread=False,
                                     _ignore_errors=True, **kwargs)
        self._running = True
        signals = self._worker.signals
        if hasattr(signals, "yielded"):
            signals.yielded.connect(self._on_yielded)
        signals.returned.connect(self._on_returned)
        signals.errored.connect(self._on_errored)
        signals.finished.connect(self._on_finished)

    def start(self) -> Task:
        if not Task._live:
            _share_gil_finely(True)
        Task._live.add(self)
        self._worker.start()
        return self

    def cancel(self) -> None:
        self._cancel.set()
        self._worker.quit()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def running(self) -> bool:
        return self._running

    def wait(self, timeout: float = 5.0) -> bool:
        """Block until the thread has left the work function (True) or `timeout` passes."""
        deadline = time.monotonic() + timeout
        # superqt sets is_running only once the thread starts; a task still queued has nothing
        # to wait for beyond its own check of the cancel flag.
        while self._worker.is_running and time.monotonic() < deadline:
            time.sleep(0.005)
        return not self._worker.is_running

    def _on_yielded(self, value: object) -> None:
        if not self.cancelled:
            self.sig_yielded.emit(value)

    def _on_returned(self, value: object) -> None:
        if not self.cancelled:
            self.sig_returned.emit(value)

    def _on_errored(self, error: object) -> None:
        if not self.cancelled:
            self.sig_errored.emit(error)

    def _on_finished(self) -> None:
        self._running = False
        self._worker = _Finished()  # drop the arguments (they may hold a whole dataset)
        Task._live.discard(self)
        if not Task._live:
            _share_gil_finely(False)
        self.sig_done.emit()
        # A slot that holds the task (TaskSlot's lambda) is a cycle through Qt that Python's
        # collector cannot see: cut the connections so the task goes with its last reference.
        for signal in (self.sig_yielded, self.sig_returned, self.sig_errored, self.sig_done):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # "nothing to disconnect"
                signal.disconnect()


_SWITCH_INTERVAL = 0.0005
_saved_interval: float | None = None


def _share_gil_finely(on: bool) -> None:
    """While a worker runs, hand the GIL back to the window every 0.5 ms instead of 5 ms.

    Each Python callback of the GUI (a table cell, a plot item's paint) waits for the GIL when
    a worker runs Python; the wait is up to one switch interval, and a repaint makes hundreds of
    callbacks. Restored when the last task ends.
    """
    global _saved_interval
    if on and _saved_interval is None:
        _saved_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(_saved_interval, _SWITCH_INTERVAL))
    elif not on and _saved_interval is not None:
        sys.setswitchinterval(_saved_interval)
        _saved_interval = None


class _Finished:
    """Stands in for a finished superqt worker."""

    is_running = False

    def quit(self) -> None:
        pass


class TaskSlot:
    """At most one task for a view: starting one cancels the one in flight (the newest request
    wins), and the slot empties itself when its task ends."""

    def __init__(self) -> None:
        self.task: Task | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def start(self, task: Task) -> Task:
        self.cancel()
        self.task = task
        task.sig_done.connect(lambda: self._done(task))
        return task.start()

    def cancel(self) -> Task | None:
        """Cancel the task in flight, if any, and return it (to wait for it at shutdown)."""
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
        return task

    def _done(self, task: Task) -> None:
        if self.task is task:
            self.task = None


def stop_tasks(owner: QObject, timeout: float = 5.0) -> bool:
    """Cancel every live task owned by `owner` or a descendant, and wait for their threads."""
    mine = []
    for task in list(Task._live):
        node = task.owner
        while node is not None and node is not owner:
            node = node.parent()
        if node is owner:
            task.cancel()
            mine.append(task)
    return all(task.wait(timeout) for task in mine)


def read_dataset(path: Path, cancel: Callable[[], bool], encoding: str | None = None,
                 **options: str | None) -> Table:
    """read_table (`options`: its records, sheet, format, delimiter) with the rows in a column
    store (stored_table.py: texts as UTF-8 buffers, not a str object a cell), and the collector
    kept off what is left (see the module docstring)."""
    was_enabled = gc.isenabled()
    gc.disable()  # the reader pauses gc itself; keeping it off here avoids the pass at its end
    try:
        table = read_stored(path, encoding=encoding, cancel=cancel, **options)
        gc.freeze()
        return table
    finally:
        if was_enabled:
            gc.enable()


class Started:
    """First thing a scoring run yields: the resolved values and the (empty) result arrays."""

    def __init__(self, prepared: Prepared, result: BatchResult) -> None:
        self.prepared = prepared
        self.result = result


class ChildRun:
    """The child process of one scoring run; the GUI thread kills it on Cancel."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.killed = False
        self.ranking = False  # asked for the kept columns' ranks; they wait in the pipe
        self._lock = threading.Lock()

    @staticmethod
    def available() -> bool:
        return os.environ.get("MATCHLENS_COMPUTE") != "thread"

    def start(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self.killed:
                raise MatchLensError("scoring was cancelled")
            self.proc = subprocess.Popen(child_command("matchlens.workers.score_child"),
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            lower_priority(self.proc.pid)
            return self.proc

    def kill(self) -> None:
        with self._lock:
            self.killed = True
            proc = self.proc
            if proc is not None and proc.poll() is None:
                proc.kill()
                # Reaped off the GUI thread (no zombie when nobody reads its ranks any more).
                threading.Thread(target=proc.wait, daemon=True).start()

    def ranks(self, cancel: Callable[[], bool]) -> Iterator[tuple[str, np.ndarray]]:
        """(column key, ranks) for each column the child kept, then the child is stopped.

        Reading waits in the pipe without the GIL; unpickling a million-row array is a copy.
        """
        proc = self.proc
        try:
            while self.ranking and proc is not None and not cancel():
                message = read_frame(proc.stdout)
                if message is None or message[0] != "rank":
                    return  # done, killed, or an error while ranking: text sorts just take longer
                yield message[1], message[2]
        except OSError:
            return
        finally:
            self.ranking = False
            self.stop()

    def stop(self) -> None:
        """Let the child exit (or kill it), close the pipes, reap it."""
        proc = self.proc
        if proc is None:
            return
        with contextlib.suppress(OSError):
            write_frame(proc.stdin, ("exit",))
        for pipe in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def score_dataset(table: Table, mapping: ColumnMapping, jobs: list[MetricJob], chunk_size: int,
                  child: ChildRun | None, cancel: Callable[[], bool],
                  prepared: Prepared | None = None, rank_from: int | None = None
                  ) -> Generator[object, None, Final | None]:
    """Resolve the columns, then score chunk by chunk (the core pipeline's `score_chunks`);
    returns the sorted/swept arrays.

    The result arrays are filled here, in the worker thread; the GUI only reads them, and only
    up to the rows it has been told about (each Chunk arrives after its rows are written).
    From `rank_from` rows on, a scoring child also ranks the text columns (`child.ranks`).
    """
    if prepared is None:  # else resolved already (by the network cost check)
        prepared = prepare(table, mapping)
    gc.freeze()  # the resolved value lists: a million-item list each
    result = BatchResult.empty(prepared.rows, list(prepared.actuals), jobs)
    yield Started(prepared, result)
    # several references a row are scored in this worker
    if prepared.references is None and child is not None and child.available() and \
            prepared.rows >= PROCESS_ROWS:
        rank = rank_from is not None and prepared.rows >= rank_from
        items = score_in_child(prepared, jobs, min(chunk_size, CHILD_CHUNK_ROWS), child, cancel,
                               rank)
    else:
        items = score_chunks(prepared.expected, prepared.actuals, jobs, chunk_rows=chunk_size,
                             references=prepared.references, cancel=cancel)
    for item in items:
        if isinstance(item, Chunk):
            result.add(item)
        yield item
    if cancel():
        return None
    return finalize(result, prepared.labels)


def text_column_keys(prepared: Prepared) -> list[str]:
    """The table's text columns, named as the table model's ranks are."""
    keys = ["expected", *(f"actual:{v}" for v in prepared.actuals)]
    return keys + ["id"] if prepared.ids is not None else keys


def score_in_child(prepared: Prepared, jobs: list[MetricJob], chunk_size: int,
                   child: ChildRun, cancel: Callable[[], bool], rank: bool = False
                   ) -> Iterator[object]:
    """`score_chunks`' items, each chunk scored by the child process.

    With `rank`, the child keeps the texts and, after the last chunk, starts ranking them
    while the window finishes the run; it then lives on until `child.ranks` is read.
    """
    proc = child.start()
    try:
        if read_frame(proc.stdout) != ("ready",):
            if cancel() or child.killed:
                return
            raise MatchLensError("The scoring process could not start (see the terminal).")
        write_frame(proc.stdin, ("jobs", [(j.id, j.threshold, dict(j.options)) for j in jobs]))
        if rank:
            write_frame(proc.stdin, ("keep", text_column_keys(prepared)))
        ids = prepared.ids if rank else None

        def in_child(start: int, stop: int) -> Chunk | None:
            if cancel():
                return None
            try:
                send_chunk(proc.stdin, prepared, start, stop, ids)
                reply = read_frame(proc.stdout)
            except OSError:
                reply = None
            if reply is None:
                if cancel() or child.killed:
                    return None
                raise MatchLensError(f"The scoring process stopped unexpectedly "
                                     f"(exit code {proc.poll()}).")
            if reply[0] == "error":
                raise MatchLensError(reply[1])
            return reply[1]

        yield from score_chunks(prepared.expected, prepared.actuals, jobs,
                                chunk_rows=chunk_size, scorer=in_child)
        if rank and not cancel():
            with contextlib.suppress(OSError):  # a child gone now only costs the ranks
                write_frame(proc.stdin, ("ranks",))
                child.ranking = True
    finally:
        if not child.ranking:
            child.stop()


def send_chunk(stream: BinaryIO, prepared: Prepared, start: int, stop: int,
               ids: list[str | None] | None) -> None:
    """One chunk's texts, a frame per column: pickling is one C call holding the GIL, and
    10,000 rows of four columns took 10–17 ms in one; a column at a time lets the window in
    between."""
    write_frame(stream, ("chunk", start, list(prepared.actuals), ids is not None))
    write_frame(stream, prepared.expected[start:stop])
    for values in prepared.actuals.values():
        write_frame(stream, values[start:stop])
    if ids is not None:
        write_frame(stream, ids[start:stop])


def release(lists: list[list], cancel: Callable[[], bool]) -> None:
    """Empty big lists slice by slice, so freeing a million rows never holds the GIL for long.

    Only call this with lists nothing else will read again.
    """
    for items in lists:
        if not isinstance(items, list):
            continue  # a column store or an array: a few big buffers, freed at once
        while items:
            del items[-_RELEASE_SLICE:]
