"""Start-up measurement for benchmarks/bench_frozen_startup.py, which also times the frozen app
(no Python to inject a probe into). Off unless MATCHLENS_STARTUP_PROBE holds the launch time
(seconds since the epoch): then, once the compare tab's expected editor has painted and the event
loop turned once more (the user can type), it prints `STARTUP <seconds since launch>`, then
`BATCH <seconds>` when the Batch tab is built, and quits. Same probe as bench_startup.py."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

ENV = "MATCHLENS_STARTUP_PROBE"


class _FirstPaint(QObject):
    def __init__(self, app: QApplication, start: float) -> None:
        super().__init__()
        self.app, self.start, self.seen = app, start, False

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if (not self.seen and event.type() == QEvent.Type.Paint
                and obj.objectName() == "qt_scrollarea_viewport"
                and getattr(obj.parent(), "side", None) == "expected"):
            self.seen = True
            shown = time.time() - self.start
            QTimer.singleShot(0, lambda: self._report(shown))
        return False

    def _report(self, shown: float) -> None:
        print(f"STARTUP {shown:.4f}", flush=True)
        self._batch_ready()

    def _batch_ready(self) -> None:
        windows = [w for w in self.app.topLevelWidgets() if hasattr(w, "_batch_made")]
        if windows and not windows[0]._batch_made:
            QTimer.singleShot(5, self._batch_ready)
            return
        print(f"BATCH {time.time() - self.start:.4f}", flush=True)
        self.app.exit(0)


def install(app: QApplication) -> None:
    """Watch for the first paint when the benchmark asked for it; otherwise nothing."""
    start = os.environ.pop(ENV, None)  # the child processes must not inherit it
    if start:
        probe = _FirstPaint(app, float(start))
        app.installEventFilter(probe)
        app._matchlens_startup_probe = probe  # type: ignore[attr-defined] - keep it alive
