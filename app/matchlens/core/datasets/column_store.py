"""`StoredRows`: a table's rows held as columns of UTF-8 bytes, each row made when it is asked
for; `StoredColumn`, one column of it as a sequence of cells.

A reader makes a Python `str` for every cell (49 bytes of header before the text) and a list or
dict for every row. The window keeps its table for the whole session, so at a million rows
of three ~110-character texts that is ~820 MB; here the same cells are ~360 MB: each column
piece is one `bytes` buffer of its texts and an array of offsets, and a row is built from
them only when code reads it (the table model shows a few dozen at a time).

Exactness: a text is stored as `str.encode("utf-8", "surrogatepass")`, which keeps any
Python string, lone surrogates included, and decodes back to an equal one. A cell that is not
a string (a JSON number, object, null; a key a JSON row lacks: `MISSING`) is kept as the object
it was; a column piece with many such cells is kept as a plain list. A JSON row whose keys come
in another order than the columns' keeps that order, so `rows[i]` equals what `read_table`
gives, key order included. Rows of any other shape (ragged lists) are kept as they came.
"""

from __future__ import annotations

import operator
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from matchlens.core.datasets.table import MISSING

# A column piece keeps a plain list (not a text buffer) when more than this share of its cells
# are not strings: JSON numbers, objects, missing keys.
OBJECT_SHARE = 0.125
_TEXT = object()  # "no exception for this cell: decode it"


def _offsets(sizes: Iterator[int], count: int, total: int) -> array:
    """Cumulative `sizes` from 0: 4 bytes a cell while a piece's texts fit in 2 GB (always,
    but for giant cells)."""
    ends = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.fromiter(sizes, dtype=np.int64, count=count), out=ends[1:])
    typecode = "i" if total < 2**31 else "q"
    return array(typecode, ends.astype(np.dtype(typecode)).tobytes())


class TextPiece:
    """One piece of one column: its string cells as UTF-8 in `buffer`, cell i at bytes
    `offsets[i]:offsets[i + 1]` and characters `chars[i]:chars[i + 1]` of the decoded buffer
    (`chars` is `offsets` when every character is one byte); any other cell kept as it is in
    `others` (row -> value).

    A range of cells is decoded in one call and cut by character offsets: ~0.4 µs a cell,
    where decoding each cell on its own costs ~1.5 µs (a bytes object and a decoder call each).
    """

    __slots__ = ("buffer", "offsets", "chars", "others")

    def __init__(self, cells: Sequence[Any], all_text: bool = False) -> None:
        self.others: dict[int, Any] = {}
        texts = cells
        if not all_text and set(map(type, cells)) != {str}:
            self.others = {i: c for i, c in enumerate(cells) if type(c) is not str}
            texts = [c if type(c) is str else "" for c in cells]
        joined = "".join(texts)
        self.buffer = joined.encode("utf-8", "surrogatepass")
        self.chars = _offsets(map(len, texts), len(texts), len(joined))
        self.offsets = self.chars  # ASCII: a character is a byte
        if len(self.buffer) != len(joined):
            sizes = map(len, map(str.encode, texts, repeat("utf-8"), repeat("surrogatepass")))
            self.offsets = _offsets(sizes, len(texts), len(self.buffer))

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def cell(self, i: int) -> Any:
        if self.others:
            value = self.others.get(i, _TEXT)
            if value is not _TEXT:
                return value
        offsets = self.offsets
        return self.buffer[offsets[i]:offsets[i + 1]].decode("utf-8", "surrogatepass")

    def cells(self, start: int, stop: int) -> list[Any]:
        offsets, chars = self.offsets, self.chars
        text = self.buffer[offsets[start]:offsets[stop]].decode("utf-8", "surrogatepass")
        base = chars[start]
        if len(text) != chars[stop] - base:  # never (surrogates decode one by one): but if so
            out = [self.buffer[offsets[i]:offsets[i + 1]].decode("utf-8", "surrogatepass")
                   for i in range(start, stop)]
        else:
            ends = map(operator.sub, chars[start + 1:stop + 1], repeat(base))
            out = list(map(text.__getitem__, map(slice, map(operator.sub, chars[start:stop],
                                                             repeat(base)), ends)))
        for i, value in self.others.items():
            if start <= i < stop:
                out[i - start] = value
        return out

    def nbytes(self) -> int:
        arrays = (self.offsets,) if self.chars is self.offsets else (self.offsets, self.chars)
        return len(self.buffer) + sum(a.itemsize * len(a) for a in arrays)


def column_piece(cells: Sequence[Any]) -> TextPiece | list:
    """A text buffer for a piece of one column, or the cells as a list when many are not
    strings (numbers, objects: their objects are kept either way)."""
    if set(map(type, cells)) == {str}:
        return TextPiece(cells, all_text=True)
    if sum(type(c) is not str for c in cells) > OBJECT_SHARE * len(cells):
        return list(cells)
    return TextPiece(cells)


def _cell(part: TextPiece | list, i: int) -> Any:
    return part.cell(i) if type(part) is TextPiece else part[i]


def _cells(part: TextPiece | list, start: int, stop: int) -> list[Any]:
    return part.cells(start, stop) if type(part) is TextPiece else part[start:stop]


class ListLike(Sequence):
    """A sequence that equals a list of the same items (as the reader's lists did)."""

    __hash__ = None  # type: ignore[assignment] - mutable-looking, as a list

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ListLike | list):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented


class ColumnPiece:
    """Rows of one piece as column parts; `orders`: row -> its keys, for JSON rows whose keys
    are not in the columns' order (the others' keys are the columns they have)."""

    __slots__ = ("parts", "orders", "size")

    def __init__(self, parts: list[TextPiece | list], orders: dict[int, tuple], size: int
                 ) -> None:
        self.parts, self.orders, self.size = parts, orders, size


class StoredRows(ListLike):
    """Rows of a table kept as column pieces (module docstring). `as_lists`: each row is the
    list of its cells aligned to `columns` (CSV, TSV, sheets); else a dict (JSON, Parquet)
    without the keys it lacks. Pieces are added in order with `add`."""

    def __init__(self, columns: Sequence[str], as_lists: bool) -> None:
        self.columns = list(columns)
        self.as_lists = as_lists
        self._pieces: list[ColumnPiece | list] = []  # a list: rows kept as they came
        self._starts: list[int] = []
        self._rows = 0

    # -- building ------------------------------------------------------------------------------
    def add(self, rows: list, columns: Sequence[str] | None = None) -> None:
        """Keep one piece of rows, in file order. `columns`: the columns so far, when a reader
        adds some as it goes (JSON Lines read in one pass): the ones kept plus new ones."""
        if columns is not None and list(columns) != self.columns:
            if list(columns[:len(self.columns)]) != self.columns:
                raise ValueError("a piece's columns must extend the columns before it")
            self.columns = list(columns)
        if not rows:
            return
        piece = self._as_columns(rows)
        self._pieces.append(rows if piece is None else piece)
        self._starts.append(self._rows)
        self._rows += len(rows)

    def _as_columns(self, rows: list) -> ColumnPiece | None:
        width = len(self.columns)
        kinds = set(map(type, rows))
        if self.as_lists:
            if kinds != {list} or not all(map(width.__eq__, map(len, rows))):
                return None
            cells = list(zip(*rows, strict=True)) if width else []
            return ColumnPiece([column_piece(c) for c in cells], {}, len(rows))
        if kinds != {dict}:
            return None
        orders: dict[int, tuple] = {}
        keys = list(map(tuple, rows))
        shapes = set(keys)
        known = set(self.columns)
        if not all(known.issuperset(shape) for shape in shapes):
            return None  # a key that is no column: keep such rows as they are
        odd = {s for s in shapes if s != tuple(c for c in self.columns if c in set(s))}
        if odd:
            orders = {i: k for i, k in enumerate(keys) if k in odd}
        del keys
        parts = [column_piece(list(map(operator.methodcaller("get", name, MISSING), rows)))
                 for name in self.columns]
        return ColumnPiece(parts, orders, len(rows))

    # -- reading -------------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._rows

    def locate(self, i: int) -> tuple[int, int]:
        """(piece, row within it) of row i; IndexError outside the table."""
        if i < 0:
            i += self._rows
        if not 0 <= i < self._rows:
            raise IndexError("row index out of range")
        k = bisect_right(self._starts, i) - 1
        return k, i - self._starts[k]

    def __getitem__(self, i):  # noqa: ANN001 - int or slice, as a list's
        if isinstance(i, slice):
            return [self._row(*self.locate(r)) for r in range(*i.indices(self._rows))]
        return self._row(*self.locate(i))

    def __iter__(self) -> Iterator[Any]:
        for k in range(len(self._pieces)):
            yield from self.piece_rows(k)

    def piece_rows(self, k: int) -> list:
        """The rows of piece k, as read."""
        piece = self._pieces[k]
        if type(piece) is list:
            return list(piece)
        columns = [_cells(part, 0, piece.size) for part in piece.parts]
        if self.as_lists:
            return list(map(list, zip(*columns, strict=True))) if columns else \
                [[] for _ in range(piece.size)]
        if not columns:
            return [{} for _ in range(piece.size)]
        return [self._dict(piece, j, cells) for j, cells in enumerate(zip(*columns, strict=True))]

    def _row(self, k: int, j: int) -> Any:
        piece = self._pieces[k]
        if type(piece) is list:
            row = piece[j]
            return list(row) if type(row) is list else row
        cells = [_cell(part, j) for part in piece.parts]  # (a piece before a column came: short)
        return cells if self.as_lists else self._dict(piece, j, cells)

    def _dict(self, piece: ColumnPiece, j: int, cells: Sequence[Any]) -> dict:
        order = piece.orders.get(j)
        # zip stops at a piece's last column: later ones came after it, none is in its rows
        if order is None:
            return {name: v for name, v in zip(self.columns, cells, strict=False)
                    if v is not MISSING}
        at = dict(zip(self.columns, cells, strict=False))
        return {name: at[name] for name in order}

    def column(self, name: str) -> StoredColumn:
        """One column's cells (MISSING where a JSON row lacks the key)."""
        return StoredColumn(self, self.columns.index(name))

    def cell(self, k: int, j: int, c: int) -> Any:
        """Column c of row j of piece k."""
        piece = self._pieces[k]
        if type(piece) is list:
            row = piece[j]
            return row[c] if self.as_lists else row.get(self.columns[c], MISSING)
        return _cell(piece.parts[c], j) if c < len(piece.parts) else MISSING

    def cells(self, k: int, c: int, start: int, stop: int) -> list[Any]:
        """Column c of rows [start, stop) of piece k."""
        piece = self._pieces[k]
        if type(piece) is list:
            if self.as_lists:
                return [row[c] for row in piece[start:stop]]
            return list(map(operator.methodcaller("get", self.columns[c], MISSING),
                            piece[start:stop]))
        if c >= len(piece.parts):
            return [MISSING] * (stop - start)
        return _cells(piece.parts[c], start, stop)

    def part(self, k: int, c: int) -> TextPiece | list | None:
        """Column c's part of piece k (None: that piece keeps whole rows, or came before the
        column did)."""
        piece = self._pieces[k]
        return None if type(piece) is list or c >= len(piece.parts) else piece.parts[c]

    def bounds(self) -> list[tuple[int, int]]:
        """(first row, rows) of each piece."""
        return [(s, len(p) if type(p) is list else p.size)
                for s, p in zip(self._starts, self._pieces, strict=True)]


class StoredColumn(ListLike):
    """One column of a `StoredRows`: `column[i]` the cell, a slice a list of cells."""

    def __init__(self, rows: StoredRows, index: int) -> None:
        self.rows, self.index = rows, index

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):  # noqa: ANN001 - int or slice, as a list's
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self.rows))
            if step != 1:
                return [self[r] for r in range(start, stop, step)]
            return self._range(start, stop)
        return self.rows.cell(*self.rows.locate(i), self.index)

    def _range(self, start: int, stop: int) -> list[Any]:
        out: list[Any] = []
        for k, (first, size) in enumerate(self.rows.bounds()):
            lo, hi = max(start, first), min(stop, first + size)
            if lo < hi:
                out += self.rows.cells(k, self.index, lo - first, hi - first)
        return out

    def __iter__(self) -> Iterator[Any]:
        for k, (_first, size) in enumerate(self.rows.bounds()):
            yield from self.rows.cells(k, self.index, 0, size)

    def not_text(self) -> Iterator[tuple[int, Any]]:
        """(row, cell) for every cell that is not a str, in row order."""
        for k, (first, size) in enumerate(self.rows.bounds()):
            part = self.rows.part(k, self.index)
            if type(part) is TextPiece:
                for j in sorted(part.others):
                    yield first + j, part.others[j]
                continue
            cells = part if part is not None else self.rows.cells(k, self.index, 0, size)
            for j, cell in enumerate(cells):
                if type(cell) is not str:
                    yield first + j, cell


class TextColumn(ListLike):
    """A column's cells with some replaced (`overrides`: row -> value): a JSON column's text,
    None where a row has none and compact JSON for numbers and objects."""

    def __init__(self, cells: Sequence[Any], overrides: dict[int, Any]) -> None:
        self.cells, self.overrides = cells, overrides

    def __len__(self) -> int:
        return len(self.cells)

    def __getitem__(self, i):  # noqa: ANN001 - int or slice, as a list's
        if isinstance(i, slice):
            rows = range(*i.indices(len(self.cells)))
            out = self.cells[i]
            for at, r in enumerate(rows):
                if r in self.overrides:
                    out[at] = self.overrides[r]
            return out
        if i < 0:
            i += len(self.cells)
        value = self.overrides.get(i, _TEXT)
        return self.cells[i] if value is _TEXT else value

    def __iter__(self) -> Iterator[Any]:
        get = self.overrides.get
        for i, cell in enumerate(self.cells):
            value = get(i, _TEXT)
            yield cell if value is _TEXT else value
