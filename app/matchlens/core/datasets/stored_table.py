"""`read_stored`: a data file read as `read_table` reads it, its rows kept in a column store
(`column_store.StoredRows`) and its line numbers in an int64 array: what the window keeps
for a whole session, at about half the memory of the reader's Python rows.

CSV, TSV, JSON Lines and Parquet are read in pieces, each piece turned into columns before the
next is read, so the Python rows of the whole file never exist at once. Other inputs (a .json
document, a spreadsheet, standard input, text whose format is sniffed) are read whole by
`read_table` and then moved into the store a piece at a time.
"""

from __future__ import annotations

import gc
import os
import sys
from array import array
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from matchlens.core.datasets.column_store import StoredRows
from matchlens.core.datasets.readers import iter_tables, read_table
from matchlens.core.datasets.source import Cancelled
from matchlens.core.datasets.table import Table

PIECE_ROWS = 32_768  # rows read between two conversions (a piece's rows are a few MB)
# What iter_tables reads without holding the file whole (by --format or extension).
_STREAMED = frozenset({"csv", "tsv", "tab", "jsonl", "ndjson", "parquet", "pq"})


def read_stored(path: str | os.PathLike, cancel: Callable[[], bool] | None = None,
                **options: str | None) -> Table:
    """`read_table(path, **options)` with the rows in a column store: the same columns, rows
    (`rows[i]` equal to read_table's), line numbers, notes and errors. Raises what read_table
    raises, and Cancelled between pieces once `cancel()` says so."""
    was_enabled = gc.isenabled()
    gc.disable()  # as read_table: no collection walks a piece's rows while they are made
    try:
        first: Table | None = None
        rows: StoredRows | None = None
        lines = array("q")  # 8 bytes a row where a list of ints is 36 (indexing gives ints)
        for piece in _pieces(path, cancel, options):
            if cancel is not None and cancel():
                raise Cancelled(f"loading {piece.label} was cancelled")
            if first is None:
                first = piece
                rows = StoredRows(piece.columns, piece.is_delimited)
            rows.add(piece.rows, piece.columns)
            lines.extend(piece.lines)
    finally:
        if was_enabled:
            gc.enable()
    assert first is not None and rows is not None  # the readers raise on a file without rows
    return replace(first, columns=rows.columns, rows=rows, lines=lines)


def return_arrow_memory() -> None:
    """pyarrow's allocator (a Parquet file's batches) keeps freed memory for reuse: ~140 MB
    after a million-row file, for a window that will not read another soon. Given back.

    Runs a collection, so call it after read_stored on a thread that may free anything: in
    the window only the GUI thread may (ui/gui_collector.py), never the worker that read."""
    arrow = sys.modules.get("pyarrow")
    if arrow is not None:
        gc.collect(1)  # the last batches wait in young cycles (the collector was off)
        arrow.default_memory_pool().release_unused()


def _pieces(path: str | os.PathLike, cancel: Callable[[], bool] | None,
            options: dict[str, str | None]) -> Iterator[Table]:
    kind = options.get("format") or Path(os.fspath(path)).suffix.lower().lstrip(".")
    if kind in _STREAMED and str(path) != "-" and not options.get("sheet") \
            and not options.get("records"):
        yield from iter_tables(path, chunk_rows=PIECE_ROWS, growing=True, **options)
        return
    whole = read_table(path, cancel=cancel, **options)
    rows, lines = whole.rows, whole.lines
    whole.rows = whole.lines = []  # the pieces below own them; each goes once converted
    while rows:
        piece = replace(whole, rows=rows[:PIECE_ROWS], lines=lines[:PIECE_ROWS])
        del rows[:PIECE_ROWS], lines[:PIECE_ROWS]
        yield piece
