"""JSON Lines (one object a line) and JSON arrays of objects, parsed with physical line numbers
(the .json reader is textformats.read_json).

A JSON array is walked element by element with the standard decoder's `raw_decode` (C speed), so
each object's starting line is known; messages also say "object N" for one-line arrays.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.source import Source, settle

_CANCEL_EVERY = 4096
_DECODER = json_numbers.DECODER  # 1e400 stays 1e400 (json_numbers.py)
_WS = re.compile(r"[ \t\n\r]*")

Parsed = tuple[list[str], list[dict[str, Any]], list[int]]


def describe(value: Any) -> str:
    """'an object', 'an array', 'a string', ... for messages."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return f"the value {str(value).lower()}"
    if value is None:
        return "null"
    return "a number"


def read_jsonl(source: Source) -> Parsed:
    source.check_cancel()
    with source.open_text() as handle:
        parsed = _parse_lines(source, handle)
        settle(parsed[1])
    return parsed


def _parse_lines(source: Source, lines_of_text: Iterable[str], keys: dict | None = None,
                 keep: bool = True) -> Parsed:
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    keys = {} if keys is None else keys
    count = first = 0
    for value, number in _objects(source, lines_of_text):
        if keep:
            rows.append(value)
            lines.append(number)
        count += 1
        first = first or number
        keys.update(value)  # C-speed union of keys in first-seen order
    if not count:
        source.fail("is empty (only blank lines)")
    return _columns(source, keys, first), rows, lines


def _objects(source: Source, lines_of_text: Iterable[str]) -> Iterator[tuple[dict, int]]:
    """(object, line number) for every non-blank line; a line that is not an object is a
    sentence naming it."""
    loads = json_numbers.loads  # 1e400 stays 1e400
    count = 0
    for number, text in enumerate(lines_of_text, 1):
        if text.isspace():
            continue
        try:
            value = loads(text)
        except json.JSONDecodeError as exc:
            at = min(exc.pos, len(text.rstrip("\r\n"))) + 1  # not past the line's end
            source.fail(f"is not valid JSON: {exc.msg} (at character {at})", row=number)
        except RecursionError:
            source.fail("is JSON nested too deeply to read", row=number)
        if type(value) is not dict:
            source.fail(f"holds {describe(value)}, but each line must be a JSON object "
                        "({...})", row=number)
        yield value, number
        count += 1
        if not count % _CANCEL_EVERY:
            source.check_cancel()


def _columns(source: Source, keys: dict[str, Any], first_line: int) -> list[str]:
    if not keys:
        source.fail("has only empty objects ({}), so there are no columns", row=first_line)
    return list(keys)


def iter_jsonl(source: Source, chunk_rows: int) -> Iterator[Parsed]:
    """JSON Lines in pieces of `chunk_rows` rows, for streaming. Every piece has the same
    columns, the union of the keys of the whole file: a first pass collects them (a CSV
    header is written before the first row), the second reads the rows."""
    source.check_cancel()
    keys: dict[str, Any] = {}
    with source.open_text() as handle:
        _parse_lines(source, handle, keys=keys, keep=False)
    columns = _columns(source, keys, 1)
    with source.open_text() as handle:
        rows: list[dict[str, Any]] = []
        lines: list[int] = []
        for row, line in _objects(source, handle):
            rows.append(row)
            lines.append(line)
            if len(rows) >= chunk_rows:
                yield columns, rows, lines
                rows, lines = [], []
        if rows:
            yield columns, rows, lines


def iter_jsonl_once(source: Source, chunk_rows: int) -> Iterator[Parsed]:
    """JSON Lines in pieces of `chunk_rows` rows in one pass: a piece's columns are the keys
    seen so far (later pieces may add some at the end). Errors as read_jsonl's, the file's
    last ones (empty file, only empty objects) once every line is read."""
    source.check_cancel()
    keys: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    first = 0
    with source.open_text() as handle:
        for row, line in _objects(source, handle):
            rows.append(row)
            lines.append(line)
            keys.update(row)
            first = first or line
            if len(rows) >= chunk_rows and keys:
                yield list(keys), rows, lines
                rows, lines = [], []
    if not first:
        source.fail("is empty (only blank lines)")
    columns = _columns(source, keys, first)
    if rows:
        yield columns, rows, lines


def json_lines_in_disguise(source: Source, text: str, pos: int) -> Parsed | None:
    """A .json that holds one object a line is JSON Lines."""
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except (json.JSONDecodeError, RecursionError):
        return None  # the caller's own parse says what is wrong, in its words
    rest = _WS.match(text, end).end()
    if isinstance(value, dict) and rest < len(text) and "\n" in text[end:rest + 1]:
        return _parse_lines(source, io.StringIO(text, newline=""))
    return None


def walk_array(source: Source, text: str, pos: int, whole: bool = True) -> Parsed:
    """The array of objects opening at `pos`; `whole`: nothing may follow its closing ]."""
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    keys: dict[str, Any] = {}
    line, counted = 1, 0
    decode, skip = _DECODER.raw_decode, _WS.match
    pos = skip(text, pos + 1).end()
    if text[pos:pos + 1] == "]":
        source.fail("is an empty array: there are no rows", row=text.count("\n", 0, pos) + 1)
    while True:
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            value, end = decode(text, pos)
        except json.JSONDecodeError as exc:
            source.fail(f"is not valid JSON: {exc.msg} (at character {exc.colno}, in object "
                        f"{len(rows) + 1})", row=exc.lineno)
        except RecursionError:
            source.fail(f"object {len(rows) + 1} is nested too deeply to read", row=line)
        if type(value) is not dict:
            source.fail(f"element {len(rows) + 1} of the array is {describe(value)}, "
                        "not an object", row=line)
        rows.append(value)
        lines.append(line)
        keys.update(value)
        if not len(rows) % _CANCEL_EVERY:
            source.check_cancel()
        pos = skip(text, end).end()
        sep = text[pos:pos + 1]
        if sep == ",":
            pos = skip(text, pos + 1).end()
            if text[pos:pos + 1] == "]":
                source.fail(f"has a comma after object {len(rows)}, the last one; JSON allows "
                            "none there", row=text.count("\n", 0, pos) + 1)
            continue
        if sep == "]":
            break
        where = text.count("\n", 0, pos) + 1
        found = f"found {sep!r}" if sep else "the file ends"
        source.fail(f"expected ',' or ']' after object {len(rows)} of the array, but {found}",
                    row=where)
    tail = skip(text, pos + 1).end()
    if whole and tail < len(text):
        source.fail("has more text after the closing ] of the array",
                    row=text.count("\n", 0, tail) + 1)
    return _columns(source, keys, lines[0]), rows, lines
