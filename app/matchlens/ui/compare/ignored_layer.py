"""Where the *ignored* runs (characters a normalisation removed) are painted.

In ordinary lines Qt paints them as extra selections, drawn over the diff layer. Inside long
lines the editor paints the diff layer itself, row by row (Qt's cost grows with every span of a
long line); the ignored runs join it there, minus the parts a diff span already covers, since
the editor's own painter expects ranges that do not overlap. There they get the grey tint only
(the editor paints backgrounds, not text)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit


def split_ignored(doc: QTextDocument, ignored: Sequence[QTextEdit.ExtraSelection],
                  painted: Sequence[QTextEdit.ExtraSelection], long_line: int
                  ) -> tuple[list[QTextEdit.ExtraSelection], list[QTextEdit.ExtraSelection]]:
    """(for Qt, for the editor's own painter) of the ignored selections."""
    qt: list[QTextEdit.ExtraSelection] = []
    own: list[QTextEdit.ExtraSelection] = []
    taken = sorted((s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in painted)
    starts = [start for start, _ in taken]
    for selection in ignored:
        start, end = selection.cursor.selectionStart(), selection.cursor.selectionEnd()
        if (doc.findBlock(start).length() <= long_line
                and doc.findBlock(max(start, end - 1)).length() <= long_line):
            qt.append(selection)
            continue
        for a, b in _outside(start, end, taken, starts):
            own.append(_selection(doc, a, b, selection))
    return qt, own


def _outside(start: int, end: int, taken: list[tuple[int, int]], starts: list[int]
             ) -> list[tuple[int, int]]:
    """The parts of [start, end) no range of `taken` (sorted, not overlapping) covers."""
    out = []
    i = max(0, bisect.bisect_right(starts, start) - 1)
    at = start
    while i < len(taken) and taken[i][0] < end:
        lo, hi = taken[i]
        if hi > at:
            if lo > at:
                out.append((at, lo))
            at = max(at, hi)
        i += 1
    if at < end:
        out.append((at, end))
    return out


def _selection(doc: QTextDocument, start: int, end: int, like: QTextEdit.ExtraSelection
               ) -> QTextEdit.ExtraSelection:
    cursor = QTextCursor(doc)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    selection = QTextEdit.ExtraSelection()
    selection.cursor = cursor
    selection.format = like.format
    return selection
