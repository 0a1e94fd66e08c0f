"""The line-number gutter at the left of a compare editor: the line numbers (the caret's line
in the text colour), a coloured bar beside each line with a difference (set by the highlight's
decorator), and "⋯" on the host line of a collapsed stretch.

It follows the editor: its width grows with the number of digits, it scrolls with the text and
repaints the rows the editor repaints.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QWidget

from matchlens.ui.palette import blend


class LineGutter(QWidget):
    """The gutter of `editor` (a DiffEditor, which places it in its left viewport margin)."""

    def __init__(self, editor: Any) -> None:
        super().__init__(editor)
        self.editor = editor
        self.marks: dict[int, QColor] = {}  # block number -> mark colour
        editor.blockCountChanged.connect(self.update_width)
        editor.updateRequest.connect(self._on_update_request)

    def set_marks(self, marks: dict[int, QColor]) -> None:
        self.marks = marks
        self.update()

    def width_needed(self) -> int:
        digits = len(str(max(1, self.editor.blockCount())))
        return 14 + self.editor.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def update_width(self, _count: int = 0) -> None:
        self.editor.setViewportMargins(self.width_needed(), 0, 0, 0)

    def place(self) -> None:
        """Along the editor's left edge (after a resize)."""
        rect = self.editor.contentsRect()
        self.setGeometry(QRect(rect.left(), rect.top(), self.width_needed(), rect.height()))

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self.scroll(0, dy)
        else:
            self.update(0, rect.y(), self.width(), rect.height())
        if rect.contains(self.editor.viewport().rect()):
            self.update_width()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(self.width_needed(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        editor = self.editor
        painter = QPainter(self)
        palette = editor.palette()
        base = palette.color(QPalette.ColorRole.Base)
        painter.fillRect(event.rect(), blend(base, palette.color(QPalette.ColorRole.Window), 0.7))
        painter.setFont(editor.font())
        number_colour = palette.color(QPalette.ColorRole.PlaceholderText)
        current = editor.textCursor().blockNumber()
        block = editor.firstVisibleBlock()
        top = round(editor.blockBoundingGeometry(block).translated(editor.contentOffset()).top())
        height = editor.fontMetrics().height()
        width = self.width()
        collapser = editor.collapser
        while block.isValid() and top <= event.rect().bottom():
            bottom = top + round(editor.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                number = block.blockNumber()
                mark = self.marks.get(number)
                if mark is not None:
                    painter.fillRect(0, top, 3, bottom - top, mark)
                painter.setPen(palette.color(QPalette.ColorRole.Text) if number == current
                               else number_colour)
                folded = collapser is not None and collapser.is_host(number)
                painter.drawText(0, top, width - 6, height, Qt.AlignmentFlag.AlignRight,
                                 "⋯" if folded else str(number + 1))
            block = block.next()
            top = bottom
        painter.end()
