"""Background work for the batch tab: superqt workers behind a small cancellable `Task`.

Each `Task` is a QObject living in the GUI thread; the superqt worker's signals are connected
to its bound methods, so every result arrives in the GUI thread (queued), and a cancelled task
never delivers anything. The work function gets a `cancel` callable it must poll.

Garbage collection matters at a million rows: a table as a reader makes it (a joined one, the
value lists of a JSONPath) is ~3 million Python objects, and one full collection pass over
them holds the GIL for ~0.3–0.5 s — the window would freeze even though the work is on
another thread. So freshly loaded data is moved out of the collector's
reach with `gc.freeze()` (it has no reference cycles; refcounting still frees it), and an old
table is torn down in slices on a worker instead of in one 0.4 s deallocation.
"""

from __future__ import annotations

import gc
import inspect
import sys
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from superqt.utils import FunctionWorker, GeneratorWorker, create_worker

from matchlens.core.datasets import Table
from matchlens.core.datasets.source import gc_paused
from matchlens.core.datasets.stored_table import read_stored, return_arrow_memory

_RELEASE_SLICE = 16_384

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
        self._call = _Call(fn, args, kwargs)
        generator = inspect.isgeneratorfunction(fn)
        self._worker = create_worker(
            self._call.run_generator if generator else self._call.run,
            cancel=self._cancel.is_set, _start_thread=False, _ignore_errors=True,
            _worker_class=GeneratorWorker if generator else FunctionWorker)
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
        self._call.clear()  # the arguments may hold a whole dataset: see _Call
        self._worker = _Finished()
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


class _Call:
    """A task's work function and its arguments, emptied when the task finishes.

    superqt's worker keeps what it is given, and a finished worker can outlive its task: its
    signals' connections make a reference cycle, and a `gc.freeze()` (a file opened or scored
    since) puts that cycle out of the collector's reach for good. What the worker keeps is
    this call, emptied, never the dataset it was given."""

    __slots__ = ("args", "fn", "kwargs")

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def run(self, **extra: Any) -> Any:
        return self.fn(*self.args, **self.kwargs, **extra)

    def run_generator(self, **extra: Any) -> Any:
        return (yield from self.fn(*self.args, **self.kwargs, **extra))

    def clear(self) -> None:
        self.fn, self.args, self.kwargs = _nothing, (), {}


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    return None


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
    store (stored_table.py: texts as UTF-8 buffers, not a str object a cell), read with the
    collector paused. Whoever receives the table on the GUI thread calls `settle_read`."""
    with gc_paused():  # the reader pauses gc itself; kept off here, no pass at its end
        return read_stored(path, encoding=encoding, cancel=cancel, **options)


def settle_read() -> None:
    """On the GUI thread, when a read_dataset result arrives: the young cycles the read left
    (pyarrow's last batches) collected and their memory given back, then what is left moved out
    of the collector's reach with `gc.freeze()` (see the module docstring). Not in the worker:
    a collection there could destroy Qt objects off their thread (ui/gui_collector.py)."""
    return_arrow_memory()
    gc.freeze()


def release(lists: list[list], cancel: Callable[[], bool]) -> None:
    """Empty big lists slice by slice, so freeing a million rows never holds the GIL for long.

    Only call this with lists nothing else will read again.
    """
    for items in lists:
        if not isinstance(items, list):
            continue  # a column store or an array: a few big buffers, freed at once
        while items:
            del items[-_RELEASE_SLICE:]
