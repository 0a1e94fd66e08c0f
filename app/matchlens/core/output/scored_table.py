"""Writing a scored table: input columns unchanged, then `<id>` and `<id>_pass` per metric.
A whole table to a CSV or JSON Lines file (atomically) or to standard output, and the sidecar
that says how it was made (the CSV's text: csv_text.py; the added columns: score_columns.py)."""

from __future__ import annotations

import io
import os
import queue
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import tomli_w

from matchlens import __version__
from matchlens.core.atomic import atomic_writer
from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.source import gc_paused
from matchlens.core.errors import OutputError
from matchlens.core.output.csv_text import (
    csv_block,
    csv_header,
    encode_utf8,
    row_blocks,
    write_text,
)
from matchlens.core.output.score_columns import check_collisions, metric_columns, score_columns
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.text.redact import scrub


def write_csv(handle: TextIO, table, result: BatchResult) -> int:
    """Returns how many lone surrogates were written as U+FFFD (see `utf8_safe`)."""
    replaced = write_text(handle.write, csv_header(table, result))
    added = metric_columns(result)
    # The cyclic GC is paused: each block allocates tuples by the thousand, and every
    # collection would walk all the rows of the table.
    with gc_paused():
        for start, stop in row_blocks(len(table)):
            replaced += write_text(handle.write, csv_block(table, added, start, stop))
    return replaced



def _write_csv_file(handle: BinaryIO, table, result: BatchResult) -> int:
    """The same bytes as `write_csv` on a UTF-8 text file; a second thread writes each block
    while the next is formatted (a write releases the GIL)."""
    added = metric_columns(result)
    replaced = 0
    with gc_paused(), _BackgroundWriter(handle) as out:
        data, replaced = encode_utf8(csv_header(table, result))
        out.write(data)
        for start, stop in row_blocks(len(table)):
            data, count = encode_utf8(csv_block(table, added, start, stop))
            replaced += count
            out.write(data)
    return replaced


class _BackgroundWriter:
    """Writes byte blocks in order on a thread; an error there is raised in the caller.

    Only from the main thread (the CLI): a Python thread started from a thread Python did not
    start (a Qt worker) would leave that worker registered as a dummy thread for good. There,
    and when threads cannot start, the blocks are written directly.
    """

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=1)
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if threading.get_ident() == threading.main_thread().ident:
            self._thread = threading.Thread(target=self._run, name="matchlens-writer",
                                            daemon=True)

    def __enter__(self) -> _BackgroundWriter:
        if self._thread is not None:
            try:
                self._thread.start()
            except RuntimeError:  # can't start new thread
                self._thread = None
        return self

    def _run(self) -> None:
        while (data := self._queue.get()) is not None:
            if self._error is None:
                try:
                    self._handle.write(data)
                except BaseException as err:  # raised again in the caller's thread
                    self._error = err

    def write(self, data: bytes) -> None:
        if self._thread is None:
            self._handle.write(data)
            return
        self._raise()
        self._queue.put(data)

    def __exit__(self, *exc_info) -> None:
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join()
        if exc_info[0] is None:
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error


def _json_value(x: float, integer: bool) -> Any:
    if x != x:
        return None
    return int(x) if integer else x


def jsonl_records(table, result: BatchResult) -> Iterator[dict[str, Any]]:
    """Each row of `table` as a JSON Lines record with the score, pass and winning-reference
    columns added: null where none scored. Shared by the whole and the streamed writers."""
    columns = score_columns(result)
    values = []
    for col in columns:
        if col.is_ref:  # which of several references won; null where none scored
            values.append([None if r < 0 else r
                           for r in result.refs[(col.variant, col.metric_id)].tolist()])
        elif col.is_pass:
            verdicts = result.verdicts(col.variant, col.metric_id).tolist()
            values.append([None if v == -1 else bool(v) for v in verdicts])
        else:
            integer = result.job(col.metric_id).spec.integer
            scores = result.scores[(col.variant, col.metric_id)].tolist()
            values.append([_json_value(x, integer) for x in scores])
    for i in range(len(table)):
        record = _record(table, i)
        for col, column_values in zip(columns, values, strict=True):
            record[col.name] = column_values[i]
        yield record


def write_jsonl(handle: TextIO, table, result: BatchResult) -> None:
    for record in jsonl_records(table, result):
        line = json_numbers.dumps(record)
        try:
            handle.write(line + "\n")
        except UnicodeEncodeError:  # a lone surrogate ("a\ud800b" in the input): escaped, exact
            handle.write(json_numbers.dumps(record, ensure_ascii=True) + "\n")


def _record(table, i: int) -> dict[str, Any]:
    row = table.rows[i]
    if isinstance(row, dict):
        return dict(row)
    return dict(zip(table.columns, row, strict=True))


def write_scored_table(path: Path | None, table, result: BatchResult,
                       stream: TextIO | None = None) -> int:
    """Write to `path` atomically (.csv or .jsonl), or as CSV to `stream` (stdout).

    Returns how many lone surrogates a CSV had to write as U+FFFD (0 nearly always)."""
    check_collisions(table.columns, result, table.path)
    if path is None:
        buffer = stream or sys.stdout
        return write_csv(buffer, table, result)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise OutputError(f"{path}: the output must end in .csv or .jsonl")
    if path.resolve() == Path(table.path).resolve():
        raise OutputError(f"{path}: refusing to overwrite the input file")
    try:
        if suffix == ".csv":
            with atomic_writer(path, mode="wb") as handle:
                return _write_csv_file(handle, table, result)
        with atomic_writer(path, newline="") as handle:
            write_jsonl(handle, table, result)
        return 0
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None


def provenance(result: BatchResult, config_dict: dict[str, Any], *, source: Path,
               expected: str, model: str | None = None) -> dict[str, Any]:
    """What made a scored table: a TOML `--config` can read back (with a [matchlens] note)."""
    info = {
        "version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "input": _path_text(source),
        "expected": expected,
        "actual": list(result.variants),
        "metrics": [job.id for job in result.jobs],
    }
    if model:
        info["embedding_model"] = model
    return {"matchlens": info, **config_dict}


def _path_text(path: Path | str) -> str:
    """The path as text TOML can hold: a name that is not UTF-8 (Python keeps its bytes as lone
    surrogates) shows those bytes as \\xNN, as `ls` does, instead of failing the write."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def sidecar_path(output: Path) -> Path:
    return output.with_name(output.name + ".matchlens.toml")


def write_sidecar(output: Path, data: dict[str, Any]) -> Path:
    """`out.csv` → `out.csv.matchlens.toml`, so the options and thresholds travel with it."""
    sidecar = sidecar_path(output)
    text = io.StringIO()
    text.write("# How this scored table was made. `matchlens score --config` reads this file.\n")
    text.write(tomli_w.dumps(data))
    try:
        with atomic_writer(sidecar) as handle:
            handle.write(scrub(text.getvalue()))  # a key in a path or a URL never lands here
    except OSError as err:
        raise OutputError(f"{sidecar}: cannot write ({err.strerror or err})") from None
    return sidecar
