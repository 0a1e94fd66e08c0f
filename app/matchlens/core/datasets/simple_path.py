"""JSONPaths made only of keys and indexes, read without jsonpath-ng.

jsonpath-ng's lexer refuses a key that starts with a digit (`$.175b_verification.solution`,
grade-school-math's files) and it is slow to start; most paths people give are plain keys and
indexes, so those are parsed here: `.key` (any characters but `.`, brackets, quotes, spaces
and the operators of a filter), `["key.with dots"]`, `['key']`, `[3]`, `[-1]`. Anything
else (`..`, `*`, filters) is left to jsonpath-ng, with digit-led keys quoted for it.
"""

from __future__ import annotations

import json
import re

_SEGMENT = re.compile(
    r"""\.([^.\[\]\s"'*?()@$!=<>|&,:~]+)"""  # .key, digit-led keys included
    r"""|\[\s*(-?\d+)\s*\]"""  # [3], [-1]
    r"""|\[\s*("(?:[^"\\]|\\.)*")\s*\]"""  # ["a.b"]
    r"""|\[\s*'((?:[^'\\]|\\.)*)'\s*\]""")  # ['a.b']
_DIGIT_LED = re.compile(r"(?<!\.)\.(\d[A-Za-z0-9_-]*)")


def parse_simple(spec: str) -> list[str | int] | None:
    """`$.a[0]["b.c"]` -> ["a", 0, "b.c"]; None when `spec` is not such a path (or is `$`)."""
    if not spec.startswith("$"):
        return None
    steps: list[str | int] = []
    pos = 1
    while pos < len(spec):
        match = _SEGMENT.match(spec, pos)
        if match is None:
            return None
        key, index, double, single = match.groups()
        if key is not None:
            steps.append(key)
        elif index is not None:
            steps.append(int(index))
        elif double is not None:
            try:
                steps.append(json.loads(double))
            except json.JSONDecodeError:
                return None
        else:
            steps.append(re.sub(r"\\(.)", r"\1", single))
        pos = match.end()
    return steps or None


def quote_digit_keys(spec: str) -> str:
    """`$.a[*].175b` -> `$.a[*]['175b']` for jsonpath-ng; a filter (whose `0.5` is a number) is
    left as it is."""
    if "?(" in spec or "(" in spec:
        return spec
    return _DIGIT_LED.sub(lambda m: f"['{m.group(1)}']", spec)


def path_text(steps: list[str | int] | tuple[str | int, ...], prefix: str = "$") -> str:
    """The canonical text of a simple path (messages, notes): `$.a[0]["b.c"]`."""
    out = prefix
    for step in steps:
        if isinstance(step, int):
            out += f"[{step}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", step):
            out += f".{step}"
        else:
            out += f"[{json.dumps(step, ensure_ascii=False)}]"
    return out
