"""Stepping through a row's several references (`--expected-any` / the batch tab's "Several
references"): the compare view opens the one that won and shows the others on demand."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget


class ReferenceStepper(QWidget):
    """Shows 'reference 2 of 3 (best for Exact match) ◀ ▶'; its toolbar action hides it."""

    sig_reference = Signal(str)  # the reference text to show as expected

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.references: list[str] = []
        self.current = 0
        self._winner = 0
        self._why = ""
        self.label = QLabel(self)
        self.previous = QToolButton(self)
        self.previous.setText("◀")
        self.previous.setToolTip("Compare with the previous reference of this row")
        self.next = QToolButton(self)
        self.next.setText("▶")
        self.next.setToolTip("Compare with the next reference of this row")
        self.previous.clicked.connect(lambda: self.step(-1))
        self.next.clicked.connect(lambda: self.step(1))
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 0, 6, 0)
        row.addWidget(self.label)
        row.addWidget(self.previous)
        row.addWidget(self.next)

    def set_references(self, references: list[str], current: int, why: str = "") -> None:
        self.references = list(references)
        self.current = self._winner = current
        self._why = why
        self._show()

    def clear(self) -> None:
        self.references = []
        self._show()

    def step(self, delta: int) -> None:
        if len(self.references) < 2:
            return
        self.current = (self.current + delta) % len(self.references)
        self._show()
        self.sig_reference.emit(self.references[self.current])

    def _show(self) -> None:
        several = len(self.references) > 1
        self.previous.setEnabled(several)
        self.next.setEnabled(several)
        if not self.references:
            return
        note = f" ({self._why})" if self.current == self._winner and self._why else ""
        self.label.setText(f"reference {self.current + 1} of {len(self.references)}{note}")
