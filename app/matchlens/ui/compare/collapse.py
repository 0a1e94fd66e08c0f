"""Collapse unchanged text in the compare view: hidden blocks and a one-line placeholder.

Which lines fold is core's rule (`core.diff.folding`); this module only shows it. A folded
stretch's lines become invisible QTextBlocks (QPlainTextEdit then gives them no height and no
scroll-bar line) except one, the fold's host, over which the placeholder "⋯ 214 unchanged
lines" is painted. The text, and so every document position, stays as it is: the highlight's
selections, the long-line painter, the move links, the find bar and the overview ruler (which
counts the whole text's lines) keep their positions, and scrolling in lines (`top_line`,
`scroll_to_line`) skips the hidden blocks by itself. A click on a placeholder opens its fold;
so does the caret landing in a fold (a ruler click, a find, an arrow key), so nothing the user
goes to stays hidden. A fold the user opened stays open while they type.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextBlock,
    QTextDocument,
)
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from matchlens.core.diff.folding import Folds, inline_folds, no_folds, side_folds
from matchlens.core.diff.inline import InlineLayout
from matchlens.core.diff.span_table import SpanTable
from matchlens.ui.palette import blend

CLICK_HINT = " (click to show)"


def placeholder_text(lines: int) -> str:
    return f"⋯ {lines:,} unchanged line{'' if lines == 1 else 's'}{CLICK_HINT}"


def fitted(text: str, metrics: QFontMetricsF, room: float) -> str:
    """`text` as it fits in `room` pixels: whole, else without the click hint (the Collapse
    button's tooltip says it too), else cut with an ellipsis."""
    if metrics.horizontalAdvance(text) <= room:
        return text
    text = text.removesuffix(CLICK_HINT)
    if metrics.horizontalAdvance(text) <= room:
        return text
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)


class Collapser(QObject):
    """Folds one QPlainTextEdit's unchanged stretches; the editor calls `paint` after its own
    paint, and its gutter asks `is_host`."""

    sig_opened = Signal(int)  # lines a click (or the caret) unfolded

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self.editor = editor
        self.folds = no_folds()
        self._hosts: dict[int, int] = {}  # host block number -> fold index
        self._host_order: list[int] = []  # the hosts' block numbers, ascending
        self._placeholders: dict[int, str] = {}  # host block number -> its placeholder
        # the last folds given to `apply`, with the opened lines and blocks there were then
        self._given: tuple[Folds, int, int] | None = None
        self._hidden: set[int] = set()  # block numbers hidden now (hosts not included)
        self._opened: set[int] = set()  # block numbers the user unfolded
        self._blocks = -1  # the document's block count when `_hidden` was set
        editor.viewport().installEventFilter(self)
        editor.cursorPositionChanged.connect(self._caret_moved)
        editor.document().contentsChange.connect(self._on_contents_change)
        editor.collapser = self

    # -- folding --------------------------------------------------------------------------------
    def apply(self, folds: Folds) -> None:
        """Show `folds` (minus those the user opened since the text was set)."""
        doc = self.editor.document()
        given = (folds, len(self._opened), doc.blockCount())
        last = self._given
        if (last is not None and last[1:] == given[1:]
                and np.array_equal(last[0].ranges, folds.ranges)
                and np.array_equal(last[0].hosts, folds.hosts)):
            return  # a keystroke's table folds the same lines: nothing to redo
        self._given = given
        if self._opened and len(folds.ranges):
            # drop the folds holding a line the user opened (the first opened line at or
            # after each fold's start lies inside it)
            opened = np.array(sorted(self._opened), dtype=np.int64)
            at = np.searchsorted(opened, folds.ranges[:, 0])
            inside = (at < len(opened)) & (
                opened[np.minimum(at, len(opened) - 1)] < folds.ranges[:, 1])
            folds = Folds(folds.ranges[~inside], folds.hosts[~inside])
        blocks = doc.blockCount()
        hidden: set[int] = set()
        hosts: dict[int, int] = {}
        for index, ((start, end), host) in enumerate(zip(folds.ranges.tolist(),
                                                         folds.hosts.tolist(), strict=True)):
            if end > blocks:  # the table is of another text: show it whole until it fits
                hidden, hosts, folds = set(), {}, no_folds()
                break
            hidden.update(range(start, end))
            hidden.discard(host)
            hosts[host] = index
        self._set_visibility(hidden)
        self.folds, self._hosts = folds, hosts
        self._host_order = sorted(hosts)
        self._placeholders = {host: placeholder_text(int(folds.ranges[i, 1] - folds.ranges[i, 0]))
                              for host, i in hosts.items()}
        self.editor.viewport().update()

    def clear(self, forget_opened: bool = False) -> None:
        """Show every line."""
        if forget_opened:
            self._opened = set()
        self.apply(no_folds())

    def _set_visibility(self, hidden: set[int]) -> None:
        doc = self.editor.document()
        if self._blocks == doc.blockCount():
            # No line added or removed since the last time: the blocks are numbered as they
            # were, so only those whose visibility changes are touched (a keystroke: none).
            numbers = sorted(hidden ^ self._hidden)
            blocks = (doc.findBlockByNumber(n) for n in numbers)
        else:
            # Lines came or went (or a new text made every block visible): read every block.
            blocks = _all_blocks(doc)
        first = last = None
        for block in blocks:
            visible = block.blockNumber() not in hidden
            if block.isValid() and block.isVisible() != visible:
                block.setVisible(visible)
                first = first if first is not None else block
                last = block
        self._hidden, self._blocks = hidden, doc.blockCount()
        if first is not None and last is not None:
            # Relayout only the blocks whose visibility changed (no contentsChange: the text
            # and its undo history are untouched).
            doc.markContentsDirty(first.position(), last.position() + last.length()
                                  - first.position())
            self.editor.viewport().update()

    def _on_contents_change(self, position: int, _removed: int, added: int) -> None:
        doc = self.editor.document()
        if position == 0 and added >= doc.characterCount() - 1:  # a new text: all of it shows
            self.folds, self._hosts, self._hidden, self._opened = no_folds(), {}, set(), set()
            self._host_order, self._placeholders, self._given = [], {}, None
            self._blocks = -1

    def open_fold(self, index: int) -> None:
        """Unfold fold `index` for good (until the texts are set anew)."""
        start, end = (int(v) for v in self.folds.ranges[index])
        self._opened.update(range(start, end))
        self.apply(self.folds)
        self.sig_opened.emit(end - start)

    def is_host(self, number: int) -> bool:
        return number in self._hosts

    def is_folded(self, number: int) -> bool:
        """Whether block `number` is out of sight (hidden, or under a placeholder)."""
        return number in self._hidden or number in self._hosts

    def fold_of_block(self, number: int) -> int | None:
        index = self.folds.fold_at(number)
        return index if index is not None and self.is_folded(number) else None

    def placeholders(self) -> dict[int, str]:
        """Host block number -> the placeholder drawn over it."""
        return self._placeholders

    # -- the user ---------------------------------------------------------------------------------
    def _caret_moved(self) -> None:
        if not self._hosts and not self._hidden:
            return
        index = self.fold_of_block(self.editor.textCursor().blockNumber())
        if index is not None:
            self.open_fold(index)
            self.editor.ensureCursorVisible()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if (self._hosts and event.type() == QEvent.Type.MouseButtonPress
                and isinstance(event, QMouseEvent)
                and event.button() == Qt.MouseButton.LeftButton):
            host = self.host_at(event.position())
            if host is not None:
                self.open_fold(self._hosts[host])
                return True
        if (event.type() == QEvent.Type.MouseMove and isinstance(event, QMouseEvent)
                and self._hosts):
            over = self.host_at(event.position()) is not None
            self.editor.viewport().setCursor(Qt.CursorShape.PointingHandCursor if over
                                             else Qt.CursorShape.IBeamCursor)
        return super().eventFilter(watched, event)

    def host_at(self, point: QPointF) -> int | None:
        """The host block under viewport `point`, if a placeholder is drawn there."""
        for number, rect in self.visible_hosts():
            if rect.top() <= point.y() < rect.bottom():
                return number
        return None

    def visible_hosts(self) -> list[tuple[int, QRectF]]:
        """(block number, viewport rectangle) of each placeholder's host on screen. Walked
        host by host from the first visible block, not block by block: a fold's hidden blocks
        have no height, and there can be thousands of them between two hosts."""
        out: list[tuple[int, QRectF]] = []
        if not self._hosts:
            return out
        editor = self.editor
        offset = editor.contentOffset()
        height = editor.viewport().height()
        doc = editor.document()
        first = editor.firstVisibleBlock().blockNumber()
        hosts = self._host_order
        for number in hosts[bisect_left(hosts, first):]:
            block = doc.findBlockByNumber(number)
            if not block.isValid():
                break
            rect = editor.blockBoundingGeometry(block).translated(offset)
            if rect.top() > height:
                break
            if block.isVisible():
                out.append((number, rect))
        return out

    def paint(self, painter: QPainter) -> None:
        """Draw the placeholders on screen over their hosts (the editor's paint is done)."""
        hosts = self.visible_hosts()
        if not hosts:
            return
        palette = self.editor.palette()
        fill = blend(palette.color(QPalette.ColorRole.Base),
                     palette.color(QPalette.ColorRole.Window), 0.5)
        width = self.editor.viewport().width()
        texts = self.placeholders()
        ink = palette.color(QPalette.ColorRole.PlaceholderText)
        painter.setPen(ink)
        metrics = QFontMetricsF(painter.font())
        for number, rect in hosts:
            box = QRectF(0, rect.top(), width, rect.height())
            painter.fillRect(box, fill)
            # the two rules as 1-pixel fills: drawLine across the width cost ~0.5 ms a line
            painter.fillRect(QRectF(0, box.top(), width, 1), ink)
            painter.fillRect(QRectF(0, box.bottom() - 1, width, 1), ink)
            row = editor_row_height(self.editor)
            painter.drawText(QRectF(8, box.top(), width - 8, row),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             fitted(texts[number], metrics, width - 12))


def _all_blocks(doc: QTextDocument) -> Iterator[QTextBlock]:
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()


def editor_row_height(editor: QPlainTextEdit) -> float:
    return float(editor.fontMetrics().height())


class FoldingTextEdit(QPlainTextEdit):
    """A read-only QPlainTextEdit with a Collapser (the inline view's text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.collapser: Collapser | None = None
        Collapser(self)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        super().paintEvent(event)
        if self.collapser is not None:
            painter = QPainter(self.viewport())
            try:
                self.collapser.paint(painter)
            finally:
                painter.end()


class CollapseControl(QObject):
    """The compare tab's *Collapse unchanged* toggle: folds every view it is given for the
    differences that view shows (`core.diff.folding`), or opens them all. An editor pane folds
    by its own highlight (`side_folds` of its decorator's table, for its side), an inline view
    by its layout (`inline_folds`): the reference and this output, a run's baseline pane, the
    inline views. A highlight of other texts (the user typed on) leaves a view's folds as they
    are until the fitting one arrives, so typing in a collapsed view does not flicker."""

    def __init__(self, action: QAction, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.action = action
        self.collapsers: dict[str, Collapser] = {}
        self._folds: dict[str, Callable[[], Folds | None]] = {}
        action.toggled.connect(lambda _on: self.refresh())

    def add_view(self, name: str, collapser: Collapser,
                 folds: Callable[[], Folds | None]) -> None:
        """One more view to fold: `folds()` gives its folds now (None: leave them as they
        are, its highlight is of other texts)."""
        self.collapsers[name] = collapser
        self._folds[name] = folds

    def add_pane(self, name: str, pane: Any,
                 fallback: Callable[[], SpanTable | None] | None = None) -> None:
        """An editor pane (pane.EditorPane), folded by the table its decorator draws, on the
        decorator's side; with none drawn, by `fallback()`'s (the tab's own highlight: the
        reference while a run's outputs are diffed directly shows none)."""
        editor = pane.editor

        def folds() -> Folds | None:
            table = pane.decorator.table
            if table is None and fallback is not None:
                table = fallback()
            side = pane.decorator.side
            text = editor.text()
            if table is None or table.lengths[0 if side == "expected" else 1] != len(text):
                return None
            return side_folds(table, side, text)

        self.add_view(name, editor.collapser or Collapser(editor), folds)

    def add_inline(self, name: str, view: FoldingTextEdit,
                   layout: Callable[[], InlineLayout | None]) -> None:
        """An inline view, folded by its layout (`layout()`; None: left as it is)."""

        def folds() -> Folds | None:
            shown = layout()
            return inline_folds(shown) if isinstance(shown, InlineLayout) else None

        self.add_view(name, view.collapser, folds)

    @property
    def on(self) -> bool:
        return self.action.isChecked()

    def refresh(self) -> None:
        """Fold (or unfold) every view for the differences it shows now."""
        if not self.on:
            for collapser in self.collapsers.values():
                collapser.clear(forget_opened=True)
            return
        for name, collapser in self.collapsers.items():
            folds = self._folds[name]()
            if folds is not None:
                collapser.apply(folds)
