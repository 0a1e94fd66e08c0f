"""Parquet files, read with pyarrow one row group (or batch) at a time.

Columns are found by name; a nested column (a struct, a list) arrives as a dict or a list, so a
JSONPath reaches inside it (`$.output.entity`, `$.contexts[0]`) exactly as in a JSON file, and
writing it back as a cell gives compact JSON. Bytes, dates, decimals and NaN are read as the
text a person sees (`arrow_cells`). Two fields of the same name load (the repeat renamed, as in
a CSV header) and naming that name is refused. Rows are numbered from 1 (`unit` "row").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from matchlens.core.datasets.arrow_cells import column_values
from matchlens.core.datasets.formats import Request, data_format
from matchlens.core.datasets.headers import unique_header
from matchlens.core.datasets.source import Cancelled, gc_paused, settle
from matchlens.core.datasets.table import Table
from matchlens.core.errors import DatasetError, first_line

_BATCH_ROWS = 50_000


def iter_parquet(real: Path, display: Path, name: str, chunk_rows: int = _BATCH_ROWS,
                 cancel: Callable[[], bool] | None = None) -> Iterator[Table]:
    """Tables of at most `chunk_rows` rows; only one batch is decoded at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        handle = pq.ParquetFile(real)
    except (pa.ArrowException, OSError) as exc:
        raise DatasetError(f"is not a Parquet file pyarrow can read ({first_line(exc)})",
                           file=name) from None
    header = unique_header([str(n) for n in handle.schema_arrow.names])
    notes = [f"{name}: {header.note}"] if header.note else []
    label = None if name == str(display) else name
    done = 0
    try:
        for batch in handle.iter_batches(batch_size=chunk_rows):
            if cancel is not None and cancel():
                raise Cancelled(f"loading {name} was cancelled")
            with gc_paused():
                columns = [column_values(batch.column(j), header.names[j], done + 1, name)
                           for j in range(batch.num_columns)]
                rows = [dict(zip(header.names, cells, strict=True))
                        for cells in zip(*columns, strict=True)]
            lines = list(range(done + 1, done + 1 + len(rows)))
            done += len(rows)
            yield Table(display, header.names, rows, lines, "parquet", None, "parquet",
                        notes=notes, repeated=header.repeated, name=label, unit="row")
    except (pa.ArrowException, OSError) as exc:
        raise DatasetError(f"cannot be read past row {done} ({first_line(exc)})",
                           file=name) from None
    finally:
        handle.close()
    if done == 0:
        raise DatasetError("has no rows", file=name)


def read_parquet(real: Path, display: Path, name: str,
                 cancel: Callable[[], bool] | None = None) -> Table:
    """The whole file as one table (the window's way)."""
    pieces = list(iter_parquet(real, display, name, _BATCH_ROWS, cancel))
    first = pieces[0]
    rows = [row for piece in pieces for row in piece.rows]
    settle(rows)
    return Table(display, first.columns, rows, list(range(1, len(rows) + 1)), "parquet", None,
                 "parquet", notes=first.notes, repeated=first.repeated, name=first.name,
                 unit="row")


def _parquet_pieces(request: Request, chunk_rows: int) -> Iterator[Table]:
    return iter_parquet(request.real, request.display, request.name, chunk_rows)


@data_format(id="parquet", label="Parquet", order=50, suffixes=(".parquet", ".pq"),
             magic=(b"PAR1",), pieces=_parquet_pieces)
def read_parquet_file(request: Request) -> Table:
    return read_parquet(request.real, request.display, request.name, request.cancel)
