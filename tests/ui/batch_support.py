"""Shared helpers of the batch tab tests: a tab fixture body, waiting, a small dataset."""

from __future__ import annotations

import csv
from pathlib import Path

from PySide6.QtCore import QEvent, QObject

from matchlens.ui.batch import BatchTab
from matchlens.ui.config_model import ConfigModel

SAMPLE_COLUMNS = ["id", "question", "expected", "output_a", "output_b", "label"]


class EventCounter(QObject):
    """Counts the events of one type that reach the widgets it is installed on."""

    def __init__(self, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind, self.count = kind, 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == self.kind:
            self.count += 1
        return False


def make_tab(qtbot, config: ConfigModel) -> BatchTab:
    tab = BatchTab(config)
    qtbot.addWidget(tab)
    tab.resize(1300, 850)
    tab.show()
    qtbot.waitExposed(tab)
    return tab


def wait_idle(qtbot, tab: BatchTab, timeout: int = 20_000) -> None:
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=timeout)


def load(qtbot, tab: BatchTab, path: Path, timeout: int = 30_000, **kwargs) -> None:
    """load() and wait for sig_finished and for every worker (sort, comparison) to settle."""
    with qtbot.waitSignal(tab.sig_finished, timeout=timeout):
        tab.load(path, **kwargs)
    wait_idle(qtbot, tab, timeout)


def write_csv(path: Path, rows: list[list[str]], header: list[str] | None = None) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header or SAMPLE_COLUMNS)
        writer.writerows(rows)
    return path


def small_dataset(path: Path) -> Path:
    """Eight rows: exact hits, near misses, an empty actual, two human labels missing."""
    rows = [
        ["r1", "capital of France?", "Paris", "Paris", "Paris", "pass"],
        ["r2", "capital of Australia?", "Canberra", "Sydney", "Canberra", "fail"],
        ["r3", "longest river?", "The Nile", "the nile", "The Nile", "pass"],
        ["r4", "largest ocean?", "Pacific", "Atlantic", "Pacific Ocean", "fail"],
        ["r5", "smallest country?", "Vatican City", "Vatican", "Vatican City", ""],
        ["r6", "highest mountain?", "Everest", "", "Mount Everest", "fail"],
        ["r7", "hottest planet?", "Venus", "Venus", "Mercury", "pass"],
        ["r8", "red planet?", "Mars", "Mars.", "Mars", "maybe"],
    ]
    return write_csv(path, rows)


def _send_mouse(widget, kind: QEvent.Type, pos, buttons) -> None:
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    local = QPointF(pos)
    button = Qt.MouseButton.LeftButton if kind != QEvent.Type.MouseMove else \
        Qt.MouseButton.NoButton
    event = QMouseEvent(kind, local, widget.mapToGlobal(local), button, buttons,
                        Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)


def drag_line(panel, *values: float, release: bool = True) -> None:
    """Drag a histogram's threshold line with real mouse events on its plot: press on the
    line (unless a drag is under way), move through `values` (data units), and let go unless
    `release` is False."""
    import pyqtgraph as pg
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    plot, line = panel.plot, panel.line
    box = plot.getPlotItem().getViewBox()
    y = sum(box.viewRange()[1]) / 2

    def pixel(x: float):
        return plot.mapFromScene(box.mapViewToScene(QPointF(x, y)))

    held = Qt.MouseButton.LeftButton
    viewport = plot.viewport()
    if not line.moving:
        _send_mouse(viewport, QEvent.Type.MouseButtonPress, pixel(line.value()), held)
    # pyqtgraph drops mouse moves closer together than 1/mouseRateLimit s, as from a real hand.
    rate = pg.getConfigOption("mouseRateLimit")
    gap_ms = int(1000 / rate) + 5 if rate > 0 else 0
    for value in values:
        QTest.qWait(gap_ms)
        _send_mouse(viewport, QEvent.Type.MouseMove, pixel(value), held)
        QApplication.processEvents()
    if release:
        _send_mouse(viewport, QEvent.Type.MouseButtonRelease, pixel(values[-1]),
                    Qt.MouseButton.NoButton)
        QApplication.processEvents()
