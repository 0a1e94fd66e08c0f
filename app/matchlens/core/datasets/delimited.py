"""CSV and TSV: delimiter detection, strict parsing, physical line numbers, header checks."""

from __future__ import annotations

import csv
import sys
from collections import defaultdict

from matchlens.core.datasets.source import Source

CANDIDATES = ",;\t|"
_CANCEL_EVERY = 4096
_DELIMITER_NAMES = {",": "a comma", ";": "a semicolon", "\t": "a tab", "|": "a '|'"}


def sniff_delimiter(head: str, default: str) -> str:
    """The delimiter of a sample: only ones the header line contains are candidates, csv.Sniffer
    picks among several, and `default` is used when the header holds none (a single column)."""
    sample = head[: head.rfind("\n") + 1] or head  # whole lines only
    first_line = sample.split("\n", 1)[0]
    candidates = [d for d in CANDIDATES if d in first_line]
    if not candidates:
        return default
    if len(candidates) == 1:
        return candidates[0]
    if default == "\t" and "\t" in candidates:  # a .tsv whose header also holds commas
        return default
    try:
        return csv.Sniffer().sniff(sample, delimiters="".join(candidates)).delimiter
    except csv.Error:
        return default if default in candidates else candidates[0]


def check_delimiter(source: Source, delimiter: str) -> None:
    if len(delimiter) != 1 or delimiter in "\"\r\n":
        source.fail(f"cannot use {delimiter!r} as the delimiter (give one character such as "
                    "',', ';', '|' or a tab)")


def _allow_huge_cells() -> None:
    limit = sys.maxsize
    while csv.field_size_limit() < limit:
        try:
            csv.field_size_limit(limit)
        except OverflowError:  # C long is 32 bits on Windows
            limit //= 2


def read_delimited(source: Source, delimiter: str) -> tuple[list[str], list[list[str]], list[int]]:
    """(columns, rows, lines). Blank lines are skipped; every other row must match the header."""
    _allow_huge_cells()
    rows: list[list[str]] = []
    lines: list[int] = []
    start = 1  # physical line where the next row starts
    source.check_cancel()
    with source.open_text() as handle:
        reader = csv.reader(handle, delimiter=delimiter, strict=True)
        try:
            header = None
            for row in reader:
                if row:
                    header, header_line = row, start
                    start = reader.line_num + 1
                    break
                start = reader.line_num + 1
            if header is None:
                source.fail("is empty (only blank lines)")
            width = len(header)
            add_row, add_line = rows.append, lines.append
            for row in reader:
                if len(row) == width:
                    add_row(row)
                    add_line(start)
                    if not len(lines) % _CANCEL_EVERY:
                        source.check_cancel()
                elif row:
                    _ragged(source, row, start, width, header_line, delimiter)
                start = reader.line_num + 1
        except csv.Error as exc:
            _malformed(source, exc, start)
    if header[0].startswith("\ufeff"):
        header[0] = header[0][1:]
    _check_header(source, header, header_line)
    if not rows:
        source.fail("has a header but no data rows", row=header_line)
    return header, rows, lines


def _ragged(source: Source, row: list[str], line: int, width: int, header_line: int,
            delimiter: str) -> None:
    cells = f"{len(row)} cell" + ("" if len(row) == 1 else "s")
    if len(row) > width:
        name = _DELIMITER_NAMES.get(delimiter, repr(delimiter))
        more, hint = "more", f"a cell containing {name} must be in double quotes"
    else:
        more, hint = "fewer", "a line break inside a cell must be in double quotes"
    source.fail(f"the row has {cells}, {more} than the {width} columns of the header "
                f"(line {header_line}); {hint}", row=line)


def _malformed(source: Source, exc: csv.Error, line: int) -> None:
    text = str(exc)
    if "unexpected end of data" in text:
        source.fail("a double quote opened in the row starting here is never closed", row=line)
    source.fail(f"the row starting here is not valid CSV ({text}); a double quote inside a "
                'quoted cell must be doubled ("")', row=line)


def _check_header(source: Source, header: list[str], line: int) -> None:
    positions: dict[str, list[int]] = defaultdict(list)
    for i, name in enumerate(header, 1):
        positions[name].append(i)
    duplicates = {name: at for name, at in positions.items() if len(at) > 1}
    if duplicates:
        listed = "; ".join(f"{name!r} at columns {', '.join(map(str, at))}"
                           for name, at in duplicates.items())
        source.fail(f"the header repeats column names ({listed}); give each column a "
                    "different name", row=line, column=next(iter(duplicates)))
