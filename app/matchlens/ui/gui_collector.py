"""`install`: Python's cyclic garbage collector, run only on the GUI thread.

CPython runs a collection in whichever thread happens to allocate when a generation's count
passes its threshold. A collection frees every unreachable cycle it finds, and freeing a
PySide6 wrapper that owns its QObject destroys the QObject right there. A closed dialog, a
finished worker's signals or a test's window that sit in a cycle were so destroyed in a
background thread (a file being read in the Batch tab), and the process died with a
segmentation fault: Qt objects may only be destroyed in the thread they live in.

So in the window, automatic collection is off, and a timer on the GUI thread runs the same
generational collections CPython would (a generation is collected when its count passes its
threshold; an older one when enough younger collections have happened). Background work may
still allocate, free by reference counting and call `gc.freeze()`, none of which runs a
finalizer; it never calls `gc.collect()` (stored_table and worker.py leave theirs to the GUI
thread). Code that pauses the collector (`was = gc.isenabled(); gc.disable() ... if was:
gc.enable()`) sees it off and leaves it off.

This is pyqtgraph's `GarbageCollector` (same idea, same credit: Erik Janssens), kept here so
the window does not import pyqtgraph before its first paint, and ticking five times a second
so a closed window's memory goes back as soon as it would have without it.
"""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QCoreApplication, QObject, QTimer

INTERVAL_MS = 200

_installed: GuiCollector | None = None


class GuiCollector(QObject):
    """Owns the collector's schedule while it exists: `tick` does what CPython's automatic
    collection would have done since the last tick, on the thread the collector lives in."""

    def __init__(self, parent: QObject, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.tick)
        self._timer.start()

    def tick(self) -> int | None:
        """Collect the oldest generation whose count passed its threshold (younger ones are
        collected with it), as CPython's allocator would; the generation collected, or None.
        Only on the thread this collector lives in: elsewhere it does nothing."""
        if threading.current_thread() is not threading.main_thread():
            return None
        if gc.isenabled():  # someone turned automatic collection back on: off again
            gc.disable()
        counts = gc.get_count()
        if counts[0] <= self.thresholds[0]:
            return None
        generation = 0
        for older in (1, 2):
            if counts[older] > self.thresholds[older]:
                generation = older
        gc.collect(generation)
        return generation


def install(app: QCoreApplication | None = None) -> GuiCollector:
    """Run collections only on the GUI thread from now on (idempotent); call on that thread,
    after the QApplication exists and before the first background thread starts."""
    global _installed
    if _installed is not None:
        return _installed
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("the garbage collector's timer must live on the GUI thread")
    app = app or QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install the GUI-thread collector after creating the QApplication")
    _installed = GuiCollector(app)
    return _installed


def installed() -> GuiCollector | None:
    """The collector `install` made, if any."""
    return _installed
