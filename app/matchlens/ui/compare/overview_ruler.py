"""The overview ruler beside an editor's scroll bar: every difference a mark in its colour.

The marks come from `core.diff.overview` (the highlight's own rows, by line); this widget paints
them scaled to its height, outlines the region the editor shows, and scrolls the editor to the
line under a click (the scroll lock brings the other side along).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QTextCursor,
)
from PySide6.QtWidgets import QWidget

from matchlens.core.diff.overview import (
    STYLE_DELETE,
    STYLE_INSERT,
    STYLE_MOVED,
    STYLE_SUBDUED,
    STYLE_SUBSTITUTE,
    Marks,
    line_of_pixel,
    pixel_marks,
    ruler_marks,
    same_lines,
)
from matchlens.core.diff.span_table import SpanTable
from matchlens.ui.compare.editors import DiffEditor
from matchlens.ui.palette import diff_colours

RULER_WIDTH = 12


class OverviewRuler(QWidget):
    """A strip of difference marks for one editor (`side`)."""

    def __init__(self, editor: DiffEditor, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.side = side
        self.marks: Marks | None = None
        self._pixels: tuple[int, list[tuple[int, int, int]]] | None = None
        self._pixmap: tuple[tuple, QPixmap] | None = None
        self._painted_outline: tuple[int, int, int, int] | None = None
        self.setFixedWidth(RULER_WIDTH)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Overview: every difference in the whole text (click to go there)")
        self.setAccessibleName(f"{side.capitalize()} overview ruler")
        editor.verticalScrollBar().valueChanged.connect(self.update)
        editor.sig_viewport_changed.connect(self.update)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(RULER_WIDTH, 100)

    def set_table(self, table: SpanTable | None) -> None:
        text = self.editor.text()
        marks_before = self.marks
        length = None if table is None else table.lengths[0 if self.side == "expected" else 1]
        if table is None or len(text) != length:
            self.marks = None  # the text moved on: the next table brings marks that fit
        else:
            self.marks = ruler_marks(table, self.side, text)
        if self.marks is marks_before:
            return
        # A keystroke's table usually puts the same rectangles on the same pixels as the last
        # one: then the cached pixmap stays, and only a moved outline needs a repaint.
        if same_lines(marks_before, self.marks) and self._pixels is not None:
            changed = False  # the same lines in the same styles: the same pixels
        else:
            pixels_before, self._pixels = self._pixels, None
            changed = pixels_before is None or self.pixel_marks() != pixels_before[1]
        if changed:
            self._pixmap = None
            self.update()
        elif self._outline() != self._painted_outline:
            self.update()

    def pixel_marks(self) -> list[tuple[int, int, int]]:
        """(y, height, style) of what is painted, at the current height."""
        if self.marks is None:
            return []
        if self._pixels is None or self._pixels[0] != self.height():
            self._pixels = (self.height(), pixel_marks(self.marks, self.height()))
        return self._pixels[1]

    def visible_lines(self) -> tuple[int, int]:
        """The first line the editor shows and one past the last (the outlined region).

        The lines of the viewport's top and bottom-right corners, as `visible_positions`
        finds them, with one hit test instead of its three and no block searches: asked on
        every keystroke's table and every paint."""
        editor = self.editor
        viewport = editor.viewport()
        first = editor.firstVisibleBlock().blockNumber()
        last = editor.cursorForPosition(QPoint(viewport.width(), viewport.height())).blockNumber()
        return first, max(first, last) + 1

    def _marks_pixmap(self) -> QPixmap:
        """The background and the marks, painted once per table, size and palette (the
        editor repaints the ruler on every scroll and keystroke; only the outline moves)."""
        key = (self.width(), self.height(), self.palette().cacheKey(),
               self.devicePixelRatioF())
        if self._pixmap is not None and self._pixmap[0] == key:
            return self._pixmap[1]
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        palette = self.palette()
        pixmap.fill(palette.base().color().darker(104))
        painter = QPainter(pixmap)
        c = diff_colours(palette)
        colours = {STYLE_DELETE: c.delete_line, STYLE_INSERT: c.insert_line,
                   STYLE_SUBSTITUTE: c.substitute_line, STYLE_MOVED: c.moved_line,
                   STYLE_SUBDUED: c.ignored_text}
        width = self.width()
        for y, h, style in self.pixel_marks():
            painter.fillRect(2, y, width - 4, h, colours[style])
        painter.end()
        self._pixmap = (key, pixmap)
        return pixmap

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        palette = self.palette()
        painter.drawPixmap(0, 0, self._marks_pixmap())
        x, y, w, h = self._painted_outline = self._outline()
        outline = QColor(palette.text().color())
        outline.setAlphaF(0.55)
        painter.setPen(QPen(outline, 1))
        painter.drawRect(x, y, w, h)
        painter.end()

    def _outline(self) -> tuple[int, int, int, int]:
        """The rectangle (x, y, width, height) outlining the lines the editor shows."""
        top, bottom = self.visible_lines()
        scale = self.height() / max(1, self.editor.blockCount())
        return (0, int(top * scale), self.width() - 1, max(3, int((bottom - top) * scale) - 1))

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() != Qt.MouseButton.LeftButton:
            return
        self.go_to_pixel(event.position().y())

    def go_to_pixel(self, y: float) -> None:
        """Centre the editor on the line a click at `y` points at."""
        line = line_of_pixel(y, self.height(), max(1, self.editor.blockCount()))
        block = self.editor.document().findBlockByNumber(line)
        cursor = QTextCursor(block)
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()
