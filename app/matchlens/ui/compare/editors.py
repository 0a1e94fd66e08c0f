"""The text editor of one side: line-number gutter, wrap/monospace/whitespace toggles, file drop.

Extra selections come in named layers (the diff highlight, the navigation flash), so the
decorators can each replace their own without knowing about the others.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextOption,
)
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit, QWidget

from matchlens.ui.palette import blend


class _Gutter(QWidget):
    def __init__(self, editor: DiffEditor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        self.editor.paint_gutter(event)


class DiffEditor(QPlainTextEdit):
    """A QPlainTextEdit that knows its side; `text()` is exactly what is scored."""

    sig_file_dropped = Signal(Path)
    sig_viewport_changed = Signal()

    def __init__(self, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side = side
        self._layers: dict[str, list[QTextEdit.ExtraSelection]] = {}
        self._marks: dict[int, QColor] = {}  # block number -> gutter mark colour
        self._gutter = _Gutter(self)
        self.setAcceptDrops(True)
        self.setTabChangesFocus(False)
        self.setCenterOnScroll(False)
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._on_update_request)
        self.verticalScrollBar().valueChanged.connect(self.sig_viewport_changed)
        self.horizontalScrollBar().valueChanged.connect(self.sig_viewport_changed)
        self.set_monospace(True)
        self._update_gutter_width()

    # -- content --------------------------------------------------------------------------------
    def text(self) -> str:
        """The document as scored: raw text, so non-breaking spaces etc. stay what they are.

        (`toPlainText()` turns U+00A0 into a space, which would hide a real difference.)
        """
        return self.document().toRawText().replace("\u2029", "\n")

    def char_count(self) -> int:
        return self.document().characterCount() - 1

    # -- view options ---------------------------------------------------------------------------
    def set_wrap(self, wrap: bool) -> None:
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth if wrap
                             else QPlainTextEdit.LineWrapMode.NoWrap)
        self.sig_viewport_changed.emit()

    def set_monospace(self, mono: bool) -> None:
        font = (QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont) if mono
                else QFont(QApplication.font()))
        self.setFont(font)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self._update_gutter_width()
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
        ordered = [s for key in ("diff", "json", "flash") for s in self._layers.get(key, [])]
        self.setExtraSelections(ordered)

    def layer(self, name: str) -> list[QTextEdit.ExtraSelection]:
        return list(self._layers.get(name, []))

    def set_gutter_marks(self, marks: dict[int, QColor]) -> None:
        self._marks = marks
        self._gutter.update()

    # -- geometry -------------------------------------------------------------------------------
    def visible_positions(self) -> tuple[int, int]:
        """Document positions (UTF-16) of the first and last character on screen.

        From the viewport corners rather than whole blocks, so one enormous wrapped paragraph
        still yields a small range.
        """
        viewport = self.viewport()
        first = self.cursorForPosition(QPoint(0, 0)).position()
        last = self.cursorForPosition(QPoint(viewport.width(), viewport.height())).position()
        block = self.cursorForPosition(QPoint(0, viewport.height())).block()
        last = max(last, block.position() + block.length() - 1)
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

    # -- gutter ---------------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 14 + self.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def _update_gutter_width(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())
        if rect.contains(self.viewport().rect()):
            self._update_gutter_width()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        rect = self.contentsRect()
        self._gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter_width(), rect.height()))
        self.sig_viewport_changed.emit()

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        painter.fillRect(event.rect(), blend(base, palette.color(QPalette.ColorRole.Window), 0.7))
        painter.setFont(self.font())
        number_colour = palette.color(QPalette.ColorRole.PlaceholderText)
        current = self.textCursor().blockNumber()
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        width = self._gutter.width()
        while block.isValid() and top <= event.rect().bottom():
            bottom = top + round(self.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                number = block.blockNumber()
                mark = self._marks.get(number)
                if mark is not None:
                    painter.fillRect(0, top, 3, bottom - top, mark)
                painter.setPen(palette.color(QPalette.ColorRole.Text) if number == current
                               else number_colour)
                painter.drawText(0, top, width - 6, height, Qt.AlignmentFlag.AlignRight,
                                 str(number + 1))
            block = block.next()
            top = bottom
        painter.end()

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


def _local_file(event: QDragEnterEvent | QDropEvent) -> Path | None:
    mime = event.mimeData()
    if not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            return Path(url.toLocalFile())
    return None
