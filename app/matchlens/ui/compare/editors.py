"""The text editor of one side: wrap/monospace/whitespace toggles, file drop, a gutter.

Extra selections come in named layers (the diff highlight, the navigation flash), so the
decorators can each replace their own without knowing about the others.

Long lines (a minified JSON, a one-line model answer: one QTextBlock of up to millions of
characters) need care, because Qt does some work per block that is cheap for ordinary lines:

- A block's layout normally throws its shaping data away after every use, so each paint, caret
  move or `cursorForPosition` in a long line re-analyses the whole line (~60 ms at 1M chars).
  Long lines keep it (`QTextLayout.setCacheEnabled`, ~17 bytes a character).
- Qt paints each extra selection by walking every visible row of its block, and measures it
  over every row of the block, so a few dozen highlight spans in one long line cost tens of
  milliseconds a repaint. The diff layer inside long lines is painted by the editor instead
  (`long_spans`), row by row, for the rows on screen only.
- A scroll bar coming or going re-wraps the line: the vertical one is always shown.
- Unwrapped, Qt draws the whole line at every repaint (~50 ms at 1M characters), so lines over
  `LONG_LINE_NO_WRAP` are wrapped anyway, and the status bar says so (`sig_wrap_forced`).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCharFormat,
    QTextOption,
)
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit, QWidget

from matchlens.ui.compare.gutter import LineGutter
from matchlens.ui.compare.ignored_layer import split_ignored
from matchlens.ui.compare.long_spans import paint_block

LONG_LINE = 10_000  # characters in one line (QTextBlock) from which the editor takes over
LONG_LINE_NO_WRAP = 100_000  # longer lines are wrapped even when wrapping is off
_ROW_TAIL = 4_096  # how far past the bottom-right corner an unwrapped bottom row still counts
_LATER_MS = 5  # `set_text(later=True)` waits this long (a timer lets input and paints in first)
# A line of LONG_LINE characters or more; the look-behind anchors it at a line start, so the
# search stays linear however many short lines the text has.
_LONG_RUN = re.compile(f"(?<![^\n\u2029])[^\n\u2029]{{{LONG_LINE},}}")
# Right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, ... and their
# presentation forms. Spans in such text are painted character by character (bidi-correct).
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
                  "\U00010800-\U00010fff\U0001e800-\U0001efff]")


class DiffEditor(QPlainTextEdit):
    """A QPlainTextEdit that knows its side; `text()` is exactly what is scored."""

    sig_file_dropped = Signal(Path)
    sig_viewport_changed = Signal()
    sig_wrap_forced = Signal(int)  # the longest line, when it made the editor wrap anyway

    def __init__(self, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side = side
        self._layers: dict[str, list[QTextEdit.ExtraSelection]] = {}
        # The diff layer's selections inside long lines, painted by `_paint_long_spans`, and
        # their (start, end, format) in ascending order; their cursors follow edits, so the
        # ranges are read again after each change.
        self._painted: list[QTextEdit.ExtraSelection] = []
        self._ranges: list[tuple[int, int, QTextCharFormat]] | None = []
        self._range_ends: list[int] = []
        self._qt_diff: list[QTextEdit.ExtraSelection] = []
        self._rtl: bool | None = False  # has right-to-left characters (None: not known yet)
        self._wrap = True  # what the user asked for; long lines may force wrapping anyway
        self._wrap_forced = False
        self._pending: str | None = None  # text to show on the next event-loop turn
        self._insertion_mark: tuple[int, QColor] | None = None  # (position, colour) of the bar
        self.collapser = None  # collapse.Collapser: folded lines' placeholders, painted last
        self.gutter = LineGutter(self)  # line numbers, difference marks, folds
        self.setAcceptDrops(True)
        self.setTabChangesFocus(False)
        self.setCenterOnScroll(False)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._text: str | None = None  # the document's text until its next change
        self.document().contentsChange.connect(self._on_contents_change)
        self.verticalScrollBar().valueChanged.connect(self.sig_viewport_changed)
        self.horizontalScrollBar().valueChanged.connect(self.sig_viewport_changed)
        self.set_monospace(True)
        self.gutter.update_width()

    # -- content --------------------------------------------------------------------------------
    def set_text(self, text: str, later: bool = False) -> None:
        """Replace the text; with `later`, on the next event-loop turn.

        Qt lays a single-line document out at once, ~0.1 s for a million characters, so two
        such texts set together would stall the window twice as long in one piece. `text()`
        and `char_count()` answer with the new text from the start.
        """
        if later:
            self._pending = text
            QTimer.singleShot(_LATER_MS, self._apply_pending)
            return
        self._pending = None
        self.setPlainText(text)

    def _apply_pending(self) -> None:
        if self._pending is not None:
            text, self._pending = self._pending, None
            self.setPlainText(text)

    def text(self) -> str:
        """The document as scored: raw text, so non-breaking spaces etc. stay what they are.

        (`toPlainText()` turns U+00A0 into a space, which would hide a real difference.)
        """
        if self._pending is not None:
            return self._pending
        if self._text is None:  # asked several times a keystroke (tab, ruler, panels)
            self._text = self.document().toRawText().replace("\u2029", "\n")
        return self._text

    def _on_contents_change(self, position: int, _removed: int, added: int) -> None:
        """Before Qt lays the change out: long lines keep their layout data (see the module)."""
        self._ranges = None  # the painted selections' cursors may have moved
        self._text = None
        doc = self.document()
        starts = {position, position + added}
        whole = position == 0 and added >= doc.characterCount() - 1
        if added > 256:
            text = doc.toRawText()[position:position + added]
            if longest_line(text, "\u2029") >= LONG_LINE:
                starts.update(position + m.start() for m in _LONG_RUN.finditer(text))
            # Only painting in long lines needs to know: found out then (`_bidi`).
            self._rtl = True if self._rtl and not whole else None
        elif self._rtl is False:
            self._rtl = any(_RTL.match(doc.characterAt(p))
                            for p in range(position, position + added))
        longest = 0
        for start in starts:
            block = doc.findBlock(start)
            if block.isValid() and block.length() > LONG_LINE:
                block.layout().setCacheEnabled(True)
                longest = max(longest, block.length() - 1)
        if self._wrap:
            return
        # Set the wrap mode now, before Qt lays the new text out (not once more after).
        forced = self._wrap_forced
        if whole:
            self._wrap_forced = False
        if longest > LONG_LINE_NO_WRAP:
            self._wrap_forced = True
        if self._wrap_forced != forced:
            self._apply_wrap(notify=False)
            QTimer.singleShot(0, self.sig_viewport_changed.emit)
        if self._wrap_forced and not forced:
            self.sig_wrap_forced.emit(longest)

    def char_count(self) -> int:
        if self._pending is not None:
            return len(self._pending.encode("utf-16-le")) // 2
        return self.document().characterCount() - 1

    # -- view options ---------------------------------------------------------------------------
    def set_wrap(self, wrap: bool) -> None:
        self._wrap = wrap
        if not wrap:
            longest = self._longest_line()
            self._wrap_forced = longest > LONG_LINE_NO_WRAP
            if self._wrap_forced:
                self.sig_wrap_forced.emit(longest)
        self._apply_wrap()

    def is_wrap_forced(self) -> bool:
        """Wrapping although the user turned it off, because of a line over LONG_LINE_NO_WRAP."""
        return self._wrap_forced and not self._wrap

    def _apply_wrap(self, notify: bool = True) -> None:
        wrap = self._wrap or self._wrap_forced
        mode = (QPlainTextEdit.LineWrapMode.WidgetWidth if wrap
                else QPlainTextEdit.LineWrapMode.NoWrap)
        if mode != self.lineWrapMode():
            self.setLineWrapMode(mode)
        if notify:
            self.sig_viewport_changed.emit()

    def _longest_line(self) -> int:
        return longest_line(self.document().toRawText(), "\u2029")

    def set_monospace(self, mono: bool) -> None:
        font = (QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont) if mono
                else QFont(QApplication.font()))
        if mono:
            # Monospace text gains nothing from shaping (no kerning; ligatures would even hide
            # which characters differ), and laying out a long line is ~25% faster without it.
            font.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)
        self.setFont(font)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self.gutter.update_width()
        self.sig_viewport_changed.emit()

    def set_whitespace_markers(self, show: bool) -> None:
        option = self.document().defaultTextOption()
        flags = QTextOption.Flag(0)
        if show:
            flags = (QTextOption.Flag.ShowTabsAndSpaces
                     | QTextOption.Flag.ShowLineAndParagraphSeparators)
        option.setFlags(flags)
        self.document().setDefaultTextOption(option)

    # -- selection layers -----------------------------------------------------------------------
    def set_layer(self, name: str, selections: list[QTextEdit.ExtraSelection]) -> None:
        if not selections and not self._layers.get(name):
            return
        self._layers[name] = selections
        if name in ("diff", "ignored"):
            self._split_diff_layer(self._layers.get("diff", []), self._layers.get("ignored", []))
        ordered = [*self._qt_diff, *(s for key in ("link", "json", "flash")
                                     for s in self._layers.get(key, []))]
        self.setExtraSelections(ordered)

    def _split_diff_layer(self, selections: list[QTextEdit.ExtraSelection],
                          ignored: list[QTextEdit.ExtraSelection]) -> None:
        """Spans touching a long line are painted here; Qt paints the others (and the ignored
        runs go the same way: `ignored_layer`)."""
        doc = self.document()
        had_painted = bool(self._painted)
        painted: list[QTextEdit.ExtraSelection] = []
        qt: list[QTextEdit.ExtraSelection] = []
        for selection in selections:
            cursor = selection.cursor
            start, end = cursor.selectionStart(), cursor.selectionEnd()
            if (doc.findBlock(start).length() > LONG_LINE
                    or doc.findBlock(max(start, end - 1)).length() > LONG_LINE):
                painted.append(selection)
            else:
                qt.append(selection)
        qt_ignored, own_ignored = split_ignored(doc, ignored, painted, LONG_LINE)
        painted, qt = painted + own_ignored, qt + qt_ignored  # ignored drawn over the diff
        self._painted, self._ranges, self._qt_diff = painted, None, qt
        if painted or had_painted:
            self.viewport().update()

    def _painted_ranges(self) -> tuple[list[tuple[int, int, QTextCharFormat]], list[int]]:
        if self._ranges is None:
            ranges = sorted(((s.cursor.selectionStart(), s.cursor.selectionEnd(), s.format)
                             for s in self._painted if s.cursor.hasSelection()),
                            key=lambda item: item[0])
            self._ranges, self._range_ends = ranges, [end for _start, end, _fmt in ranges]
        return self._ranges, self._range_ends

    def layer(self, name: str) -> list[QTextEdit.ExtraSelection]:
        return list(self._layers.get(name, []))

    def self_painted_spans(self) -> list[tuple[int, int]]:
        """The diff layer's ranges this editor paints itself (those in long lines)."""
        return [(start, end) for start, end, _fmt in self._painted_ranges()[0]]

    # -- painting the diff layer inside long lines ----------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if self._painted:
            painter = QPainter(self.viewport())
            try:
                self._paint_long_spans(painter, QRectF(event.rect()))
            finally:
                painter.end()
        super().paintEvent(event)  # the text, the other layers and the selection on top
        if self._insertion_mark is not None:
            self._paint_insertion_mark(*self._insertion_mark)
        if self.collapser is not None:
            painter = QPainter(self.viewport())
            try:
                self.collapser.paint(painter)
            finally:
                painter.end()

    def set_insertion_mark(self, position: int | None, colour: QColor | None = None) -> None:
        """A bar between two characters (where the other side has text this one lacks)."""
        self._insertion_mark = None if position is None or colour is None else (position, colour)
        self.viewport().update()

    def insertion_mark(self) -> int | None:
        return None if self._insertion_mark is None else self._insertion_mark[0]

    def _paint_insertion_mark(self, position: int, colour: QColor) -> None:
        cursor = self.textCursor()
        cursor.setPosition(min(position, self.document().characterCount() - 1))
        rect = self.cursorRect(cursor)
        painter = QPainter(self.viewport())
        try:
            painter.fillRect(QRect(rect.x() - 1, rect.y(), 3, rect.height()), colour)
        finally:
            painter.end()

    def _paint_long_spans(self, painter: QPainter, clip: QRectF) -> None:
        painter.setClipRect(clip)
        offset = self.contentOffset()
        metrics = QFontMetricsF(self.font())
        newline = metrics.horizontalAdvance(" ")  # what a selected line break looks like
        # Where Qt itself puts an underline: ceil(offset) + 0.5 below the baseline, within the
        # descent.
        underline = min(math.ceil(metrics.underlinePos()) + 0.5, metrics.descent() - 0.5)
        spans, ends = self._painted_ranges()
        block = self.firstVisibleBlock()
        while block.isValid():
            geometry = self.blockBoundingGeometry(block).translated(offset)
            if geometry.top() > clip.bottom():
                break
            if block.isVisible() and geometry.bottom() >= clip.top():
                paint_block(painter, block, geometry.topLeft(), clip, newline, underline,
                            spans, ends, self._bidi)
            block = block.next()

    def _bidi(self) -> bool:
        if self._rtl is None:
            self._rtl = _RTL.search(self.document().toRawText()) is not None
        return self._rtl

    def set_gutter_marks(self, marks: dict[int, QColor]) -> None:
        self.gutter.set_marks(marks)

    # -- geometry -------------------------------------------------------------------------------
    def visible_positions(self) -> tuple[int, int]:
        """Document positions (UTF-16) of the first and last character on screen.

        From the viewport corners rather than whole blocks, so one enormous wrapped paragraph
        still yields a small range.
        """
        viewport = self.viewport()
        first = self.cursorForPosition(QPoint(0, 0)).position()
        last = self.cursorForPosition(QPoint(viewport.width(), viewport.height())).position()
        # Without wrapping the bottom row runs on past the right edge: include the rest of that
        # row (its gutter mark), but never the whole of a long line.
        bottom = self.cursorForPosition(QPoint(0, viewport.height()))
        block = bottom.block()
        line = block.layout().lineForTextPosition(bottom.position() - block.position())
        if line.isValid():
            row_end = block.position() + line.textStart() + line.textLength()
            last = max(last, min(row_end, last + _ROW_TAIL))
        return first, max(first, last)

    def top_line(self) -> float:
        """The first visible block number, plus how far into it (wrapped lines) the view starts."""
        block = self.firstVisibleBlock()
        value = self.verticalScrollBar().value()
        lines = max(1, block.lineCount())
        offset = max(0, value - block.firstLineNumber())
        return block.blockNumber() + min(offset, lines - 1) / lines

    def scroll_to_line(self, line: float) -> None:
        number = max(0, min(int(line), self.blockCount() - 1))
        block = self.document().findBlockByNumber(number)
        within = round((line - int(line)) * max(1, block.lineCount()))
        self.verticalScrollBar().setValue(block.firstLineNumber() + within)

    # -- gutter (gutter.py) ----------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.gutter.place()
        self.sig_viewport_changed.emit()

    # -- drop a file ----------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if _local_file(event) is not None:
            event.acceptProposedAction()
            return
        super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:  # noqa: N802, ANN001 - Qt override
        if _local_file(event) is not None:
            event.acceptProposedAction()
            return
        super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        path = _local_file(event)
        if path is not None:
            event.acceptProposedAction()
            self.sig_file_dropped.emit(path)
            return
        super().dropEvent(event)


def longest_line(text: str, separator: str = "\n") -> int:
    """Characters in the longest line of `text` (2 ms for a million characters)."""
    return max(map(len, text.split(separator)), default=0)


def _local_file(event: QDragEnterEvent | QDropEvent) -> Path | None:
    mime = event.mimeData()
    if not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            return Path(url.toLocalFile())
    return None
