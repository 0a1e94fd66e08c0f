"""Wheel-safe controls (ui.wheel_guard): a wheel over a setting that does not have the focus
changes nothing; the panel around it scrolls instead; a focused setting still takes it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollArea,
    QScrollBar,
    QWidget,
)

from matchlens.core.paths import sample_dataset
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from matchlens.ui.wheel_guard import GUARDED
from tests.ui.batch_support import load
from tests.ui.conftest import wait_done


def wheel(widget: QWidget, steps: int) -> None:
    """`steps` notches of a real mouse wheel over the middle of `widget` (+ up, - down)."""
    middle = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(middle, QPointF(widget.mapToGlobal(middle.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def controls(root: QWidget) -> list[QWidget]:
    return [w for w in root.findChildren(QWidget)
            if isinstance(w, GUARDED) and not isinstance(w, QScrollBar)]


def value_of(widget: QWidget) -> object:
    if isinstance(widget, QComboBox):
        return widget.currentIndex(), widget.currentText()
    if isinstance(widget, QAbstractSpinBox):
        return widget.text()
    assert isinstance(widget, QAbstractSlider)
    return widget.value()


@pytest.fixture
def window(qtbot):
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    wait_done(qtbot, win.compare_tab)
    yield win
    win.shutdown()


def test_no_wheel_changes_an_unfocused_setting_anywhere_in_the_window(qtbot, window):
    batch = window.batch_tab
    load(qtbot, batch, sample_dataset())
    window.setFocus()
    found = controls(window)
    # the panels' thresholds and normalise boxes, the mapping's column boxes, the Show box
    assert sum(isinstance(w, QComboBox) for w in found) >= 5
    assert sum(isinstance(w, QAbstractSpinBox) for w in found) >= 5
    before_config = window.config.config
    before = [value_of(w) for w in found]
    for widget in found:
        assert not widget.hasFocus()
        for steps in (3, -3, -3):
            wheel(widget, steps)
    assert [value_of(w) for w in found] == before
    assert window.config.config == before_config
    assert not window.config.undo_stack.canUndo()


def test_a_wheel_over_a_panel_setting_scrolls_the_panel_column(qtbot, window):
    areas = [a for a in window.compare_tab.findChildren(QScrollArea)
             if a.verticalScrollBar().maximum() > 0 and controls(a.widget())]
    assert areas, "at 1280x720 the score panels overflow their column"
    area = areas[0]
    bar = area.verticalScrollBar()
    bar.setValue(0)
    box = next(w for w in controls(area.widget()) if w.isVisible())
    wheel(box, -2)  # down
    assert bar.value() > 0


def test_a_focused_setting_still_takes_the_wheel(qtbot, window):
    spin = next(w for w in controls(window.compare_tab)
                if isinstance(w, QAbstractSpinBox) and w.isVisible() and w.isEnabled())
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    before = spin.text()
    wheel(spin, -1 if spin.text() != spin.specialValueText() else 1)
    assert spin.text() != before
    window.config.undo_stack.undo()
