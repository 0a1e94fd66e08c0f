"""*Format JSON* for the compare view: both sides pretty-printed alike, so a line diff lines up
field by field — two-space indents, the output's keys in the reference's order (keys only the
output has after them, in its own order), numbers exactly as written (`1.50` stays `1.50`, not
`1.5`; `1e400` stays `1e400`), strings as JSON writes them with non-ASCII kept.

`format_pair` returns None when either side is not JSON or nests too deeply to format.
"""

from __future__ import annotations

import json
from typing import Any


class Number(str):
    """A JSON number kept as the text it was written as."""


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder(parse_float=Number, parse_int=Number, parse_constant=_refuse)


def parse_keeping_numbers(text: str) -> Any:
    """The JSON value of `text`, numbers as `Number` texts; ValueError when it is not JSON."""
    return _DECODER.decode(text.lstrip("\ufeff"))


def render(value: Any, order: Any = None, indent: int = 0) -> str:
    """`value` pretty-printed; objects' keys in `order`'s key order first (when `order` is an
    object), arrays' items ordered after `order`'s items by position."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, Number):
        return str(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        keys = list(value)
        if isinstance(order, dict):
            keys = [k for k in order if k in value] + [k for k in value if k not in order]
        members = [f"{inner}{json.dumps(k, ensure_ascii=False)}: "
                   f"{render(value[k], order.get(k) if isinstance(order, dict) else None, indent + 1)}"
                   for k in keys]
        return "{\n" + ",\n".join(members) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [f"{inner}{render(item, _at(order, i), indent + 1)}"
                 for i, item in enumerate(value)]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def _at(order: Any, i: int) -> Any:
    return order[i] if isinstance(order, list) and i < len(order) else None


def format_pair(expected: str, actual: str) -> tuple[str, str] | None:
    """Both texts pretty-printed alike (the output in the reference's key order), or None."""
    try:
        e = parse_keeping_numbers(expected)
        a = parse_keeping_numbers(actual)
        return render(e) + "\n", render(a, e) + "\n"
    except (ValueError, RecursionError):
        return None


def is_json(text: str) -> bool:
    """Whether `text` is one JSON object or array (what the compare view formats)."""
    start = text.lstrip(" \t\r\n\ufeff")[:1]
    if start not in ("{", "["):
        return False
    try:
        parse_keeping_numbers(text)
    except (ValueError, RecursionError):
        return False
    return True
