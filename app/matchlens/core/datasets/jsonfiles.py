"""JSON Lines (one object a line) and JSON (an array of objects), with physical line numbers.

A JSON array is walked element by element with the standard decoder's `raw_decode` (C speed), so
each object's starting line is known; messages also say "object N" for one-line arrays.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from typing import Any

from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.source import Source, gc_paused, settle

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


def _parse_lines(source: Source, lines_of_text: Iterable[str]) -> Parsed:
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    keys: dict[str, Any] = {}
    loads = json_numbers.loads
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
        rows.append(value)
        lines.append(number)
        keys.update(value)  # C-speed union of keys in first-seen order
        if not len(rows) % _CANCEL_EVERY:
            source.check_cancel()
    if not rows:
        source.fail("is empty (only blank lines)")
    return _columns(source, keys, lines[0]), rows, lines


def _columns(source: Source, keys: dict[str, Any], first_line: int) -> list[str]:
    if not keys:
        source.fail("has only empty objects ({}), so there are no columns", row=first_line)
    return list(keys)


def read_json(source: Source) -> tuple[str, list[str], list[dict[str, Any]], list[int]]:
    """(kind, columns, rows, lines): an array of objects; a .json holding JSON Lines is read as
    JSON Lines (kind "jsonl") since that is what such files are."""
    source.check_cancel()
    with source.open_text() as handle:
        text = handle.read()
    if text.startswith("\ufeff"):
        text = text[1:]
    pos = _WS.match(text).end()
    with gc_paused():
        if text[pos:pos + 1] != "[":
            return _not_an_array(source, text, pos)
        columns, rows, lines = _walk_array(source, text, pos)
        settle(rows)
    return "json", columns, rows, lines


def _not_an_array(source: Source, text: str, pos: int):
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        source.fail(f"is not valid JSON: {exc.msg} (at character {exc.colno})", row=exc.lineno)
    except RecursionError:
        source.fail("is JSON nested too deeply to read")
    rest = _WS.match(text, end).end()
    if isinstance(value, dict) and rest < len(text) and "\n" in text[end:rest + 1]:
        columns, rows, lines = _parse_lines(source, io.StringIO(text, newline=""))
        return "jsonl", columns, rows, lines
    line = text.count("\n", 0, pos) + 1
    if isinstance(value, dict):
        arrays = [k for k, v in value.items() if isinstance(v, list) and v
                  and all(isinstance(x, dict) for x in v[:10])]
        hint = f"; its key {arrays[0]!r} holds an array of objects" if arrays else ""
        source.fail(f"holds one JSON object, but a .json data file must be an array of "
                    f"objects ([{{...}}, {{...}}]){hint}", row=line)
    source.fail(f"holds {describe(value)}, but a .json data file must be an array of objects "
                "([{...}, {...}])", row=line)


def _walk_array(source: Source, text: str, pos: int) -> Parsed:
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
    if tail < len(text):
        source.fail("has more text after the closing ] of the array",
                    row=text.count("\n", 0, tail) + 1)
    return _columns(source, keys, lines[0]), rows, lines
