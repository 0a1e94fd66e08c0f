"""The main window's size and place: never larger than the screen it opens on, and a restored
geometry only when it is still on a screen (a laptop unplugged from its monitor)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

PREFERRED = QSize(1440, 900)
_VISIBLE_PART = 0.5  # a restored window at least half on one screen stays where it was


def available(window: QWidget) -> QRect:
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_to_screen(window: QWidget, preferred: QSize = PREFERRED) -> None:
    """The preferred size, or the screen's available area if that is smaller, centred on it."""
    area = available(window)
    room = area.size() - _frame_extra(window)  # the title bar and borders count too
    size = preferred.boundedTo(room).expandedTo(window.minimumSizeHint().boundedTo(room))
    window.resize(size)
    rect = QRect(area.topLeft(), size + _frame_extra(window))
    rect.moveCenter(area.center())
    window.move(rect.topLeft())  # move() places the frame's corner


def _frame_extra(window: QWidget) -> QSize:
    """What the window manager adds around the client area (known once the window exists)."""
    return window.frameGeometry().size() - window.geometry().size()


def on_a_screen(rect: QRect) -> bool:
    """Whether at least half of `rect` lies on one screen's available area."""
    area = rect.width() * rect.height()
    if area <= 0:
        return False
    for screen in QGuiApplication.screens():
        part = screen.availableGeometry().intersected(rect)
        if part.width() * part.height() >= _VISIBLE_PART * area:
            return True
    return False


def restore_or_fit(window: QWidget, geometry: object) -> None:
    """restoreGeometry when what was saved is on a screen today; else fit; never larger than
    the available area either way."""
    restored = geometry is not None and window.restoreGeometry(geometry)
    if not restored or not on_a_screen(window.frameGeometry()):
        fit_to_screen(window)
        return
    keep_on_screen(window)


def keep_on_screen(window: QWidget) -> None:
    """Shrink and move the window so its frame lies within the available area (call it again
    once shown: only then does the window manager say how wide the frame is)."""
    area = available(window)
    frame = window.frameGeometry()
    if frame.width() > area.width() or frame.height() > area.height():
        window.resize(window.size().boundedTo(area.size() - _frame_extra(window)))
    frame = window.frameGeometry()
    if not area.contains(frame):
        window.move(max(area.left(), min(frame.x(), area.right() + 1 - frame.width())),
                    max(area.top(), min(frame.y(), area.bottom() + 1 - frame.height())))
