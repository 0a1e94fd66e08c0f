"""The inline (unified) view: both texts as one, deletions and insertions interleaved (no Qt).

VS Code and Kaleidoscope switch between side by side and inline; here the inline text is built
from the highlight's own rows (the SpanTable the side-by-side view draws), so both views show the
same pieces, the same moves and the same differences: equal text once, then each row's deleted
text followed by its inserted text, each marked with its style.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from matchlens.core.diff.span_table import FLAG_MOVED, KIND_DELETE, KIND_INSERT, SpanTable

# Styles of inline spans: text that is only in the expected text, only in the actual text, and
# moved text at its old and its new place.
STYLE_DELETED, STYLE_INSERTED, STYLE_MOVED_FROM, STYLE_MOVED_TO = 0, 1, 2, 3


class InlineLayout(NamedTuple):
    """The inline text, its marked spans (rows of start, end, style, table row, side: 0 for
    the expected side's text, 1 for the actual side's) and where each difference starts."""

    text: str
    spans: np.ndarray  # int64 (k, 5)
    hunk_starts: np.ndarray  # int64: inline offset of each hunk of the table


def inline_layout(table: SpanTable, expected: str, actual: str) -> InlineLayout:
    """Equal text once, each row's deleted then inserted text, marked (offsets in code points)."""
    parts: list[str] = []
    spans: list[tuple[int, int, int, int, int]] = []
    row_start = np.zeros(len(table), dtype=np.int64)
    pos = e_pos = 0
    for row in range(len(table)):
        es, ee = int(table.exp[row, 0]), int(table.exp[row, 1])
        as_, ae = int(table.act[row, 0]), int(table.act[row, 1])
        if es > e_pos:  # the equal text before the row, as the expected text has it
            parts.append(expected[e_pos:es])
            pos += es - e_pos
        row_start[row] = pos
        moved = bool(table.flags[row] & FLAG_MOVED)
        kind = int(table.kind[row])
        if ee > es and kind != KIND_INSERT:
            parts.append(expected[es:ee])
            spans.append((pos, pos + ee - es,
                          STYLE_MOVED_FROM if moved else STYLE_DELETED, row, 0))
            pos += ee - es
        if ae > as_ and kind != KIND_DELETE:
            parts.append(actual[as_:ae])
            spans.append((pos, pos + ae - as_,
                          STYLE_MOVED_TO if moved else STYLE_INSERTED, row, 1))
            pos += ae - as_
        e_pos = max(e_pos, ee)
    parts.append(expected[e_pos:])
    hunks = table.hunks
    starts = row_start[hunks[:, 4]] if len(hunks) else np.zeros(0, dtype=np.int64)
    return InlineLayout("".join(parts), np.array(spans, dtype=np.int64).reshape(len(spans), 5),
                        starts.astype(np.int64))


def side_text(layout: InlineLayout, side: int) -> str:
    """The inline text without the other side's marked spans: the text of `side` (0: expected,
    1: actual) when the view shows it whole."""
    drop = layout.spans[layout.spans[:, 4] != side]
    out, pos = [], 0
    for start, end in drop[:, :2].tolist():
        out.append(layout.text[pos:start])
        pos = end
    out.append(layout.text[pos:])
    return "".join(out)


def _others(layout: InlineLayout, side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The other side's spans: their inline starts and ends, and how much of the other side's
    text comes before each (lengths summed, that span excluded)."""
    drop = layout.spans[layout.spans[:, 4] != side]
    starts, ends = drop[:, 0], drop[:, 1]
    before = np.concatenate([[0], np.cumsum(ends - starts)[:-1]]).astype(np.int64)
    return starts, ends, before


def side_offset(layout: InlineLayout, position: int, side: int = 0) -> int:
    """The offset in `side`'s text (0: expected, 1: actual) of inline `position`: a position
    inside the other side's text maps to where that text stands in this side's."""
    starts, ends, before = _others(layout, side)
    k = int(np.searchsorted(starts, position, side="right"))  # the other spans starting <= it
    if k == 0:
        return position
    last = k - 1
    return position - int(before[last]) - min(position, int(ends[last])) + int(starts[last])


def inline_position(layout: InlineLayout, offset: int, side: int = 0) -> int:
    """The first inline position whose `side` offset is `offset` (inverse of `side_offset`):
    before any of the other side's text standing at that place."""
    starts, ends, before = _others(layout, side)
    at = starts - before  # where each other-side span stands in this side's text
    k = int(np.searchsorted(at, offset, side="left"))
    total = np.concatenate([[0], np.cumsum(ends - starts)]).astype(np.int64)  # of the first k
    return offset + int(total[k])
