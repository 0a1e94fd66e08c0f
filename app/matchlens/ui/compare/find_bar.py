"""Ctrl+F in the compare view: find text in the editors on screen (the reference and the
output; with a run's baseline, the baseline output between them).

The search starts in the pane the user last worked in, goes on from the cursor, and continues
in the next pane in their order on screen (then wraps), so Enter walks every match in every
pane, left to right (Shift+Enter: right to left). Esc closes the bar and gives the focus back
to the editor.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QWidget,
)

SIDES = ("expected", "actual")


class FindEdit(QLineEdit):
    """Enter: next; Shift+Enter: previous; Esc: close (routed to the bar)."""

    def __init__(self, bar: FindBar) -> None:
        super().__init__(bar)
        self._bar = bar

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            backward = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self._bar.find(backward=backward)
            return
        if event.key() == Qt.Key.Key_Escape:
            self._bar.close_bar()
            return
        super().keyPressEvent(event)


class FindBar(QWidget):
    def __init__(self, editor: Callable[[str], QPlainTextEdit], last_side: Callable[[], str],
                 parent: QWidget | None = None,
                 names: Callable[[], list[str]] = lambda: list(SIDES)) -> None:
        super().__init__(parent)
        # the editors by name; the side last worked in; the names searched, in screen order
        self._editor, self._last_side, self._names = editor, last_side, names
        self.side = "expected"  # where the last match was; the search goes on from there
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        label = QLabel("&Find:", self)
        self.edit = FindEdit(self)
        self.edit.setPlaceholderText("text in any pane (Enter: next, Shift+Enter: previous)")
        self.edit.setAccessibleName("Find in the compared texts")
        label.setBuddy(self.edit)
        self.case_box = QCheckBox("&Match case", self)
        self.previous_button = QToolButton(self, text="◀", toolTip="Previous match (Shift+Enter)")
        self.next_button = QToolButton(self, text="▶", toolTip="Next match (Enter)")
        self.result = QLabel(self)
        close = QToolButton(self, text="✕", toolTip="Close (Esc)")
        for widget in (label, self.edit, self.previous_button, self.next_button, self.case_box,
                       self.result):
            row.addWidget(widget, 1 if widget is self.edit else 0)
        row.addStretch(0)
        row.addWidget(close)
        self.previous_button.clicked.connect(lambda: self.find(backward=True))
        self.next_button.clicked.connect(lambda: self.find())
        self.edit.textEdited.connect(lambda _t: self.find(from_start_of_match=True))
        close.clicked.connect(self.close_bar)
        self.hide()

    def open_bar(self) -> None:
        """Show the bar with the editor's selection (if any) as the text, and focus it."""
        self.side = self._last_side()
        selected = self._editor(self.side).textCursor().selectedText()
        if selected and "\u2029" not in selected:  # one line only
            self.edit.setText(selected)
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self._editor(self.side).setFocus(Qt.FocusReason.OtherFocusReason)

    def find(self, backward: bool = False, from_start_of_match: bool = False) -> bool:
        """Select the next (previous) match, going on into the other side; False when none."""
        text = self.edit.text()
        if not text:
            self.result.setText("")
            return False
        flags = QTextDocument.FindFlag(0)
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        if self.case_box.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        names = self._names()
        first = self.side if self.side in names else names[0]
        at = names.index(first)
        # from this pane on in screen order (going back: leftwards), round to it again
        order = names[at:] + names[:at]
        if backward:
            order = [first, *reversed(names[:at]), *reversed(names[at + 1:])]
        for i, side in enumerate([*order, first]):  # the first side again: wrap around
            editor = self._editor(side)
            cursor = editor.textCursor()
            if i > 0:  # a side we move into is searched from its start (end, going back)
                cursor.movePosition(QTextCursor.MoveOperation.End if backward
                                    else QTextCursor.MoveOperation.Start)
            elif from_start_of_match and cursor.hasSelection():
                cursor.setPosition(cursor.selectionStart())  # typing extends the same match
            found = editor.document().find(text, cursor, flags)
            if not found.isNull():
                editor.setTextCursor(found)
                editor.ensureCursorVisible()
                self.side = side
                self.result.setText(f"in {side}")
                return True
        self.result.setText("not found")
        return False
