"""json_distance's `extract_json`: the first complete JSON object or array inside a text (prose
before or after it, a ```json fenced block anywhere), with where it starts.

Each `{` or `[` is tried in turn with the standard decoder's `raw_decode` (C speed); a text of
nothing but brackets would make that quadratic, so at most `MAX_TRIES` starts are tried.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_TRIES = 2_000
_DECODER = json.JSONDecoder()
_FENCED = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)```", re.DOTALL)
_OPEN = re.compile(r"[\[{]")


def extract_json(text: str) -> tuple[Any, int, int] | None:
    """(value, line, column) of the first JSON object or array found in `text` (a fenced
    block's content first), or None."""
    fenced = _FENCED.search(text)
    if fenced is not None:
        found = _first_in(text, fenced.start(1), fenced.end(1))
        if found is not None:
            return found
    return _first_in(text, 0, len(text))


def _first_in(text: str, start: int, end: int) -> tuple[Any, int, int] | None:
    tries = 0
    for match in _OPEN.finditer(text, start, end):
        tries += 1
        if tries > MAX_TRIES:
            return None
        try:
            value, _ = _DECODER.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict | list):
            where = match.start()
            line = text.count("\n", 0, where) + 1
            column = where - (text.rfind("\n", 0, where) + 1) + 1
            return value, line, column
    return None
