"""A message above the tabs that stays until the user dismisses it (the status bar moves on)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


class NoticeBar(QFrame):
    """One sentence and a Dismiss button; hidden while there is nothing to say."""

    sig_dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.ToolTipBase)  # the system's "notice" colour
        self.setForegroundRole(QPalette.ColorRole.ToolTipText)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setForegroundRole(self.foregroundRole())
        row.addWidget(self.label, 1)
        self.dismiss_button = QPushButton("&Dismiss", self)
        self.dismiss_button.setToolTip("Hide this message")
        self.dismiss_button.clicked.connect(self.dismiss)
        row.addWidget(self.dismiss_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_notice(self, text: str) -> None:
        """Show `text` (already masked by the caller) until dismissed; a second notice is added
        below the first rather than replacing it."""
        current = self.text()
        self.label.setText(f"{current}\n{text}" if current and text not in current else text)
        self.show()

    def text(self) -> str:
        return "" if self.isHidden() else self.label.text()

    def dismiss(self) -> None:
        self.label.clear()
        self.hide()
        self.sig_dismissed.emit()
