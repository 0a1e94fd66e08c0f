"""What `matchlens.score` accepts, turned into the core's `Table`: a path goes through the very
reader `matchlens score` uses; a pandas or polars DataFrame or an Arrow table lends only the
columns the specs name, as JSON-like rows, so the core's column and JSONPath rules (a null is
missing, a number is its JSON text, a cell holding JSON is parsed) apply unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matchlens.core.datasets import Table, read_table
from matchlens.core.datasets.source import gc_paused
from matchlens.core.errors import ConfigError

FRAME_SOURCE = "DataFrame"  # how messages name an in-memory table ("DataFrame, line 3, ...")


@dataclass
class Loaded:
    table: Table  # what the column specs are resolved on
    input_frame: Callable[[], Any]  # the input columns, unchanged, as a pandas DataFrame
    source: str
    lines: Sequence[int] | None  # physical lines of a file's rows, for messages


def load(data: Any, specs: Sequence[str], *, encoding: str | None = None,
         delimiter: str | None = None, records: str | None = None,
         sheet: str | None = None) -> Loaded:
    """DatasetError/ConfigError (one sentence) when `data` cannot be read or is no table."""
    if isinstance(data, str | os.PathLike):
        table = read_table(Path(data), encoding=encoding, delimiter=delimiter, records=records,
                           sheet=sheet)
        return Loaded(table, lambda: table_frame(table), table.label, table.lines)
    kind = frame_kind(data)
    if kind == "pandas":
        columns = [str(c) for c in data.columns]
        table = _frame_table(columns, len(data), specs,
                             lambda i: _pandas_values(data.iloc[:, i]))
        return Loaded(table, lambda: data, FRAME_SOURCE, None)
    if kind == "polars":
        columns = list(data.columns)
        table = _frame_table(columns, data.height, specs,
                             lambda i: data.to_series(i).to_list())
        return Loaded(table, data.to_pandas, FRAME_SOURCE, None)
    import pyarrow as pa

    arrow = data if isinstance(data, pa.Table) else pa.table(data)
    table = _frame_table(list(arrow.column_names), arrow.num_rows, specs,
                         lambda i: arrow.column(i).to_pylist())
    return Loaded(table, arrow.to_pandas, FRAME_SOURCE, None)


def frame_kind(data: Any, who: str = "matchlens.score") -> str:
    """"pandas", "polars" or "arrow"; a ConfigError naming `who` for anything else."""
    root = type(data).__module__.partition(".")[0]
    if root == "pandas":
        import pandas as pd

        if isinstance(data, pd.DataFrame):
            return "pandas"
    elif root == "polars":
        import polars as pl

        if isinstance(data, pl.LazyFrame):
            raise ConfigError(f"{who} takes a polars DataFrame, not a LazyFrame: "
                              "call .collect() first")
        if isinstance(data, pl.DataFrame):
            return "polars"
    elif root == "dask":
        raise ConfigError("this is a Dask DataFrame: score it with matchlens.dask.score(ddf, ...)"
                          ", which scores it partition by partition")
    elif root == "pyarrow" or hasattr(data, "__arrow_c_stream__"):
        import pyarrow as pa

        if isinstance(data, pa.Table | pa.RecordBatch) or hasattr(data, "__arrow_c_stream__"):
            return "arrow"
    raise ConfigError(f"{who} takes a pandas or polars DataFrame, a pyarrow Table or "
                      f"a file's path, not {type(data).__module__}.{type(data).__name__}")


def _frame_table(columns: list[str], rows: int, specs: Sequence[str],
                 column_values: Callable[[int], list]) -> Table:
    """A Table of dict rows holding only the columns the specs read (all of them for a
    JSONPath that names none); `columns` lists every column, for the hints of an unknown
    name. Rows are numbered from 1 ("row 3" in messages)."""
    names = list(dict.fromkeys(name for spec in specs for name in _used(spec, columns)))
    for name in names:
        if columns.count(name) > 1:
            raise ConfigError(f"{FRAME_SOURCE}: {columns.count(name)} columns are named "
                              f"{name!r}; rename them so the one to score is clear")
    with gc_paused():  # a million small dicts: no cyclic collection walking them all
        data = _rows({name: column_values(columns.index(name)) for name in names}, rows)
    return Table(Path(FRAME_SOURCE), columns, data, range(1, rows + 1), "records", None,
                 "utf-8", name=FRAME_SOURCE, unit="row")


def _rows(columns: dict[str, list], count: int) -> list[dict]:
    if not columns:
        return [{}] * count  # one shared empty row: nothing reads from it or changes it
    if len(columns) == 1:
        ((name, values),) = columns.items()
        return [{name: v} for v in values]
    names = list(columns)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns.values(), strict=True)]


def _used(spec: str, columns: list[str]) -> list[str]:
    """The columns a spec reads: itself if it is a column; for a JSONPath the columns its text
    names (its first key is one of them), or every column when it names none (`$..answer`)."""
    if spec in columns:
        return [spec]
    if not spec.startswith("$"):
        return []  # unknown: the core says so, with a hint
    named = [c for c in columns if c and c in spec]
    return named or list(columns)


def _pandas_values(series: Any) -> list:
    """Python values, None where pandas holds a missing value (NaN, NaT, None, pd.NA)."""
    if series.dtype.kind in "mM":  # timestamps and durations read as their text
        series = series.astype(str).where(series.notna(), None)
    values = series.tolist()
    missing = series.isna().to_numpy()
    if missing.any():
        for i in missing.nonzero()[0].tolist():
            values[i] = None
    return values


def table_frame(table: Table) -> Any:
    """A file's rows as a pandas DataFrame: CSV cells as their text, JSON values as decoded
    (a key a row lacks is missing). Columns of Python objects: they point at the strings
    already read (a pandas `str` column would copy every text, costing as much as the read)."""
    import pandas as pd

    if table.is_delimited:
        width = len(table.columns)
        cells = list(zip(*table.rows, strict=True)) if table.rows else [()] * width
        frame = pd.DataFrame({i: pd.Series(cells[i], dtype=object) for i in range(width)})
    else:
        frame = pd.DataFrame.from_records(table.rows, columns=table.columns)
    frame.columns = list(table.columns)
    return frame
