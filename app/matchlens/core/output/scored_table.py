"""Writing a scored table: input columns unchanged, then `<id>` and `<id>_pass` per metric."""

from __future__ import annotations

import io
import operator
import os
import queue
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import repeat
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import numpy as np
import tomli_w

from matchlens import __version__
from matchlens.core.atomic import atomic_writer
from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.source import gc_paused
from matchlens.core.datasets.table import ROW_LIST_KINDS
from matchlens.core.errors import ConfigError, OutputError
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.text.redact import scrub

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_VERDICT_TEXT = {1: "true", 0: "false", -1: ""}


@dataclass(frozen=True)
class ScoreColumn:
    name: str
    variant: str
    metric_id: str
    is_pass: bool
    is_ref: bool = False  # `<id>_ref`: which of several references won (--expected-any)


def score_columns(result: BatchResult) -> list[ScoreColumn]:
    """The added columns, suffixed `@<variant>` when there are several variants."""
    several = len(result.variants) > 1
    out = []
    for variant in result.variants:
        suffix = f"@{variant}" if several else ""
        for job in result.jobs:
            out.append(ScoreColumn(f"{job.id}{suffix}", variant, job.id, False))
            out.append(ScoreColumn(f"{job.id}_pass{suffix}", variant, job.id, True))
            if (variant, job.id) in result.refs:
                out.append(ScoreColumn(f"{job.id}_ref{suffix}", variant, job.id, False, True))
    return out


def check_collisions(input_columns: Sequence[str], result: BatchResult,
                     source: str | Path | None = None) -> None:
    clash = sorted(set(input_columns) & {c.name for c in score_columns(result)})
    if clash:
        where = f"{source}: " if source is not None else ""
        raise ConfigError(
            f"{where}the input already has column(s) {', '.join(clash)} (is it a scored "
            "table?); score the original file or rename those columns")


def formula_safe(cell: str) -> str:
    """Keep a cell text in a spreadsheet: '=SUM(A1)' is written as "'=SUM(A1)"; numbers stay."""
    if cell and cell[0] in _FORMULA_START and not _is_number(cell):
        return "'" + cell
    return cell


# A number as a spreadsheet reads it. Not float(): that also takes "-inf", "+nan", "-1_000"
# and "-１２", which a spreadsheet runs as formulas (#NAME?).
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def _is_number(text: str) -> bool:
    return _PLAIN_NUMBER.fullmatch(text) is not None


def _score_text(x: float, integer: bool) -> str:
    """'' for NaN, '3' for an integer metric, else repr (the shortest text that reads back as
    the same float)."""
    if x != x:
        return ""
    return str(int(x)) if integer else repr(x)


@dataclass(frozen=True)
class _Coded:
    """A column of texts as a code per row into a short list of distinct texts."""

    codes: np.ndarray
    texts: list[str]

    def expand(self) -> list[str]:
        return np.array(self.texts, dtype=object)[self.codes].tolist()


_MAX_COMBINED = 4096  # distinct texts of a column made by joining neighbours


def metric_columns(result: BatchResult
                    ) -> list[tuple[np.ndarray, bool, np.ndarray, np.ndarray | None]]:
    """(scores, integer, verdicts, winning references or None) of every metric, in the order
    of the added columns (each metric adds its score, its _pass and maybe its _ref column)."""
    out = []
    for col in score_columns(result):
        if not col.is_pass and not col.is_ref:
            spec = result.job(col.metric_id).spec
            key = (col.variant, col.metric_id)
            out.append((result.scores[key], spec.integer,
                        result.verdicts(col.variant, col.metric_id), result.refs.get(key)))
    return out


def _added_texts(metrics: list[tuple[np.ndarray, bool, np.ndarray, np.ndarray | None]],
                 start: int, stop: int) -> list[list[str]]:
    """The added cells of rows [start, stop), as few columns as possible: a metric's score and
    _pass texts, and then neighbouring metrics with few distinct values, are joined (with the
    comma between them) per distinct combination, not per row. No score text needs quoting."""
    merged: list[_Coded] = []
    for scores, integer, verdicts, refs in metrics:
        coded = _coded_metric(scores[start:stop], integer, verdicts[start:stop])
        if refs is not None:  # the winning reference's index; empty where none scored
            picked = refs[start:stop]
            top = int(picked.max(initial=-1))
            coded = _join_coded(coded, _Coded(picked + 1, ["", *map(str, range(top + 1))]))
        if merged and len(merged[-1].texts) * len(coded.texts) <= _MAX_COMBINED:
            merged[-1] = _join_coded(merged[-1], coded)
        else:
            merged.append(coded)
    return [coded.expand() for coded in merged]


def _coded_metric(scores: np.ndarray, integer: bool, verdicts: np.ndarray) -> _Coded:
    """'score,verdict' per row. The verdict is a function of the score, so each distinct score
    is formatted once (checked, not assumed)."""
    if scores.size and not (np.signbit(scores) & (scores == 0)).any():  # np.unique: -0.0 == 0.0
        distinct, first, codes = np.unique(scores, return_index=True, return_inverse=True)
        codes = codes.reshape(scores.shape)
        if (verdicts[first][codes] == verdicts).all():
            return _Coded(codes, [f"{_score_text(x, integer)},{_VERDICT_TEXT[v]}"
                                  for x, v in zip(distinct.tolist(), verdicts[first].tolist(),
                                                  strict=True)])
    texts = [f"{_score_text(x, integer)},{_VERDICT_TEXT[v]}"
             for x, v in zip(scores.tolist(), verdicts.tolist(), strict=True)]
    return _Coded(np.arange(len(texts)), texts)


def _join_coded(left: _Coded, right: _Coded) -> _Coded:
    width = len(right.texts)
    distinct, codes = np.unique(left.codes * width + right.codes, return_inverse=True)
    texts = [f"{left.texts[c // width]},{right.texts[c % width]}" for c in distinct.tolist()]
    return _Coded(codes.reshape(left.codes.shape), texts)


def _input_columns(table, start: int, stop: int) -> list[Sequence[str]]:
    """The cells of rows [start, stop), column by column."""
    if table.kind in ROW_LIST_KINDS:  # rows are lists of cell strings already
        rows = table.rows[start:stop]
    else:
        rows = [[table.cell_text(i, c) or "" for c in table.columns] for i in range(start, stop)]
    return list(zip(*rows, strict=True)) if rows else [[] for _ in table.columns]


_NEEDS_QUOTES = re.compile(r'[",\r\n]')


def csv_cell(cell: str) -> str:
    """One cell as Python's csv module writes it (QUOTE_MINIMAL, ',' and '"'), formula-safe."""
    cell = formula_safe(cell)
    if _NEEDS_QUOTES.search(cell):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def csv_line(row: Sequence[str]) -> str:
    return ",".join([csv_cell(cell) for cell in row])


def csv_column(cells: Sequence[str]) -> list[str]:
    """`csv_cell` of every cell. Most cells need no change, so the tests run over the whole
    column in C (substring search, startswith) and only flagged cells go through Python; a
    cell can only start with a character the column holds at all."""
    out = list(cells)
    n = len(out)
    joined = "".join(out)
    flagged = None
    starts = tuple(char for char in _FORMULA_START if char in joined)
    if starts:
        flagged = np.fromiter(map(str.startswith, out, repeat(starts)), dtype=bool, count=n)
    for char in '",\r\n':
        if char in joined:
            hit = np.fromiter(map(operator.contains, out, repeat(char)), dtype=bool, count=n)
            flagged = hit if flagged is None else flagged | hit
    if flagged is not None:
        for i in np.flatnonzero(flagged).tolist():
            out[i] = csv_cell(out[i])
    return out


_WRITE_ROWS = 50_000  # rows formatted and written at a time (a few MB of text)


def csv_header(table, result: BatchResult) -> str:
    """The header line: the input's columns, then the added score columns."""
    return csv_line([*table.columns, *(c.name for c in score_columns(result))]) + "\n"


def csv_block(table, added, start: int, stop: int) -> str:
    """Rows [start, stop) as CSV text.

    csv.writer scans long cells char by char (8 µs a row here); column-wise tests in C, one join
    per row and one string per block give the same bytes (checked against csv.writer in the
    tests), and the score texts are made block by block, so a million rows never exist as text
    at once.
    """
    columns = [csv_column(cells) for cells in _input_columns(table, start, stop)]
    columns += _added_texts(added, start, stop)
    return _join_rows(columns, stop - start)


def _join_rows(columns: list[list[str]], rows: int) -> str:
    """Cells joined with ',' and rows ended with '\n': one join over every cell and separator
    laid out by slice assignment (no string per row; 30% faster than a join per row)."""
    width = len(columns)
    if not rows or not width:
        return "\n" * rows
    flat = [","] * (2 * width * rows)
    for j, cells in enumerate(columns):
        flat[2 * j::2 * width] = cells  # raises if a column is short or long
    flat[2 * width - 1::2 * width] = ["\n"] * rows
    return "".join(flat)


def row_blocks(rows: int) -> list[tuple[int, int]]:
    """[start, stop) of the blocks of rows formatted and written at a time."""
    return [(start, min(start + _WRITE_ROWS, rows)) for start in range(0, rows, _WRITE_ROWS)]


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


_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8_safe(text: str) -> tuple[str, int]:
    """(text, 0), or the text with each lone surrogate as U+FFFD and how many there were.

    JSON may escape half of a UTF-16 pair ("a\\ud800b"); UTF-8 cannot hold it and CSV has no
    escape for it. JSON Lines output keeps it exactly, as a \\ud800 escape.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.subn("\ufffd", text)
    return text, 0


def write_text(write, text: str) -> int:
    """`write(text)`; returns how many lone surrogates had to become U+FFFD."""
    try:
        write(text)  # TextIOWrapper encodes the whole text before writing any of it
    except UnicodeEncodeError:
        text, replaced = utf8_safe(text)
        write(text)
        return replaced
    return 0


def encode_utf8(text: str) -> tuple[bytes, int]:
    try:
        return text.encode("utf-8"), 0
    except UnicodeEncodeError:
        safe, replaced = utf8_safe(text)
        return safe.encode("utf-8"), replaced


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
