"""The compare tab's second bar, shown while a dataset row is open there: the row's buttons
(stepping through rows, labelling it — the window adds them), its several references, and what
the row is ("row 2 of 200 (id qa-002) · output_a · fail · human: fail"), elided to the room
left and whole on hover; for a run compared with a baseline, what changed in the row since then
("regressed on chrF", core's change label, red when regressed, green when improved).

A bar of its own because one toolbar holding the texts' controls and the row's needed ~2100 px:
at 1280 px Qt put the row and label buttons in its » overflow menu, out of sight.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QColor, QPainter, QPaintEvent
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolBar, QWidget

from matchlens.core.scoring.row_change import RowChange
from matchlens.ui.compare.references_bar import ReferenceStepper

_MIN_TEXT_PX = 120  # the description gives way down to this much, then the bar overflows


class ElidedLabel(QLabel):
    """One line that takes the room it is given: the text is elided at the right end when it
    does not fit, and the whole text is the tooltip. `text()` is always the whole text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        super().setText(text)
        # A tooltip is rich text when Qt guesses so: an id like "<b>x</b>" from the dataset
        # would show as a bold x. Such a text goes as escaped HTML; any other as it is.
        self.setToolTip(QtGui.convertFromPlainText(text) if QtGui.mightBeRichText(text)
                        else text)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        # Asks for little: the toolbar then gives this label the room its buttons leave.
        return self.minimumSizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        full = super().minimumSizeHint()
        return QSize(min(full.width(), _MIN_TEXT_PX), full.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        room = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                              room.width())
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(room, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         shown)

    def shown_text(self) -> str:
        """The text as drawn now (elided when the room is short)."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())


class RowBar(QToolBar):
    """Buttons first (they stay where the hand expects them), then the references and the
    description, which gives way when the window is narrow."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("row_bar")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self._end_of_buttons = self.addSeparator()
        self._groups = 0
        self.references = ReferenceStepper(self)
        self.references_action = self.addWidget(self.references)
        self.references_action.setVisible(False)
        self.change_label = QLabel(self)
        self.change_label.setObjectName("row_change")
        self.change_action = self.addWidget(self.change_label)
        self.change_action.setVisible(False)
        self.context_label = ElidedLabel(self)
        self.context_label.setObjectName("row_description")
        self.addWidget(self.context_label)
        self.setVisible(False)  # until the window opens a dataset row here

    def add_buttons(self, buttons: list[tuple[str, Callable[[], object], str]]) -> list[QAction]:
        """Add a group of (text, slot, tooltip) buttons after the ones already there."""
        if self._groups:
            self.insertSeparator(self._end_of_buttons)
        self._groups += 1
        actions = []
        for text, slot, tip in buttons:
            action = QAction(text, self)
            action.setToolTip(tip)
            action.triggered.connect(lambda _checked=False, run=slot: run())
            self.insertAction(self._end_of_buttons, action)
            actions.append(action)
        return actions

    def show_change(self, change: RowChange | None, metric_label: str = "") -> None:
        """The row's change since the baseline on `metric_label` (None: no baseline, hidden)."""
        self.change_action.setVisible(change is not None)
        if change is None:
            self.change_label.setText("")
            return
        self.change_label.setText(f" {change.metric} on {metric_label} ")
        colour = {"regressed": QColor.fromHslF(0.0, 0.75, 0.45),
                  "improved": QColor.fromHslF(130 / 360, 0.7, 0.35)}.get(change.metric)
        # (a palette set on a label inside a toolbar is overridden by the style: a style sheet)
        self.change_label.setStyleSheet(
            f"color: {colour.name()}; font-weight: bold;" if colour is not None else "")

        def score(value: float) -> str:
            return "no score" if value != value else f"{value:g}"  # NaN: no score

        self.change_label.setToolTip(
            f"Against the baseline run, under the thresholds now: {metric_label} "
            f"{score(change.before)} then, {score(change.after)} now ({change.metric}); the row "
            f"over every thresholded metric: {change.row}. The Runs view's metric chooses "
            "which metric this is.")
