"""Writing a scored table piece by piece, as `matchlens score` streams: the header once, then
each scored piece as soon as it is scored; the same bytes as writing it whole.

To a path the table goes through a temporary file renamed into place only when every piece is
in (an error midway, a bad JSONPath found at the end, Ctrl-C: no partial table); to standard
output it goes as it is made.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.source import gc_paused
from matchlens.core.errors import OutputError
from matchlens.core.output import csv_text, scored_table
from matchlens.core.output.csv_text import csv_block, csv_header, row_blocks, utf8_safe
from matchlens.core.output.score_columns import check_collisions, metric_columns
from matchlens.core.output.scored_table import jsonl_records
from matchlens.core.scoring.batch import BatchResult


class _Sink:
    """Where the scored text goes: the chosen format, the header written once."""

    def __init__(self, write_bytes, write_text, jsonl: bool) -> None:
        self._bytes = write_bytes
        self._text = write_text
        self._jsonl = jsonl
        self._started = False
        self.replaced = 0  # lone surrogates a CSV had to write as U+FFFD (csv_text.utf8_safe)

    def write(self, table, result: BatchResult) -> None:
        if not self._started:
            check_collisions(table.columns, result, table.label if hasattr(table, "label")
                             else table.path)
            if not self._jsonl:
                self._emit(csv_header(table, result))
            self._started = True
        with gc_paused():
            if self._jsonl:
                try:
                    self._emit(_jsonl_text(table, result), exact=True)
                except UnicodeEncodeError:  # a lone surrogate: those lines escape it, exactly
                    self._emit(_jsonl_text(table, result, escape_lone=True), exact=True)
                return
            added = metric_columns(result)
            for start, stop in row_blocks(len(table)):
                self._emit(csv_block(table, added, start, stop))

    def _emit(self, text: str, exact: bool = False) -> None:
        """Write `text`; a lone surrogate UTF-8 cannot hold becomes U+FFFD, unless `exact`
        (then UnicodeEncodeError, raised before anything of `text` was written)."""
        if self._bytes is not None:
            if exact:
                self._bytes(text.encode("utf-8"))
                return
            data, replaced = csv_text.encode_utf8(text)
            self.replaced += replaced
            self._bytes(data)
        elif exact:
            self._text(text)  # TextIOWrapper encodes all of `text` before writing any of it
        else:
            self.replaced += csv_text.write_text(self._text, text)


def _jsonl_text(table, result: BatchResult, escape_lone: bool = False) -> str:
    """The JSON Lines of a piece; numbers kept as written (json_numbers). `escape_lone`: a line
    UTF-8 cannot hold (a lone surrogate) is written with \\u escapes, still exact JSON."""
    out = []
    for record in jsonl_records(table, result):
        line = json_numbers.dumps(record)
        if escape_lone and utf8_safe(line)[1]:
            line = json_numbers.dumps(record, ensure_ascii=True)
        out.append(line + "\n")
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
            # piece from forking its second process (see core.scoring.forked.can_fork), which is
            # worth more than overlapping the writes.
            with scored_table.atomic_writer(path, mode="wb") as handle:
                yield _Sink(handle.write, None, jsonl=False)
        else:
            with scored_table.atomic_writer(path, newline="") as handle:
                yield _Sink(None, handle.write, jsonl=True)
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None
