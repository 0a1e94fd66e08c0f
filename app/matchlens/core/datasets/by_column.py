"""The protocol of rows that give one column whole, without a row object each: `ByColumn`
(rows with `column(name)`) and `Cells` (what that returns: the column's cells as a sequence,
and `not_text()`, the cells that are not text).

`columns.resolve_column` asks rows for it before walking them a row at a time. The window's
column store (`column_store.StoredRows`) implements it over its text buffers, and a run joined
by id (`core.scoring.run_table.JoinedRows`) over the opened file's column and the joined
files' pyarrow arrays, so neither turns a column of a million rows into a list of strings.
A cell is a `str`, or what the row holds that is not one: None (a JSON null), a number or an
object, and `MISSING` where the row has no such column.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, runtime_checkable

from matchlens.core.datasets.table import MISSING, Table


@runtime_checkable
class Cells(Protocol):
    """One column's cells: `cells[i]` a cell, `cells[a:b]` a list of them."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: Any) -> Any: ...  # an int or a slice, as a list takes

    def __iter__(self) -> Iterator[Any]: ...

    def not_text(self) -> Iterator[tuple[int, Any]]:
        """(row, cell) for every cell that is not a str, in row order."""
        ...


@runtime_checkable
class ByColumn(Protocol):
    """Rows that answer a column by name."""

    def column(self, name: str) -> Cells: ...


class CellList(list):
    """Cells already made one a row (a table held as a plain list), with `not_text`."""

    def not_text(self) -> Iterator[tuple[int, Any]]:
        return ((i, cell) for i, cell in enumerate(self) if type(cell) is not str)


def cells_of(table: Table, name: str) -> Cells:
    """Column `name` of `table` as cells: asked of rows that answer by column, else read
    from each row (a list or a dict a row)."""
    rows = table.rows
    if isinstance(rows, ByColumn):
        return rows.column(name)
    if table.is_delimited:
        at = table.column_index[name]
        return CellList(row[at] for row in rows)
    return CellList(row.get(name, MISSING) for row in rows)
