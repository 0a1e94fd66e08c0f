"""JSON paths of keys and indexes: the one parser (`parse_path` for the paths json_distance
writes, `parse_simple` for the paths people type), their canonical text, ```json fences, and
where a path's value sits in a text (`locate`), so the window can select it.

`json.loads` forgets positions, so `locate` walks the text itself: members are skipped with the
standard decoder's `raw_decode` (C speed), and only the path's own containers are scanned key by
key. Paths are the ones `json_distance` reports: `$`, `.name`, `[3]`, `["odd key"]`.

The paths people type (`--expected`, `--records`) are read without jsonpath-ng: its lexer
refuses a key that starts with a digit (`$.175b_verification.solution`, grade-school-math's
files) and it is slow to start; most paths people give are plain keys and indexes: `.key` (any
characters but `.`, brackets, quotes, spaces and the operators of a filter), `["key.with
dots"]`, `['key']`, `[3]`, `[-1]`. Anything else (`..`, `*`, filters) is left to jsonpath-ng
(core.datasets.columns), with digit-led keys quoted for it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.decoder import scanstring

_DECODER = json.JSONDecoder()
# The two dialects of one grammar. Groups: a dotted key, an index, a JSON-quoted key, a
# single-quoted key. The paths json_distance writes: identifiers after a dot, no sign, no space.
_WRITTEN = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|(?!)()')  # no 'single-quoted' key
# The paths people type: digit-led keys, negative indexes, spaces inside brackets, 'quotes'.
_TYPED = re.compile(
    r"""\.([^.\[\]\s"'*?()@$!=<>|&,:~`]+)"""  # .key (not `len`, jsonpath-ng's)
    r"""|\[\s*(-?\d+)\s*\]"""  # [3], [-1]
    r"""|\[\s*("(?:[^"\\]|\\.)*")\s*\]"""  # ["a.b"]
    r"""|\[\s*'((?:[^'\\]|\\.)*)'\s*\]""")  # ['a.b']
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGIT_LED = re.compile(r"(?<!\.)\.(\d[A-Za-z0-9_-]*)")
# A reply wrapped in a ```json fenced block (json_distance's strip_code_fences).
_FENCE = re.compile(r"^\s*```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)\r?\n?```\s*$", re.DOTALL)
_WS = " \t\n\r"


@dataclass(frozen=True)
class Located:
    """Character range [start, end) of a value; `found` is False when the path is missing and
    the range is that of its deepest existing ancestor (where the missing value would go)."""

    start: int
    end: int
    found: bool


def _scan(path: str, segment: re.Pattern) -> tuple[list[str | int], int | None]:
    """The steps of `path` after its `$`, and None, or the steps read so far and the position
    where `segment` matches no more. A JSON-quoted key that json cannot read raises its
    JSONDecodeError (a ValueError)."""
    steps: list[str | int] = []
    pos = 1
    while pos < len(path):
        match = segment.match(path, pos)
        if match is None:
            return steps, pos
        key, index, double, single = match.groups()
        if key is not None:
            steps.append(key)
        elif index is not None:
            steps.append(int(index))
        elif double is not None:
            steps.append(json.loads(double))
        else:
            steps.append(re.sub(r"\\(.)", r"\1", single))
        pos = match.end()
    return steps, None


def parse_path(path: str) -> list[str | int]:
    """`$.items[2]["a b"]` -> ["items", 2, "a b"]; ValueError if it is not such a path (one
    json_distance writes: `child_path`)."""
    if not path.startswith("$"):
        raise ValueError(f"a JSON path starts with $, not {path[:1]!r}")
    steps, stopped = _scan(path, _WRITTEN)
    if stopped is not None:
        raise ValueError(f"cannot read the JSON path {path!r} at character {stopped + 1}")
    return steps


def parse_simple(spec: str) -> list[str | int] | None:
    """`$.a[0]["b.c"]` -> ["a", 0, "b.c"] for a path people type; None when `spec` is not a path
    of keys and indexes (or is `$`)."""
    if not spec.startswith("$"):
        return None
    try:
        steps, stopped = _scan(spec, _TYPED)
    except json.JSONDecodeError:
        return None
    return None if stopped is not None else steps or None


def quote_digit_keys(spec: str) -> str:
    """`$.a[*].175b` -> `$.a[*]['175b']` for jsonpath-ng; a filter (whose `0.5` is a number) is
    left as it is."""
    if "?(" in spec or "(" in spec:
        return spec
    return _DIGIT_LED.sub(lambda m: f"['{m.group(1)}']", spec)


def step_text(prefix: str, step: str | int, *, ensure_ascii: bool = False) -> str:
    """The path `prefix` one step further, as messages write it: `.key`, `[3]`, `["odd key"]`."""
    if isinstance(step, int):
        return f"{prefix}[{step}]"
    if _IDENTIFIER.fullmatch(step):
        return f"{prefix}.{step}"
    return f"{prefix}[{json.dumps(step, ensure_ascii=ensure_ascii)}]"


def path_text(steps: list[str | int] | tuple[str | int, ...], prefix: str = "$") -> str:
    """The canonical text of a simple path (messages, notes): `$.a[0]["b.c"]`."""
    for step in steps:
        prefix = step_text(prefix, step)
    return prefix


def strip_fences(text: str) -> str:
    """The JSON inside a ```json fenced block, or `text` itself when it is not one."""
    match = _FENCE.match(text)
    return match.group(1) if match else text


def locate(text: str, path: str, strip_code_fences: bool = False) -> Located | None:
    """The range of `path`'s value in `text`, or None when the text is not JSON."""
    offset = 0
    if strip_code_fences:
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
