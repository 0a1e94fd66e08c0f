"""What hovering a highlighted piece says: its kind, its text and its own unit edits (no Qt).

In the readable view a piece is a chunk of `core.readable`, and its unit edits are the chunk's
own minimal script (`chunk_edits`), so "such as" → "like" lists 4 substitutions and 3
deletions. In the Exact edits view a piece is a run of one kind of edit, listed pair by pair.
"""

from __future__ import annotations

from matchlens.core.diff.readable.chunks import Chunk, chunk_edits
from matchlens.core.diff.span_table import (
    FLAG_CASE,
    FLAG_COUNTED,
    FLAG_MOVED,
    FLAG_SPACE,
    KIND_DELETE,
    KIND_INSERT,
    SpanTable,
)

LISTED_EDITS = 12  # a tooltip lists this many unit edits, then "… and N more"
_QUOTE_CHARS = 40
# Beyond this (expected chars x actual chars) a piece's own script is not worked out on hover
# (rapidfuzz is fast, but a hover must never make the window wait).
_HOVER_WORK = 4_000_000
_VISIBLE = {" ": "␣", "\n": "⏎", "\t": "⇥", "\u00a0": "⍽"}


def span_at(table: SpanTable, side: str, offset: int) -> int | None:
    """The row of the piece covering code point `offset` on `side`, or None."""
    cols = table.exp if side == "expected" else table.act
    if len(cols) == 0:
        return None
    import numpy as np

    row = int(np.searchsorted(cols[:, 1], offset, side="right"))
    if row < len(cols) and cols[row, 0] <= offset < cols[row, 1]:
        return row
    return None


def _show(text: str, spaces: bool = True) -> str:
    """Whitespace made visible (a lone deleted space must show); `spaces=False` keeps plain
    spaces, for quoting a piece of text."""
    shown = "".join(c if c == " " and not spaces else _VISIBLE.get(c, c) for c in text)
    return shown if len(shown) <= _QUOTE_CHARS else shown[:_QUOTE_CHARS - 1] + "…"


def _edit_text(edit: Chunk, expected: str, actual: str) -> str:
    old = _show(expected[edit.exp_start:edit.exp_end])
    new = _show(actual[edit.act_start:edit.act_end])
    if edit.op == "replace":
        return f"{old}→{new}"
    return f"−{old}" if edit.op == "delete" else f"+{new}"


def describe_span(table: SpanTable, row: int, expected: str, actual: str) -> str:
    """The tooltip of one highlighted piece."""
    es, ee = (int(v) for v in table.exp[row])
    as_, ae = (int(v) for v in table.act[row])
    old, new = expected[es:ee], actual[as_:ae]
    kind, flags = int(table.kind[row]), int(table.flags[row])
    if kind == KIND_INSERT:
        head = f"Inserted “{_show(new, False)}”"
    elif kind == KIND_DELETE:
        head = f"Deleted “{_show(old, False)}”"
    else:
        head = f"Replaced “{_show(old, False)}” with “{_show(new, False)}”"
    if flags & FLAG_MOVED:
        start = es if kind == KIND_DELETE else as_
        return _describe_move(table, kind, start, old or new, expected, actual)
    if not flags & FLAG_COUNTED:
        return f"{head}: differs only in case, not counted (the distance ignores case here)."
    notes = []
    if flags & FLAG_CASE:
        notes.append("only case differs")
    if flags & FLAG_SPACE:
        notes.append("whitespace only")
    if table.view == "exact" and table.granularity == "word":
        units = int(table.units[row])
        return f"{head}: {units} word{'' if units == 1 else 's'}" + _notes(notes) + "."
    edits = _unit_edits(table, row, expected, actual)
    if edits is None:
        units = int(table.units[row])
        return f"{head}: {units:,} edits" + _notes(notes) + "."
    listed = ", ".join(_edit_text(e, expected, actual) for e in edits[:LISTED_EDITS])
    more = len(edits) - LISTED_EDITS
    if more > 0:
        listed += f" … and {more:,} more"
    count = f"{len(edits)} edit{'' if len(edits) == 1 else 's'}"
    return f"{head}: {count}" + _notes(notes) + f"\n{listed}"


def _describe_move(table: SpanTable, kind: int, start: int, text: str, expected: str,
                   actual: str) -> str:
    """A moved piece: where its other place is, and what the metric counts for it."""
    side = "expected" if kind == KIND_DELETE else "actual"
    move = table.move_at(side, start)
    if move is None:
        return f"Moved “{_show(text, False)}”."
    s, _, u, _, edits = (int(x) for x in table.moves[move])
    if side == "expected":
        where = f"moved to line {actual.count(chr(10), 0, u) + 1} of the actual text"
    else:
        where = f"moved from line {expected.count(chr(10), 0, s) + 1} of the expected text"
    return (f"Moved “{_show(text, False)}”: {where} (Ctrl+click to go there). The distance "
            f"still counts it as a deletion there and an insertion here: {edits:,} "
            f"edit{'' if edits == 1 else 's'} of the exact script fall in its two places.")


def _notes(notes: list[str]) -> str:
    return f" ({', '.join(notes)})" if notes else ""


def _unit_edits(table: SpanTable, row: int, expected: str, actual: str) -> list[Chunk] | None:
    es, ee = (int(v) for v in table.exp[row])
    as_, ae = (int(v) for v in table.act[row])
    if table.view == "exact":
        # A run of one kind: the pairs themselves, exactly as the distance counts them.
        op = {KIND_INSERT: "insert", KIND_DELETE: "delete"}.get(int(table.kind[row]), "replace")
        if op == "insert":
            return [Chunk(op, es, es, j, j + 1) for j in range(as_, ae)]
        if op == "delete":
            return [Chunk(op, i, i + 1, as_, as_) for i in range(es, ee)]
        return [Chunk(op, es + k, es + k + 1, as_ + k, as_ + k + 1) for k in range(ee - es)]
    if (ee - es) * (ae - as_) > _HOVER_WORK:
        return None
    op = {KIND_INSERT: "insert", KIND_DELETE: "delete"}.get(int(table.kind[row]), "replace")
    return chunk_edits(expected, actual, Chunk(op, es, ee, as_, ae),
                       case_sensitive=table.case_sensitive)
