"""The text of a scored CSV: each cell as Python's csv module writes it and safe from a
spreadsheet's formulas, the score and verdict texts, blocks of rows formatted column-wise, and
the UTF-8 that carries them (a lone surrogate becomes U+FFFD)."""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from matchlens.core.datasets.table import ROW_LIST_KINDS
from matchlens.core.output.score_columns import score_columns
from matchlens.core.scoring.batch import BatchResult

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_VERDICT_TEXT = {1: "true", 0: "false", -1: ""}


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
