"""The inline view: one read-only pane with deletions and insertions interleaved.

A toggle away from side by side (Inline, Ctrl+Shift+I): it shows `core.diff.inline`'s layout of
the same SpanTable the two editors draw, so the pieces, the moves and "difference 3 of 12" are
the same; F7 / Shift+F7 move through it. Deleted text is struck through on the deletion colour,
inserted text on the insertion colour, moved text violet (struck through at its old place).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QTextEdit, QVBoxLayout, QWidget

from matchlens.core.diff.inline import (
    STYLE_DELETED,
    STYLE_INSERTED,
    STYLE_MOVED_FROM,
    STYLE_MOVED_TO,
    InlineLayout,
    inline_layout,
)
from matchlens.core.diff.span_table import SpanTable, astral_offsets
from matchlens.ui.compare.collapse import FoldingTextEdit
from matchlens.ui.compare.decorations import to_code_points, to_utf16
from matchlens.ui.palette import diff_colours

_MAX_SELECTIONS = 20_000


DEFAULT_TITLE = "Inline"


class InlinePane(QWidget):
    def __init__(self, parent: QWidget | None = None, title: str = DEFAULT_TITLE) -> None:
        super().__init__(parent)
        self.header = QLabel(self)
        self.set_title(title)
        self.header.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.view = FoldingTextEdit(self)
        self.view.setAccessibleName("Inline difference")
        self.layout_: InlineLayout | None = None
        self._astral = astral_offsets("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.header)
        layout.addWidget(self.view, 1)

    def set_title(self, title: str) -> None:
        """What the pane lays out ("Reference → this output" beside a run's baseline)."""
        self.title = title
        self.header.setText(f"<b>{title}</b> · deleted text struck through, inserted text "
                            "after it")

    def show_table(self, table: SpanTable | None, expected: str, actual: str) -> None:
        """Lay the two texts out as one (nothing until the table fits the texts)."""
        if table is None or table.lengths != (len(expected), len(actual)):
            self.layout_ = None
            self.view.setPlainText("")
            return
        self.layout_ = inline_layout(table, expected, actual)
        self._astral = astral_offsets(self.layout_.text)
        self.view.setPlainText(self.layout_.text)
        self._paint()

    def _formats(self) -> dict[int, QTextCharFormat]:
        c = diff_colours(self.palette())
        out = {}
        for style, colour, struck in ((STYLE_DELETED, c.delete, True),
                                      (STYLE_INSERTED, c.insert, False),
                                      (STYLE_MOVED_FROM, c.moved, True),
                                      (STYLE_MOVED_TO, c.moved, False)):
            fmt = QTextCharFormat()
            fmt.setBackground(colour)
            fmt.setFontStrikeOut(struck)
            out[style] = fmt
        return out

    def _paint(self) -> None:
        assert self.layout_ is not None
        formats = self._formats()
        doc = self.view.document()
        selections = []
        spans = self.layout_.spans[:_MAX_SELECTIONS]
        starts = to_utf16(spans[:, 0], self._astral)
        ends = to_utf16(spans[:, 1], self._astral)
        for start, end, style in zip(starts.tolist(), ends.tolist(), spans[:, 2].tolist(),
                                     strict=True):
            cursor = QTextCursor(doc)
            cursor.setPosition(int(start))
            cursor.setPosition(int(end), QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = formats[int(style)]
            selections.append(selection)
        self.view.setExtraSelections(selections)

    def painted(self) -> list[tuple[int, int, int]]:
        """(start, end, style) of each painted span, in document positions."""
        back = {f.background().color().name() + str(f.fontStrikeOut()): s
                for s, f in self._formats().items()}
        return [(s.cursor.selectionStart(), s.cursor.selectionEnd(),
                 back[s.format.background().color().name() + str(s.format.fontStrikeOut())])
                for s in self.view.extraSelections()]

    def difference_positions(self) -> list[int]:
        """Where each difference starts in the view (document positions, UTF-16)."""
        if self.layout_ is None:
            return []
        return to_utf16(self.layout_.hunk_starts, self._astral).tolist()

    def top_offset(self) -> int:
        """The inline text's offset (code points) of the character at the view's top left."""
        position = self.view.cursorForPosition(QPoint(0, 0)).position()
        return to_code_points(position, self._astral)

    def scroll_to_offset(self, offset: int) -> None:
        """Scroll so that the line holding inline `offset` is the top one (a folded line: the
        fold's placeholder, or the nearest line shown before it)."""
        position = int(to_utf16(offset, self._astral))
        block = self.view.document().findBlock(position)
        while block.isValid() and not block.isVisible() and block.previous().isValid():
            block = block.previous()
        if not block.isValid():
            return
        line = block.layout().lineForTextPosition(max(0, position - block.position()))
        within = line.lineNumber() if line.isValid() and block.isVisible() else 0
        self.view.verticalScrollBar().setValue(block.firstLineNumber() + within)

    def go_to_difference(self, index: int) -> None:
        if self.layout_ is None or not 0 <= index < len(self.layout_.hunk_starts):
            return
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(int(to_utf16(int(self.layout_.hunk_starts[index]), self._astral)))
        self.view.setTextCursor(cursor)
        self.view.centerCursor()
