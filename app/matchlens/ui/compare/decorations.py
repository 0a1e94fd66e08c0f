"""The edit highlight of one editor, painted only where the user is looking.

A million-character pair can have tens of thousands of spans; building an ExtraSelection for
each would take seconds and make every repaint slow. So the decorator bisects the span columns
for the visible range (padded by a screen on each side, so small scrolls need no rebuild to look
right), merges touching spans of one style, and rebuilds on scroll/resize after a short debounce.
The visible range comes from the viewport's corners, never from whole lines: in a one-line text
of a million characters "the visible lines" would be all of it. Inside such long lines the
editor paints the spans itself, row by row (see `editors.py`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit, QToolTip

from matchlens.core.diff.span_table import (
    FLAG_CASE,
    FLAG_COUNTED,
    FLAG_MOVED,
    FLAG_SPACE,
    KIND_DELETE,
    KIND_INSERT,
    KIND_SUBSTITUTE,
    SpanTable,
)
from matchlens.ui.compare.editors import DiffEditor
from matchlens.ui.palette import DiffColours, diff_colours

# The style of moved text (`_formats[(KIND_MOVED, False)]`), beside the three edit kinds.
KIND_MOVED = 3
_MAX_SELECTIONS = 20_000  # a pathological screen (every character edited) stays bounded
_SCROLL_DEBOUNCE_MS = 12


def to_utf16(offsets: np.ndarray | int, astral: np.ndarray) -> np.ndarray | int:
    """Code point offsets -> QTextDocument positions (astral characters take two units)."""
    if len(astral) == 0:
        return offsets
    return offsets + np.searchsorted(astral, offsets, side="left")


def to_code_points(position: int, astral: np.ndarray) -> int:
    """QTextDocument position -> code point offset (inverse of `to_utf16`)."""
    if len(astral) == 0:
        return position
    starts = astral + np.arange(len(astral))  # where each astral character begins in UTF-16
    return int(position - np.searchsorted(starts, position - 1, side="left"))


class DiffDecorator(QObject):
    """Keeps one editor's "diff" layer and gutter marks in step with a SpanTable."""

    # The move under the pointer changed (its index in `table.moves`, or -1): the tab lights
    # its other place. A Ctrl+click on moved text asks to jump to its other place.
    sig_move_hovered = Signal(int)
    sig_move_clicked = Signal(int)

    def __init__(self, editor: DiffEditor, side: str) -> None:
        super().__init__(editor)
        self.editor = editor
        self.side = side
        self._table: SpanTable | None = None
        self._colours = diff_colours(editor.palette())
        self._formats: dict[tuple[int, bool], QTextCharFormat] = {}
        self._build_formats()
        self._covered: tuple[int, int] | None = None  # code point range the layer covers
        self._timer = QTimer(self, singleShot=True, interval=_SCROLL_DEBOUNCE_MS)
        self._timer.timeout.connect(self.rebuild)
        editor.sig_viewport_changed.connect(self._on_viewport_changed)
        # Both texts, for the hover's list of unit edits (set by the tab).
        self.texts: Callable[[], tuple[str, str]] | None = None
        editor.viewport().installEventFilter(self)
        editor.viewport().setMouseTracking(True)
        self._hovered_move = -1

    @property
    def table(self) -> SpanTable | None:
        return self._table

    def set_table(self, table: SpanTable | None) -> None:
        self._table = table
        self.rebuild()

    def set_colours(self, colours: DiffColours) -> None:
        self._colours = colours
        self._build_formats()
        self.rebuild()

    def _build_formats(self) -> None:
        c = self._colours
        strong = {KIND_DELETE: c.delete, KIND_INSERT: c.insert, KIND_SUBSTITUTE: c.substitute}
        soft = {KIND_DELETE: c.delete_soft, KIND_INSERT: c.insert_soft,
                KIND_SUBSTITUTE: c.substitute_soft}
        lines = {KIND_DELETE: c.delete_line, KIND_INSERT: c.insert_line,
                 KIND_SUBSTITUTE: c.substitute_line}
        for kind in (KIND_DELETE, KIND_INSERT, KIND_SUBSTITUTE):
            fmt = QTextCharFormat()
            fmt.setBackground(strong[kind])
            self._formats[(kind, False)] = fmt
            # Case-only and whitespace-only edits: a faint tint plus a dotted underline, so a
            # trailing space or "Calvin"/"calvin" is visible but does not shout.
            subdued = QTextCharFormat()
            subdued.setBackground(soft[kind])
            subdued.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            subdued.setUnderlineColor(lines[kind])
            self._formats[(kind, True)] = subdued
        # What a normalisation removed: greyed text on a grey tint, struck through, so it is
        # visibly not compared (never looks like an equal character)
        ignored = QTextCharFormat()
        ignored.setBackground(c.ignored)
        ignored.setForeground(c.ignored_text)
        ignored.setFontStrikeOut(True)
        ignored.setToolTip("Ignored: the metric's normalisation removes this")
        self._ignored_format = ignored
        moved = QTextCharFormat()
        moved.setBackground(c.moved)
        moved.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        moved.setUnderlineColor(c.moved_line)
        self._formats[(KIND_MOVED, False)] = moved

    # -- hover ------------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.editor.viewport())
            else:
                QToolTip.hideText()
            return True
        if event.type() == QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
            move = self.move_at(event.position().toPoint())
            if move != self._hovered_move:
                self._hovered_move = move
                self.sig_move_hovered.emit(move)
        elif event.type() == QEvent.Type.Leave and self._hovered_move != -1:
            self._hovered_move = -1
            self.sig_move_hovered.emit(-1)
        elif (event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent)
              and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            move = self.move_at(event.position().toPoint())
            if move >= 0:
                self.sig_move_clicked.emit(move)
        return super().eventFilter(watched, event)

    def move_at(self, point: QPoint) -> int:
        """The index of the moved piece under `point` (viewport coordinates), or -1."""
        table = self._table
        if table is None or len(table.moves) == 0:
            return -1
        offset = self._offset_at(point)
        move = table.move_at(self.side, offset)
        return -1 if move is None else move

    def _offset_at(self, point: QPoint) -> int:
        cursor = self.editor.cursorForPosition(point)
        position = cursor.position()
        if point.x() < self.editor.cursorRect(cursor).x() and position > 0:
            position -= 1  # the pointer is over the character before the caret position
        return to_code_points(position, self._astral())

    def tooltip_at(self, point: QPoint) -> str:
        """What hovering the viewport at `point` shows: the piece under it and its edits."""
        from matchlens.core.diff.span_info import describe_span, span_at

        table = self._table
        if table is None or self.texts is None:
            return ""
        expected, actual = self.texts()
        if (len(expected), len(actual)) != table.lengths:
            return ""  # the texts moved on; the next answer brings a table for them
        row = span_at(table, self.side, self._offset_at(point))
        return "" if row is None else describe_span(table, row, expected, actual)

    def _on_viewport_changed(self) -> None:
        if self._table is None:
            return
        first, last = self.editor.visible_positions()
        covered = self._covered
        astral = self._astral()
        lo, hi = to_code_points(first, astral), to_code_points(last, astral)
        if covered is not None and covered[0] <= lo and hi <= covered[1]:
            return  # the padded layer still covers the screen
        self._timer.start()

    def _astral(self) -> np.ndarray:
        if self._table is None:
            return np.zeros(0, dtype=np.int64)
        return self._table.exp_astral if self.side == "expected" else self._table.act_astral

    def visible_spans(self) -> np.ndarray:
        """Indices of the spans painted on this side in the padded visible range."""
        table = self._table
        if table is None:
            return np.zeros(0, dtype=np.int64)
        first, last = self.editor.visible_positions()
        astral = self._astral()
        lo, hi = to_code_points(first, astral), to_code_points(last, astral)
        pad = max(2_000, hi - lo)
        lo, hi = max(0, lo - pad), hi + pad
        self._covered = (lo, hi)  # also the range of the ignored layer, with or without spans
        if len(table) == 0:
            return np.zeros(0, dtype=np.int64)
        cols = table.exp if self.side == "expected" else table.act
        i0 = int(np.searchsorted(cols[:, 1], lo, side="right"))
        i1 = int(np.searchsorted(cols[:, 0], hi, side="left"))
        idx = np.arange(i0, max(i0, i1))
        return idx[cols[idx, 1] > cols[idx, 0]][:_MAX_SELECTIONS]

    def rebuild(self) -> None:
        self._timer.stop()
        table = self._table
        if table is None:
            self._covered = None
            self.editor.set_layer("diff", [])
            self.editor.set_layer("ignored", [])
            self.editor.set_gutter_marks({})
            return
        idx = self.visible_spans()
        cols = table.exp if self.side == "expected" else table.act
        starts, ends = cols[idx, 0], cols[idx, 1]
        soft = ((table.flags[idx] & (FLAG_CASE | FLAG_SPACE)) != 0) | (
            (table.flags[idx] & FLAG_COUNTED) == 0)
        styles = table.kind[idx].astype(np.int64) * 2 + soft
        styles[(table.flags[idx] & FLAG_MOVED) != 0] = KIND_MOVED * 2
        astral = self._astral()
        u_starts, u_ends = to_utf16(starts, astral), to_utf16(ends, astral)
        doc = self.editor.document()
        selections: list[QTextEdit.ExtraSelection] = []
        marks: dict[int, QColor] = {}
        n = len(idx)
        i = 0
        while i < n:
            # Merge touching spans of the same style: fewer selections, same pixels.
            j = i
            while j + 1 < n and styles[j + 1] == styles[i] and starts[j + 1] == ends[j]:
                j += 1
            kind, is_soft = int(styles[i]) // 2, bool(styles[i] % 2)
            cursor = QTextCursor(doc)
            cursor.setPosition(int(u_starts[i]))
            cursor.setPosition(int(u_ends[j]), QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = self._formats[(kind, is_soft)]
            selections.append(selection)
            self._mark(marks, int(u_starts[i]), int(u_ends[j]), kind)
            i = j + 1
        self._mark_gaps(marks, astral)
        self.editor.set_layer("diff", selections)
        self.editor.set_layer("ignored", self._ignored_selections(astral))
        self.editor.set_gutter_marks(marks)

    def ignored_spans(self) -> np.ndarray:
        """The (start, end) code point runs this side draws as ignored, in the padded visible
        range (what a normalisation removed)."""
        table = self._table
        if table is None or self._covered is None:
            return np.zeros((0, 2), dtype=np.int64)
        runs = table.exp_ignored if self.side == "expected" else table.act_ignored
        lo, hi = self._covered
        i0 = int(np.searchsorted(runs[:, 1], lo, side="right"))
        i1 = int(np.searchsorted(runs[:, 0], hi, side="left"))
        return runs[i0:max(i0, i1)][:_MAX_SELECTIONS]

    def _ignored_selections(self, astral: np.ndarray) -> list[QTextEdit.ExtraSelection]:
        runs = self.ignored_spans()
        doc = self.editor.document()
        out = []
        for start, end in zip(to_utf16(runs[:, 0], astral).tolist(),
                              to_utf16(runs[:, 1], astral).tolist(), strict=True):
            cursor = QTextCursor(doc)
            cursor.setPosition(int(start))
            cursor.setPosition(int(end), QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = self._ignored_format
            out.append(selection)
        return out

    def _mark(self, marks: dict[int, QColor], start: int, end: int, kind: int) -> None:
        doc = self.editor.document()
        first = doc.findBlock(start).blockNumber()
        last = doc.findBlock(max(start, end - 1)).blockNumber()
        colour = {KIND_DELETE: self._colours.delete_line, KIND_INSERT: self._colours.insert_line,
                  KIND_SUBSTITUTE: self._colours.substitute_line,
                  KIND_MOVED: self._colours.moved_line}[kind]
        for number in range(first, last + 1):
            marks[number] = colour if number not in marks else self._colours.substitute_line

    def _mark_gaps(self, marks: dict[int, QColor], astral: np.ndarray) -> None:
        """Where the other side has text this side lacks, mark the line in the gutter."""
        table = self._table
        if table is None or self._covered is None:
            return
        lo, hi = self._covered
        missing = KIND_INSERT if self.side == "expected" else KIND_DELETE
        cols = table.exp if self.side == "expected" else table.act
        i0 = int(np.searchsorted(cols[:, 0], lo, side="left"))
        i1 = int(np.searchsorted(cols[:, 0], hi, side="right"))
        idx = np.arange(i0, i1)
        idx = idx[table.kind[idx] == missing][:_MAX_SELECTIONS]
        colour = (self._colours.insert_line if missing == KIND_INSERT
                  else self._colours.delete_line)
        doc = self.editor.document()
        for pos in to_utf16(cols[idx, 0], astral):
            marks.setdefault(doc.findBlock(int(pos)).blockNumber(), colour)


class Flasher(QObject):
    """Briefly highlights a range in an editor (the "here it is" after a jump)."""

    def __init__(self, editor: DiffEditor, duration_ms: int = 700) -> None:
        super().__init__(editor)
        self.editor = editor
        self._timer = QTimer(self, singleShot=True, interval=duration_ms)
        self._timer.timeout.connect(self.clear)

    def flash(self, start: int, end: int, colour: QColor) -> None:
        if end <= start:
            # Nothing on this side (an insertion seen from expected): a bar where the text is
            # missing. A full-width tint would hide the line's own highlight (and look like a
            # selection).
            self.editor.set_layer("flash", [])
            self.editor.set_insertion_mark(start, self.editor.palette().highlight().color())
            self._timer.start()
            return
        self.editor.set_insertion_mark(None)
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setBackground(colour)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = fmt
        self.editor.set_layer("flash", [selection])
        self._timer.start()

    def is_active(self) -> bool:
        return self._timer.isActive()

    def clear(self) -> None:
        self._timer.stop()
        self.editor.set_layer("flash", [])
        self.editor.set_insertion_mark(None)
