"""Equal cells of delimited rows made one string object, piece by piece as a file is read.

A reader makes a new `str` for every cell. A million-row file whose label column says "pass"
or "fail" holds a million small strings (~50 MB) where two would do, and an output equal to
its expected text (an exact match, the commonest case) is a second copy of the text. The
window keeps a loaded table for the whole session, so `CellSharer` drops such duplicates from
each piece of rows as it is read: the values are unchanged (`==`, the same cells), only the
copies go, and since the next piece is read into the memory they leave, the window's size
falls too (shared after the whole file is in, the freed strings would stay scattered in
memory the process keeps).

Only rows that are lists of strings of one width (CSV, TSV, a sheet) are changed; anything
else is returned as it came. All work is C loops over a piece's columns (map, zip, dict), no
Python code per cell.
"""

from __future__ import annotations

import gc
import operator
import os
from array import array
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from pathlib import Path

from matchlens.core.datasets.readers import iter_tables, read_table
from matchlens.core.datasets.source import Cancelled, settle
from matchlens.core.datasets.table import Table

# A column is "repeated" (labels, categories, model names) when its first piece has at most
# this share of distinct values; its values are kept across pieces, up to MAX_DISTINCT.
REPEATED_SHARE = 0.5
MAX_DISTINCT = 65_536
PIECE_ROWS = 32_768  # rows read between two shares (a piece's columns are a few MB)


class CellSharer:
    """Feed it the pieces of one table in order (`share`); it decides from the first piece
    which columns repeat values and which pairs of columns hold equal texts in some rows."""

    def __init__(self) -> None:
        self.width: int | None = None
        self._repeated: dict[int, dict[str, str]] = {}  # column -> its values seen so far
        # (j, k): where column k's cell equals column j's, k takes j's string
        self.pairs: list[tuple[int, int]] = []

    def share(self, rows: list) -> list:
        """`rows` with equal cells made one object (new row lists), or `rows` unchanged."""
        if not rows or not all(type(row) is list for row in rows[:64]):
            return rows
        width = len(rows[0])
        if width == 0 or not all(map(width.__eq__, map(len, rows))):
            return rows
        columns: list = list(zip(*rows, strict=True))
        if not all(type(v) is str for column in columns for v in column[:64]):
            return rows
        if self.width is None:
            self._plan(columns)
        elif width != self.width:
            return rows
        for j, values in list(self._repeated.items()):
            columns[j] = list(map(values.setdefault, columns[j], columns[j]))
            if len(values) > MAX_DISTINCT:  # not so repeated after all: stop collecting
                del self._repeated[j]
        for j, k in self.pairs:
            equal = map(operator.eq, columns[j], columns[k])
            # (k's cell, j's cell)[equal]: j's string where the two are equal, with no Python
            # code per row
            columns[k] = list(map(operator.getitem, zip(columns[k], columns[j], strict=True), equal))
        return list(map(list, zip(*columns, strict=True)))

    def _plan(self, columns: list) -> None:
        self.width = len(columns)
        for j, column in enumerate(columns):
            if len(set(column)) <= REPEATED_SHARE * len(column):
                self._repeated[j] = {}
        # Columns equal somewhere in the first piece are joined into groups (a = b here, b = c
        # there: one group), and every pair of a group is shared, the later pairs first: so a
        # cell equal to several earlier ones of its row ends as the first one's string.
        group = list(range(len(columns)))
        for j, k in combinations(range(len(columns)), 2):
            if group[k] != group[j] and any(map(operator.eq, columns[j], columns[k])):
                old, new = group[k], group[j]
                group = [new if g == old else g for g in group]
        self.pairs = sorted(((j, k) for j, k in combinations(range(len(columns)), 2)
                             if group[j] == group[k]), reverse=True)


def read_shared(path: str | os.PathLike, cancel: Callable[[], bool] | None = None,
                **options: str | None) -> Table:
    """`read_table(path, **options)` with equal cells shared: a .csv or .tsv file (or
    `format` csv/tsv) is read in pieces through a `CellSharer`, its `lines` an array of int64
    (a sequence of ints, like read_table's list); any other file is read whole.
    Raises what read_table raises, and Cancelled between pieces once `cancel()` says so."""
    fmt = options.get("format")
    kind = fmt or Path(os.fspath(path)).suffix.lower().lstrip(".")
    if kind not in ("csv", "tsv") or str(path) == "-" or options.get("sheet") \
            or options.get("records"):
        return read_table(path, cancel=cancel, **options)
    sharer = CellSharer()
    first: Table | None = None
    rows: list = []
    lines = array("q")  # 8 bytes a row where a list of ints is 36 (indexing gives ints)
    was_enabled = gc.isenabled()
    gc.disable()  # as read_table: no collection walks the rows while they pile up
    try:
        for piece in iter_tables(path, chunk_rows=PIECE_ROWS, **options):
            if cancel is not None and cancel():
                raise Cancelled(f"loading {piece.label} was cancelled")
            first = first or piece
            rows += sharer.share(piece.rows)
            lines.extend(piece.lines)
        settle(rows)
    finally:
        if was_enabled:
            gc.enable()
    assert first is not None  # iter_tables raises on a file without rows
    return replace(first, rows=rows, lines=lines)
