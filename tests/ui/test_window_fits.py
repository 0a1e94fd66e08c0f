"""Every control of both tabs is on screen at 1280x720 and at 1920x1080: none cut off by the
window's edge or by a parent, none pushed into a toolbar's » overflow menu.

The worst case of the compare tab is set up for real: a dataset row open (row stepping and the
✓ / ✗ / Next unlabelled buttons shown), a row with several references, and the busy indicator
of a long computation shown.
"""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QTabBar,
    QTabWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

from matchlens.cli.parser import parse_args
from matchlens.core.paths import sample_dataset
from matchlens.ui import app as app_module
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import wait_idle

CONTROLS = (QAbstractButton, QComboBox, QLineEdit, QAbstractSpinBox, QAbstractSlider, QTabBar)


def _name(widget: QWidget) -> str:
    text = widget.text() if hasattr(widget, "text") and callable(widget.text) else ""
    return f"{type(widget).__name__} {text or widget.objectName() or widget.toolTip()[:40]!r}"


def _scrolled(widget: QWidget, window: QWidget) -> bool:
    """Inside a scroll area's viewport: partly out of sight is what scrolling is for."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        grand = parent.parentWidget()
        if isinstance(grand, QAbstractScrollArea) and grand.viewport() is parent:
            return True
        parent = grand
    return False


def _shown_part(widget: QWidget, window: QWidget) -> QRect:
    """The part of `widget` (window coordinates) that its parents and the window leave shown."""
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None:
        top_left = parent.mapTo(window, QPoint(0, 0)) if parent is not window else QPoint(0, 0)
        rect = rect.intersected(QRect(top_left, parent.size()))
        if parent is window:
            break
        parent = parent.parentWidget()
    return rect


def clipped_controls(window: QWidget) -> list[str]:
    """What a person could not see or reach on the window as it is shown now."""
    problems = []
    for bar in window.findChildren(QToolBar):
        if not bar.isVisible():
            continue
        extension = bar.findChild(QToolButton, "qt_toolbar_ext_button")
        if extension is not None and extension.isVisible():
            problems.append(f"toolbar {bar.objectName() or bar.windowTitle()!r} overflows "
                            "into its » menu")
        for action in bar.actions():
            if not action.isVisible() or action.isSeparator():
                continue
            shown = bar.widgetForAction(action)
            if shown is None or not shown.isVisible():
                problems.append(f"toolbar entry {action.text() or shown!r} is not shown")
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisible():
            continue
        if widget.objectName() == "qt_toolbar_ext_button" or _scrolled(widget, window):
            continue
        if _shown_part(widget, window).size() != widget.size():
            problems.append(f"{_name(widget)} is cut off: {widget.size().toTuple()} shown as "
                            f"{_shown_part(widget, window).size().toTuple()}")
    return problems


def every_page(window: MainWindow):
    """Each top-level tab, and on it each page of its own tab widgets (the batch tab's
    Distributions / Calibration / Variants)."""
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        page = window.tabs.widget(index)
        inner = [t for t in page.findChildren(QTabWidget) if t.isVisible()]
        yield window.tabs.tabText(index)
        for tabs in inner:
            for sub in range(tabs.count()):
                tabs.setCurrentIndex(sub)
                yield f"{window.tabs.tabText(index)} / {tabs.tabText(sub)}"


# promptfoo-style variant names and run-scoped ids: the row's description is long.
LONG_VARIANT = "openai:gpt-4o-mini-2024-07-18 · answer prompt v3 (few-shot, temperature 0)"


def long_named_sample(path):
    """The shipped sample with a long variant name and long ids."""
    with sample_dataset().open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header = [LONG_VARIANT if name == "output_a" else name for name in rows[0]]
    where = header.index("id")
    for row in rows[1:]:
        row[where] = f"eval-run-2026-11-24T06:55/{row[where]}"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows[1:]])
    return path


@pytest.fixture
def window(qtbot, tmp_path):
    data = long_named_sample(tmp_path / "qa_extraction_sample.csv")
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    win.fit_screen = False  # the sizes under test, whatever the offscreen screen's size
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.batch_tab.sig_finished, timeout=30_000):
        win.load_dataset(data, expected="expected", actuals=[LONG_VARIANT, "output_b"],
                         label="label")
    wait_idle(qtbot, win.batch_tab)
    yield win
    win.shutdown()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_control_is_on_screen(qtbot, window, size) -> None:
    window.resize(*size)
    window.open_batch_row(1)  # the compare tab on a dataset row: the row and label buttons
    compare = window.compare_tab
    # The widest the compare tab's bars get: a row with several references, and a long
    # computation under way.
    compare.set_references(["Canberra", "Canberra, ACT", "the city of Canberra"], 1,
                           "best for Exact match")
    compare.busy_indicator.setVisible(True)
    labels = [a.text() for a in compare.row_bar.actions() if a.isVisible()]
    assert {"◀ Row", "Row ▶", "Next failing ▶", "✓ Pass", "✗ Fail",
            "Next unlabelled ▶"} <= set(labels)
    problems = {}
    for page in every_page(window):
        qtbot.wait(10)  # layouts settle on the next turn of the event loop
        if found := clipped_controls(window):
            problems[page] = found
    assert problems == {}
    # The whole row description stays one hover away when the bar has to elide it.
    description = compare.context_label
    assert description.toolTip() == description.text()
    assert LONG_VARIANT in description.text() and "human: fail" in description.text()
    if size[0] == 1280:
        assert description.shown_text().endswith("…")


def test_a_screenshot_at_1280x720(qtbot, tmp_path, capsys) -> None:
    """What the lead looks at: `matchlens --screenshot PNG --screenshot-size 1280x720`."""
    png = tmp_path / "shot.png"
    args = parse_args(["--screenshot", str(png), "--screenshot-size", "1280x720"])
    assert app_module.run_app(args) == 0
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1280, 720)
    assert parse_args(["batch", "d.csv", "--screenshot-size", "wide"]) == 2
    assert "--screenshot-size: a size as WIDTHxHEIGHT in pixels (1280x720), not 'wide'" in \
        capsys.readouterr().err
