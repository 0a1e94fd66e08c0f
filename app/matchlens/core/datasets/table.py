"""`Table`: a loaded data file (or a piece of one), its rows, columns and line numbers; and
`table_from_columns`, one over columns held in memory. `readers` makes them from files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from matchlens.core.datasets import json_numbers

_MISSING = object()
# Kinds whose rows are lists of cell strings aligned to `columns`; the others hold dicts.
ROW_LIST_KINDS = frozenset({"csv", "tsv", "xlsx", "xls", "ods"})
# A null is an empty cell in a column store; in JSON it is the text `null` the file holds.
_NULL_IS_EMPTY = frozenset({"parquet", "records"})


@dataclass(eq=False)
class Table:
    """A loaded data file (or a piece of one). CSV/TSV/spreadsheet rows are lists of cell
    strings aligned to `columns`; JSON, JSONL, Parquet and promptfoo rows are dicts. `rows` is
    a list, or any sequence of such rows (the window's column store, `column_store.StoredRows`).
    `lines[i]` is where row i is: the physical line where it starts (for a JSON array, the line
    where object i opens), or the row number of a spreadsheet or Parquet file (`unit` "row")."""

    path: Path
    columns: list[str]
    rows: Sequence = field(repr=False)
    lines: list[int] = field(repr=False)
    kind: str  # "csv" | "tsv" | "jsonl" | "json" | "parquet" | "xlsx" | "xls" | "ods" | "promptfoo"
    delimiter: str | None
    encoding: str
    notes: list[str] = field(default_factory=list)  # said once in a summary (renamed columns...)
    repeated: dict[str, list[int]] = field(default_factory=dict)  # header names given twice
    header_line: int | None = None
    variants: list[str] = field(default_factory=list)  # output columns the format names
    name: str | None = None  # how messages name the input when not by `path` ("<stdin>")
    unit: str = "line"
    column_index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.column_index = {name: i for i, name in enumerate(self.columns)}

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def label(self) -> str:
        """The input as messages name it."""
        return self.name or str(self.path)

    @property
    def is_delimited(self) -> bool:
        """True when rows are lists of cell strings (CSV, TSV, a spreadsheet's sheet)."""
        return self.kind in ROW_LIST_KINDS

    def raw_value(self, i: int, column: str) -> Any:
        """The cell as stored (a str for CSV, any JSON value for JSON), or `MISSING`."""
        if self.is_delimited:
            return self.rows[i][self.column_index[column]]
        return self.rows[i].get(column, _MISSING)

    def cell_text(self, i: int, column: str) -> str | None:
        """The cell as text: strings as is, other JSON values as compact JSON, missing -> None.
        KeyError for a name that is not one of `columns`."""
        if self.is_delimited:
            return self.rows[i][self.column_index[column]]
        if column not in self.column_index:
            raise KeyError(column)
        value = self.rows[i].get(column, _MISSING)
        if value is _MISSING or (value is None and self.kind in _NULL_IS_EMPTY):
            return None
        return value if isinstance(value, str) else json_numbers.dumps(value)

    def where(self, i: int) -> str:
        """How messages name row i: 'object 3' for a JSON array, '' otherwise."""
        return f"object {i + 1}" if self.kind == "json" else ""

    def piece(self, start: int, stop: int) -> Table:
        """Rows [start, stop) as a table of their own (same columns, notes and names)."""
        return replace(self, rows=self.rows[start:stop], lines=self.lines[start:stop])


MISSING = _MISSING


def table_from_columns(columns: Mapping[str, Sequence[Any]], name: str = "<data>") -> Table:
    """A Table over columns held in memory (a DataFrame's, say): one dict per row; None and
    NaN cells are missing values (the row gets a reason, not a score)."""
    names = [str(c) for c in columns]
    lists = [list(values) for values in columns.values()]
    n = len(lists[0]) if lists else 0
    if any(len(values) != n for values in lists):
        raise ValueError("every column must have the same number of values")
    rows = []
    for i in range(n):
        row = {}
        for key, values in zip(names, lists, strict=True):
            value = values[i]
            if value is None or (isinstance(value, float) and value != value):
                continue
            row[key] = value
        rows.append(row)
    return Table(Path(name), names, rows, list(range(1, n + 1)), "records", None, "utf-8",
                 name=name, unit="row")
