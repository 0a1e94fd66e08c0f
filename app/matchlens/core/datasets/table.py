"""`Table` and `read_table`: one call from a path to rows, columns and physical line numbers."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.delimited import check_delimiter, read_delimited, sniff_delimiter
from matchlens.core.datasets.jsonfiles import read_json, read_jsonl
from matchlens.core.datasets.source import open_source

_KIND_BY_SUFFIX = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl",
                   ".ndjson": "jsonl", ".json": "json"}
_MISSING = object()


@dataclass(eq=False)
class Table:
    """A loaded data file. CSV/TSV rows are lists of cell strings aligned to `columns`;
    JSON/JSONL rows are the decoded objects. `lines[i]` is the physical line where row i starts
    (for a JSON array, the line where object i opens)."""

    path: Path
    columns: list[str]
    rows: list = field(repr=False)
    lines: list[int] = field(repr=False)
    kind: str  # "csv" | "tsv" | "jsonl" | "json"
    delimiter: str | None
    encoding: str
    column_index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.column_index = {name: i for i, name in enumerate(self.columns)}

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def is_delimited(self) -> bool:
        return self.kind in ("csv", "tsv")

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
        if value is _MISSING:
            return None
        return value if isinstance(value, str) else json_numbers.dumps(value)

    def where(self, i: int) -> str:
        """How messages name row i: 'object 3' for a JSON array, '' otherwise."""
        return f"object {i + 1}" if self.kind == "json" else ""


MISSING = _MISSING


def read_table(path: str | os.PathLike, *, encoding: str | None = None,
               delimiter: str | None = None,
               cancel: Callable[[], bool] | None = None) -> Table:
    """Read a .csv, .tsv, .jsonl or .json file (other extensions: sniffed from the content).

    Raises DatasetError (one sentence naming the file, line and column) for any bad input, and
    Cancelled when `cancel()` returns True (it is polled every few thousand rows).
    """
    path = Path(path)
    source = open_source(path, encoding, cancel)
    if delimiter is not None:
        check_delimiter(source, delimiter)
    kind = _KIND_BY_SUFFIX.get(path.suffix.lower()) or _sniff_kind(source.head, delimiter)
    if kind in ("csv", "tsv"):
        used = delimiter or sniff_delimiter(source.head, "\t" if kind == "tsv" else ",")
        if path.suffix.lower() not in _KIND_BY_SUFFIX:
            kind = "tsv" if used == "\t" else "csv"
        columns, rows, lines = read_delimited(source, used)
        return Table(path, columns, rows, lines, kind, used, source.encoding)
    if kind == "jsonl" and not source.head.lstrip().startswith("["):
        columns, rows, lines = read_jsonl(source)
    else:  # a .json, or a .jsonl that holds an array (its lines could never be objects)
        kind, columns, rows, lines = read_json(source)
    return Table(path, columns, rows, lines, kind, None, source.encoding)


def _sniff_kind(head: str, delimiter: str | None) -> str:
    if delimiter is None:
        first = head.lstrip()[:1]
        if first == "[":
            return "json"
        if first == "{":
            return "jsonl"
    return "csv"
