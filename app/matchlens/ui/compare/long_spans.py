"""Painting highlight spans inside long lines, row by row, for the rows on screen only.

Qt paints each extra selection by walking every visible row of its block and measures it over
every row of the block, so a few dozen spans in one line of a million characters cost tens of
milliseconds a repaint; `DiffEditor` hands the spans of long lines to these functions instead
(see editors.py). They draw what Qt would: whole-pixel boxes, its dotted underline, a selected
line break as a space's width, and right-to-left text character by character.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter, QTextBlock, QTextCharFormat, QTextLayout, QTextLine

Span = tuple[int, int, QTextCharFormat]  # start, end (document positions), format


def paint_block(painter: QPainter, block: QTextBlock, origin: QPointF, clip: QRectF,
                newline: float, underline: float, spans: Sequence[Span], ends: Sequence[int],
                bidi: Callable[[], bool]) -> None:
    """Paint the spans (sorted by start; `ends` their ends) on the rows of `block` that
    `clip` shows. `bidi()`: whether the text has right-to-left characters (asked only when a
    span is on screen: finding out reads the whole document once)."""
    base, length = block.position(), block.length()  # length includes the line break
    index = bisect.bisect_right(ends, base)
    if index >= len(spans) or spans[index][0] >= base + length:
        return
    layout = block.layout()
    count = layout.lineCount()
    for number in range(first_row_below(layout, clip.top() - origin.y()), count):
        line = layout.lineAt(number)
        top = origin.y() + line.y()
        if top > clip.bottom():
            break
        row_start = base + line.textStart()
        row_end = row_start + line.textLength()
        last_row = number == count - 1
        limit = base + length if last_row else row_end  # the break belongs to the last row
        index = bisect.bisect_right(ends, row_start)
        while index < len(spans) and spans[index][0] < limit:
            start, end, fmt = spans[index]
            index += 1
            a, b = max(start, row_start) - base, min(end, row_end) - base
            tail = newline if last_row and end > row_end else 0.0
            left = origin.x() + line.x()  # where Qt starts the underline's dot pattern
            for x1, x2 in row_boxes(line, a, b, bidi):
                fill(painter, fmt, origin.x() + x1, top, x2 - x1, line, underline, left)
            if tail:
                x = origin.x() + line.cursorToX(b)[0]
                fill(painter, fmt, x, top, tail, line, underline, left)


def row_boxes(line: QTextLine, a: int, b: int, bidi: Callable[[], bool]
              ) -> list[tuple[float, float]]:
    """Horizontal extents of characters a..b (block offsets) of one row."""
    if b <= a:
        return []
    if not bidi():
        return [(line.cursorToX(a)[0], line.cursorToX(b)[0])]
    boxes: list[tuple[float, float]] = []  # bidi text: each character's own box
    for k in range(a, b):
        x1 = line.cursorToX(k)[0]
        x2 = line.cursorToX(k, QTextLine.Edge.Trailing)[0]
        boxes.append((min(x1, x2), max(x1, x2)))
    return boxes


def fill(painter: QPainter, fmt: QTextCharFormat, x: float, top: float, width: float,
         line: QTextLine, underline: float, row_left: float) -> None:
    if width <= 0:
        return
    # Whole pixels, widened outwards, as Qt paints its selections.
    left, right = math.floor(x), math.ceil(x + width)
    painter.fillRect(QRectF(left, top, right - left, line.height()), fmt.background())
    if fmt.underlineStyle() != QTextCharFormat.UnderlineStyle.NoUnderline:
        # Qt's dotted underline: one pixel in three, counted from the row's start.
        y = math.floor(top + line.ascent() + underline)
        anchor = math.floor(row_left)
        colour = fmt.underlineColor()
        for dot in range(left + (anchor - left) % 3, right, 3):
            painter.fillRect(dot, y, 1, 1, colour)


def first_row_below(layout: QTextLayout, y: float) -> int:
    """The first row of a laid-out block whose bottom is below y (block coordinates)."""
    lo, hi = 0, layout.lineCount()
    while lo < hi:
        mid = (lo + hi) // 2
        line = layout.lineAt(mid)
        if line.y() + line.height() < y:
            lo = mid + 1
        else:
            hi = mid
    return lo
