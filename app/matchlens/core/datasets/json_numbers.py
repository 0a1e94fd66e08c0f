"""JSON numbers are kept as written: `1e400`, `1.10`, `1e23`.

`json.loads` makes `1e400` `inf` (written back: `Infinity`, invalid JSON, the value lost), `1.10`
the float 1.1 and `1e23` 1.0000000000000001e+23. Here a number whose float would not be written
back as the same text becomes a `JsonNumber` holding its text; `dumps` writes it back bare,
exactly as it came, and a cell shows that text. It compares as the float it means, so JSONPath
filters still work. Floats written as Python writes them (`0.5`) stay floats (the C decoder
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
        if isinstance(other, JsonNumber):
            return other.text == self.text
        if isinstance(other, int | float) and not isinstance(other, bool):
            return float(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __float__(self) -> float:
        return float(self.text)

    def __lt__(self, other: object) -> bool:
        return float(self) < float(other)  # type: ignore[arg-type]

    def __le__(self, other: object) -> bool:
        return float(self) <= float(other)  # type: ignore[arg-type]

    def __gt__(self, other: object) -> bool:
        return float(self) > float(other)  # type: ignore[arg-type]

    def __ge__(self, other: object) -> bool:
        return float(self) >= float(other)  # type: ignore[arg-type]


def parse_float(text: str) -> float | JsonNumber:
    value = float(text)
    return value if math.isfinite(value) and repr(value) == text else JsonNumber(text)


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
