"""CSV and TSV: delimiter detection, strict parsing, physical line numbers, header checks."""

from __future__ import annotations

import csv
import io
import operator
import sys
from collections.abc import Iterator
from itertools import chain, compress, repeat

from matchlens.core.datasets.headers import Header, unique_header
from matchlens.core.datasets.source import Source, settle

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


def read_delimited(source: Source, delimiter: str) -> tuple[Header, list[list[str]], list[int]]:
    """(header, rows, lines) of the whole file. Blank lines are skipped; every other row must
    match the header."""
    header: Header | None = None
    rows: list[list[str]] = []
    lines: list[int] = []
    for header, block_rows, block_lines in iter_delimited(source, delimiter):  # noqa: B007
        rows += block_rows
        lines += block_lines
    settle(rows)
    assert header is not None  # iter_delimited raises when there are no rows
    return header, rows, lines


def iter_delimited(source: Source, delimiter: str, chunk_rows: int | None = None
                   ) -> Iterator[tuple[Header, list[list[str]], list[int]]]:
    """(header, rows, lines) in pieces of about `chunk_rows` rows (None: as the blocks come),
    so a file of any size can be scored with bounded memory. The header's empty or repeated
    names are made unique (`Header.note` says how)."""
    _allow_huge_cells()
    header: Header | None = None
    header_line = width = 0
    rows: list[list[str]] = []
    lines: list[int] = []
    yielded = False
    source.check_cancel()
    with source.text_blocks(_BLOCK_CHARS) as blocks:
        for block_rows, block_lines in _records(source, blocks, delimiter):
            if header is None:
                raw, header_line = block_rows[0], block_lines[0]
                if raw[0].startswith("\ufeff"):
                    raw[0] = raw[0][1:]
                header = unique_header(raw)
                header.line = header_line
                width = len(raw)
                block_rows, block_lines = block_rows[1:], block_lines[1:]
            if not all(map(width.__eq__, map(len, block_rows))):
                at = next(i for i, row in enumerate(block_rows) if len(row) != width)
                _ragged(source, block_rows[at], block_lines[at], width, header_line, delimiter)
            rows += block_rows
            lines += block_lines
            if chunk_rows is None or len(rows) >= chunk_rows:
                if rows:
                    yield header, rows, lines
                    yielded = True
                rows, lines = [], []
            source.check_cancel()
    if header is None:
        source.fail("is empty (only blank lines)")
    if rows:
        yield header, rows, lines
    elif not yielded:
        source.fail("has a header but no data rows", row=header_line)


# Reading in blocks of text (3x faster than csv.reader row by row on a plain file). A block of
# whole lines is split with str.split when it holds no quote, or handed to csv.reader as a list
# of lines, with no Python code per row; the physical line of each row is then the block's
# first line + its index (+ the line breaks inside earlier rows' quoted cells, counted by the
# reader). Anything else (a NUL, an unusual line break, a csv error, a quoted cell running past
# the block) goes to the row-by-row loop, which reports errors with the line where the row
# starts. tests/core/test_delimited_blocks.py checks all of it against that loop.
# Bytes read (and so about the characters) per block. Each block is split in one C call that
# holds the GIL: 1 MB held it ~25 ms beside the window's thread; 256 KB is also quicker
# (1.1 s against 1.4 s a million rows, the pieces stay in the CPU's cache).
_BLOCK_CHARS = 1 << 18
_MAX_CARRY = 1 << 23  # a quoted cell running past 8 MB of text sends the rest row by row


def _records(source: Source, blocks: Iterator[str], delimiter: str
             ) -> Iterator[tuple[list[list[str]], list[int]]]:
    """(rows, lines) batches of the non-blank records, in file order."""
    line = 1  # physical line where the next block starts
    carry = ""
    multiline = False
    for chunk in chain(blocks, [""]):
        text = carry + chunk if carry else chunk
        if not chunk:  # the end: the rest, whole
            cut = len(text)
        else:
            cut = _whole_lines(text)
            if cut == 0 and len(text) > _MAX_CARRY:  # no safe cut in sight: row by row
                yield from _row_by_row(source, _rest(text, blocks), delimiter, line)
                return
        block, carry = text[:cut], text[cut:]
        if not block:
            continue
        parsed = _split_block(block, delimiter, multiline)
        if parsed is None:
            if "\0" in block or not _self_contained(block, delimiter):
                yield from _row_by_row(source, _rest(text, blocks), delimiter, line)
                return
            yield from _row_by_row(source, io.StringIO(block, newline=""), delimiter, line)
            line += _count_lines(block)
        else:
            rows, starts, count = parsed
            multiline = starts is not None
            yield from _numbered(rows, line, starts)
            line += count
        source.check_cancel()


def _whole_lines(text: str) -> int:
    """Where to cut `text` so the block ends a line, and (by the parity of its double quotes)
    probably not inside a quoted cell; 0 when there is no such place yet."""
    cut = text.rfind("\n") + 1
    if text.find('"', 0, cut) < 0:
        return cut
    quotes = text.count('"', 0, cut)
    while cut and quotes % 2:
        previous = text.rfind("\n", 0, cut - 1) + 1
        quotes -= text.count('"', previous, cut)
        cut = previous
    return cut


def _rest(text: str, blocks: Iterator[str]) -> Iterator[str]:
    """The lines of `text` and then of the rest of the file, as a newline='' file gives them:
    each piece handed on ends with \n, so no line (nor a \r\n) is split between two."""
    for more in chain(blocks, [""]):
        text += more
        cut = len(text) if not more else text.rfind("\n") + 1
        if cut:
            yield from io.StringIO(text[:cut], newline="")
            text = text[cut:]


# str.splitlines() breaks lines where csv does (\n, \r\n, a lone \r) and also at these, so it
# is used on blocks without them.
_OTHER_LINE_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _split_block(block: str, delimiter: str, multiline: bool = False
                 ) -> tuple[list[list[str]], list[int] | None, int] | None:
    """(rows with [] for blank lines, where each row starts as lines after the block's first
    (None: row i on line i), physical lines in the block); None when the block needs the
    row-by-row reader of the whole rest. `block` ends with a line break (or the file).
    `multiline`: the last block had quoted cells spanning lines, so this one likely has too."""
    if "\0" in block:
        return None
    if any(map(block.__contains__, _OTHER_LINE_BREAKS[:5] if block.isascii()
               else _OTHER_LINE_BREAKS)):
        return None
    if '"' not in block:
        parts = block.splitlines()
        rows = list(map(str.split, parts, repeat(delimiter)))
        if "" in parts:  # blank lines: what csv reads as []
            for i in compress(range(len(parts)), map(operator.not_, parts)):
                rows[i] = []
        return rows, None, len(parts)
    lines = block.splitlines(keepends=True)  # the lines csv reads from a newline='' file
    try:
        if not multiline:
            rows = list(csv.reader(lines, delimiter=delimiter, strict=True))
            if len(rows) == len(lines):
                return rows, None, len(lines)
        # quoted cells span lines: csv row by row, noting the line each row starts on
        reader = csv.reader(lines, delimiter=delimiter, strict=True)
        rows, starts = [], []
        add_row, add_start = rows.append, starts.append
        at = 0
        for row in reader:
            add_row(row)
            add_start(at)
            at = reader.line_num
    except csv.Error:
        return None
    return rows, starts, len(lines)


def _self_contained(block: str, delimiter: str) -> bool:
    """True when csv reads `block` to its end without error (no quoted cell runs past it)."""
    try:
        for _ in csv.reader(io.StringIO(block, newline=""), delimiter=delimiter, strict=True):
            pass
    except csv.Error:
        return False
    return True


def _count_lines(block: str) -> int:
    """Physical lines in a block that ends with a line break (\n, \r\n or \r each end one)."""
    return block.count("\n") + block.count("\r") - block.count("\r\n")


def _numbered(rows: list[list[str]], first_line: int, starts: list[int] | None):
    lines = (list(range(first_line, first_line + len(rows))) if starts is None
             else list(map(operator.add, starts, repeat(first_line))))
    if [] in rows:  # drop blank lines
        keep = list(compress(range(len(rows)), rows))
        yield list(map(rows.__getitem__, keep)), list(map(lines.__getitem__, keep))
    elif rows:
        yield rows, lines


def _row_by_row(source: Source, lines_in, delimiter: str, first_line: int):
    """The csv module row by row, with the physical line where each row starts."""
    reader = csv.reader(lines_in, delimiter=delimiter, strict=True)
    offset = first_line - 1
    start = first_line
    rows: list[list[str]] = []
    lines: list[int] = []
    try:
        for row in reader:
            if row:
                rows.append(row)
                lines.append(start)
                if len(rows) == _CANCEL_EVERY:
                    yield rows, lines
                    rows, lines = [], []
            start = offset + reader.line_num + 1
    except csv.Error as exc:
        if rows:
            yield rows, lines  # rows before the error are checked first (a ragged one wins)
        _malformed(source, exc, start)
    if rows:
        yield rows, lines


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
