"""Where a JSON path's value sits in the text, so the window can select it.

`json.loads` forgets positions, so this walks the text itself: members are skipped with the
standard decoder's `raw_decode` (C speed), and only the path's own containers are scanned key by
key. Paths are the ones `json_distance` reports: `$`, `.name`, `[3]`, `["odd key"]`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.decoder import scanstring

_DECODER = json.JSONDecoder()
_SEGMENT = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')
_WS = " \t\n\r"


@dataclass(frozen=True)
class Located:
    """Character range [start, end) of a value; `found` is False when the path is missing and
    the range is that of its deepest existing ancestor (where the missing value would go)."""

    start: int
    end: int
    found: bool


def parse_path(path: str) -> list[str | int]:
    """`$.items[2]["a b"]` -> ["items", 2, "a b"]; ValueError if it is not such a path."""
    if not path.startswith("$"):
        raise ValueError(f"a JSON path starts with $, not {path[:1]!r}")
    segments: list[str | int] = []
    pos = 1
    while pos < len(path):
        match = _SEGMENT.match(path, pos)
        if match is None:
            raise ValueError(f"cannot read the JSON path {path!r} at character {pos + 1}")
        name, index, quoted = match.groups()
        segments.append(name if name is not None else int(index) if index is not None
                        else json.loads(quoted))
        pos = match.end()
    return segments


def locate(text: str, path: str, strip_code_fences: bool = False) -> Located | None:
    """The range of `path`'s value in `text`, or None when the text is not JSON."""
    offset = 0
    if strip_code_fences:
        # Imported here: importing a metric module registers it, and the registry's order
        # (the order of the window's panels) should not depend on who imported this first.
        from matchlens.core.metrics.json_distance import strip_fences

        inner = strip_fences(text)
        if inner is not text:
            offset = text.find(inner)
            text = inner
    try:
        start, end, found = _find(text, _skip(text, 0), parse_path(path))
    except (ValueError, IndexError):
        return None
    return Located(start + offset, end + offset, found)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _end_of_value(text: str, pos: int) -> int:
    return _DECODER.raw_decode(text, pos)[1]


def _find(text: str, pos: int, segments: list[str | int]) -> tuple[int, int, bool]:
    end = _end_of_value(text, pos)
    if not segments:
        return pos, end, True
    head, rest = segments[0], segments[1:]
    opener = text[pos]
    child = None
    if opener == "{" and isinstance(head, str):
        child = _member(text, pos, head)
    elif opener == "[" and isinstance(head, int):
        child = _element(text, pos, head)
    if child is None:
        return pos, end, False
    return _find(text, child, rest)


def _member(text: str, pos: int, key: str) -> int | None:
    """Start of the value of `key` in the object at `pos` (the last one, as json.loads keeps)."""
    found = None
    pos = _skip(text, pos + 1)
    if text[pos] == "}":
        return None
    while True:
        if text[pos] != '"':
            raise ValueError("expected a key")
        name, pos = scanstring(text, pos + 1)
        pos = _skip(text, pos)
        if text[pos] != ":":
            raise ValueError("expected a colon")
        pos = _skip(text, pos + 1)
        if name == key:
            found = pos
        pos = _skip(text, _end_of_value(text, pos))
        if text[pos] == "}":
            return found
        if text[pos] != ",":
            raise ValueError("expected a comma")
        pos = _skip(text, pos + 1)


def _element(text: str, pos: int, index: int) -> int | None:
    pos = _skip(text, pos + 1)
    if text[pos] == "]":
        return None
    i = 0
    while True:
        if i == index:
            return pos
        pos = _skip(text, _end_of_value(text, pos))
        if text[pos] == "]":
            return None
        if text[pos] != ",":
            raise ValueError("expected a comma")
        pos = _skip(text, pos + 1)
        i += 1


def locate_steps(text: str, steps: list[str | int], pos: int = 0) -> int | None:
    """Where the value at `steps` (keys and indexes) starts in the JSON `text`, or None."""
    try:
        start, _end, found = _find(text, _skip(text, pos), list(steps))
    except (ValueError, IndexError):
        return None
    return start if found else None
