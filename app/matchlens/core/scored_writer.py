"""Writing a scored table piece by piece, as `matchlens score` streams: the header once, then
each scored piece as soon as it is scored; the same bytes as writing it whole.

To a path the table goes through a temporary file renamed into place only when every piece is
in (an error midway, a bad JSONPath found at the end, Ctrl-C: no partial table); to standard
output it goes as it is made.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from matchlens.core import scored_table
from matchlens.core.batch import BatchResult
from matchlens.core.datasets.source import gc_paused
from matchlens.core.errors import OutputError
from matchlens.core.scored_table import (
    _blocks,
    _csv_block,
    _csv_header,
    _json_value,
    _metric_columns,
    _record,
    check_collisions,
    score_columns,
)


class _Sink:
    """Where the scored text goes: the chosen format, the header written once."""

    def __init__(self, write_bytes, write_text, jsonl: bool) -> None:
        self._bytes = write_bytes
        self._text = write_text
        self._jsonl = jsonl
        self._started = False

    def write(self, table, result: BatchResult) -> None:
        if not self._started:
            check_collisions(table.columns, result, table.label if hasattr(table, "label")
                             else table.path)
            if not self._jsonl:
                self._emit(_csv_header(table, result))
            self._started = True
        with gc_paused():
            if self._jsonl:
                self._emit(_jsonl_text(table, result))
                return
            added = _metric_columns(result)
            for start, stop in _blocks(len(table)):
                self._emit(_csv_block(table, added, start, stop))

    def _emit(self, text: str) -> None:
        if self._bytes is not None:
            self._bytes(text.encode("utf-8"))
        else:
            self._text(text)


def _jsonl_text(table, result: BatchResult) -> str:
    columns = score_columns(result)
    values = []
    for col in columns:
        if col.is_pass:
            verdicts = result.verdicts(col.variant, col.metric_id).tolist()
            values.append([None if v == -1 else bool(v) for v in verdicts])
        else:
            integer = result.job(col.metric_id).spec.integer
            scores = result.scores[(col.variant, col.metric_id)].tolist()
            values.append([_json_value(x, integer) for x in scores])
    out = []
    for i in range(len(table)):
        record: dict[str, Any] = _record(table, i)
        for col, column_values in zip(columns, values, strict=True):
            record[col.name] = column_values[i]
        out.append(json.dumps(record, ensure_ascii=False, default=str) + "\n")
    return "".join(out)


@contextlib.contextmanager
def scored_writer(path: Path | None, input_path: Path | None = None,
                  stream: TextIO | None = None) -> Iterator[_Sink]:
    """A sink whose `write(table_piece, result)` appends a scored piece. `path` None: CSV to
    `stream` (standard output)."""
    if path is None:
        out = stream or sys.stdout
        yield _Sink(None, out.write, jsonl=False)
        return
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise OutputError(f"{path}: the output must end in .csv or .jsonl")
    if input_path is not None and input_path.exists() and \
            path.resolve() == Path(input_path).resolve():
        raise OutputError(f"{path}: refusing to overwrite the input file")
    try:
        if suffix == ".csv":
            # looked up on scored_table at each call: one atomic writer for every scored table.
            # Written on this thread: a writer thread alive would keep the scoring of each
            # piece from forking its second process (see core.batch.can_fork), which is
            # worth more than overlapping the writes.
            with scored_table.atomic_writer(path, mode="wb") as handle:
                yield _Sink(handle.write, None, jsonl=False)
        else:
            with scored_table.atomic_writer(path, newline="") as handle:
                yield _Sink(None, handle.write, jsonl=True)
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None
