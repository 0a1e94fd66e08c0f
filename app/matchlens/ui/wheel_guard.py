"""Wheel-safe controls: a wheel over a combo box, spin box or slider that does not have the
keyboard focus scrolls the panel around it instead of changing the setting.

Qt's combo boxes take the focus from the wheel (`Qt.WheelFocus`) and its spin boxes and sliders
take wheel events without focus, so scrolling the score-panel column with the wheel used to land
on a *normalise* box or a threshold box and change a saved setting. One application-wide event
filter covers every such control, the ones made later (a panel added for a new metric, a dialog)
included: it gives them `Qt.StrongFocus` as they are polished (click or Tab to focus, never the
wheel), and while one is not focused it hands the wheel to the nearest scroll area's scroll bar.
A focused control still takes the wheel, as a user who clicked into it expects.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QWidget,
)

GUARDED = (QComboBox, QAbstractSpinBox, QAbstractSlider)


def guarded_control(widget: QObject) -> QWidget | None:
    """The setting control `widget` is or belongs to (a spin box's line edit, an editable combo
    box's line edit), or None: scroll bars are no setting, they scroll."""
    for candidate in (widget, widget.parent() if isinstance(widget, QWidget) else None):
        if isinstance(candidate, QScrollBar):
            return None
        if isinstance(candidate, GUARDED):
            return candidate
    return None


def scroll_bar_for(control: QWidget, event: QWheelEvent) -> QScrollBar | None:
    """The scroll bar a wheel over `control` should move: the nearest scroll area around it,
    vertical unless the wheel turned mostly sideways."""
    delta = event.angleDelta()
    sideways = abs(delta.x()) > abs(delta.y())
    parent = control.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            bar = parent.horizontalScrollBar() if sideways else parent.verticalScrollBar()
            if bar.isVisible() or bar.maximum() > bar.minimum():
                return bar
        parent = parent.parentWidget()
    return None


class WheelGuard(QObject):
    """The event filter; install it once with `install_wheel_guard`."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind == QEvent.Type.Polish and isinstance(watched, GUARDED):
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            return False
        if kind != QEvent.Type.Wheel:
            return False
        control = guarded_control(watched)
        if control is None or control.hasFocus():
            return False
        bar = scroll_bar_for(control, event)
        if bar is not None:
            QApplication.sendEvent(bar, event)
        return True  # the setting never sees it


def install_wheel_guard(app: QApplication | None = None) -> WheelGuard | None:
    """Install the guard on the application once (later calls return the same guard)."""
    app = app or QApplication.instance()
    if app is None:
        return None
    guard = app.findChild(WheelGuard, "matchlens-wheel-guard")
    if guard is None:
        guard = WheelGuard(app)
        guard.setObjectName("matchlens-wheel-guard")
        app.installEventFilter(guard)
    # controls made before the guard (polished already) get their focus policy now
    for widget in app.allWidgets():
        if isinstance(widget, GUARDED) and widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return guard
