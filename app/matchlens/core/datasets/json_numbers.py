"""JSON numbers a float cannot hold (`1e400`, `-1e999`) are kept as written.

`json.loads` makes them `inf`, and writing that back gives `Infinity`: invalid JSON, the value
lost. Here such a number becomes a `JsonNumber` holding its text; `dumps` writes it back bare,
exactly as it came, and a cell shows that text. Ordinary floats stay floats (the C decoder
calls `parse_float` only for numbers with a fraction or exponent).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any


class JsonNumber:
    """A JSON number kept as its text, because float would make it infinite."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonNumber) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def parse_float(text: str) -> float | JsonNumber:
    value = float(text)
    return JsonNumber(text) if math.isinf(value) else value


DECODER = json.JSONDecoder(parse_float=parse_float)
loads = DECODER.decode


def dumps(value: Any, *, ensure_ascii: bool = False) -> str:
    """`json.dumps` that writes a JsonNumber as the number it was (no cost without one), and
    any other value JSON has no type for (a date, bytes from Parquet) as its text."""
    raws: list[str] = []
    token = ""

    def default(obj: Any) -> Any:
        nonlocal token
        if isinstance(obj, JsonNumber):
            import uuid  # only for a number JSON cannot hold: uuid loads platform and _uuid

            token = token or uuid.uuid4().hex
            raws.append(obj.text)
            return f"{token}:{len(raws) - 1}"
        return str(obj)  # dates, Parquet bytes: their text

    text = json.dumps(value, ensure_ascii=ensure_ascii, default=default)
    if not raws:
        return text
    return re.sub(rf'"{token}:(\d+)"', lambda m: raws[int(m.group(1))], text)
