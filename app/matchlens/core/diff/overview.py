"""The overview ruler's marks: where each difference is in a whole text, by line (no Qt).

Diff tools (Meld, VS Code) draw a narrow strip beside the scroll bar with a mark for every
difference, so a long text shows at a glance where it differs. The marks are the highlight's
own rows (the SpanTable: readable chunks, or the exact script), never a second computation: each
row that is not equal is one mark on each side, at the lines its range covers there (a row with
nothing on a side, an insertion seen from the expected side, marks the line where it would go).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

import numpy as np

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

# Mark styles: the three edit kinds, then moved text and subdued (case/space/uncounted) edits.
STYLE_INSERT, STYLE_DELETE, STYLE_SUBSTITUTE = KIND_INSERT, KIND_DELETE, KIND_SUBSTITUTE
STYLE_MOVED, STYLE_SUBDUED = 3, 4


class Marks(NamedTuple):
    """One mark per row of the table: its first and last line on the side, and its style."""

    first_line: np.ndarray  # int64
    last_line: np.ndarray  # int64
    style: np.ndarray  # int8
    rows: np.ndarray  # int64: the table row each mark comes from
    line_count: int


# A keystroke's table is read by both rulers and both sides' folds, each wanting its side's
# line starts and marks: the last few are kept (by text, and by table and side), so each is
# computed once per table, and the side not typed into not at all.
_KEEP = 4
_starts: OrderedDict[str, np.ndarray] = OrderedDict()
_marks: list[tuple[SpanTable, str, str, Marks]] = []
_lock = threading.Lock()


def line_starts(text: str) -> np.ndarray:
    """Offsets where each line after the first begins (one past each line break); read-only."""
    if "\n" not in text:
        return np.zeros(0, dtype=np.int64)
    with _lock:
        found = _starts.get(text)
        if found is not None:
            _starts.move_to_end(text)
            return found
    raw = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    found = np.flatnonzero(raw == 10).astype(np.int64) + 1
    found.setflags(write=False)
    with _lock:
        _starts[text] = found
        while len(_starts) > _KEEP:
            _starts.popitem(last=False)
    return found


def ruler_marks(table: SpanTable, side: str, text: str) -> Marks:
    """The marks of `side` ("expected" or "actual") whose text is `text` (kept for the last
    few tables: the ruler and the folds of a side ask for the same)."""
    with _lock:
        kept = list(_marks)
    for kept_table, kept_side, kept_text, marks in kept:
        if kept_table is table and kept_side == side and kept_text == text:
            return marks
    # A keystroke on the other side: a new table, but this side's rows as they were
    alike = (marks for kept_table, kept_side, kept_text, marks in reversed(kept)
             if kept_side == side and kept_text == text
             and _same_rows(kept_table, table, side))
    marks = next(alike, None) or _ruler_marks(table, side, text)
    with _lock:
        _marks.append((table, side, text, marks))
        del _marks[:-_KEEP]
    return marks


def _same_rows(first: SpanTable, second: SpanTable, side: str) -> bool:
    """Whether two tables mark the same spans of `side` in the same kinds and flags (so the
    same marks)."""
    if len(first) != len(second):
        return False
    cols = (first.exp, second.exp) if side == "expected" else (first.act, second.act)
    return (np.array_equal(*cols) and np.array_equal(first.kind, second.kind)
            and np.array_equal(first.flags, second.flags))


def _ruler_marks(table: SpanTable, side: str, text: str) -> Marks:
    starts_of_lines = line_starts(text)
    cols = table.exp if side == "expected" else table.act
    rows = np.arange(len(table), dtype=np.int64)
    start, end = cols[:, 0], cols[:, 1]
    first = np.searchsorted(starts_of_lines, start, side="right")
    last = np.searchsorted(starts_of_lines, np.maximum(start, end - 1), side="right")
    flags = table.flags
    style = table.kind.astype(np.int8).copy()
    subdued = ((flags & (FLAG_CASE | FLAG_SPACE)) != 0) | ((flags & FLAG_COUNTED) == 0)
    style[subdued] = STYLE_SUBDUED
    style[(flags & FLAG_MOVED) != 0] = STYLE_MOVED
    marks = Marks(first.astype(np.int64), last.astype(np.int64), style, rows,
                  len(starts_of_lines) + 1)
    for array in marks[:4]:
        array.setflags(write=False)  # shared by every caller of the same table (kept)
    return marks


def same_lines(first: Marks | None, second: Marks | None) -> bool:
    """Whether two sets of marks cover the same lines in the same styles (so the same
    pixels), whatever rows they come from."""
    if first is None or second is None:
        return first is second
    return (first.line_count == second.line_count
            and np.array_equal(first.first_line, second.first_line)
            and np.array_equal(first.last_line, second.last_line)
            and np.array_equal(first.style, second.style))


def pixel_marks(marks: Marks, height: int, min_height: int = 2
                ) -> list[tuple[int, int, int]]:
    """(y, h, style) rectangles for a ruler `height` pixels tall: marks that fall on the same
    pixel rows with the same style are drawn once (a million-character text stays cheap)."""
    if len(marks.rows) == 0 or height <= 0:
        return []
    scale = height / max(1, marks.line_count)
    y0 = np.floor(marks.first_line * scale).astype(np.int64)
    y1 = np.maximum(np.floor((marks.last_line + 1) * scale).astype(np.int64), y0 + min_height)
    # one int64 per rectangle (y0, y1 < 2**27 pixels, style < 2**8), so np.unique sorts a
    # plain array: the rows of (y0, y1, style) in the same order, several times faster
    keys = np.unique((y0 << 35) | (y1 << 8) | marks.style.astype(np.int64))
    top, bottom = keys >> 35, (keys >> 8) & ((1 << 27) - 1)
    return list(zip(top.tolist(), (bottom - top).tolist(), (keys & 0xFF).tolist(), strict=True))


def line_of_pixel(y: float, height: int, line_count: int) -> int:
    """The line a click `y` pixels down a ruler `height` tall points at."""
    if height <= 0:
        return 0
    return max(0, min(line_count - 1, int(y / height * line_count)))
