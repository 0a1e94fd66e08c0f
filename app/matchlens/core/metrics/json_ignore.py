"""json_distance's `ignore_paths`: JSONPath patterns (`$.meta`, `$.items[*].id`,
`$..timestamp`, `$["odd key"]`) compiled into one regular expression over the canonical path
texts the walk writes (`$.items[2].id`, `$["odd key"]`), so a path is tested in one C call.

Steps understood: `.key`, `["key"]` / `['key']`, `[3]`, `[*]` and `.*` (any one step), `..key` /
`..*` (any depth, recursive descent). A pattern matches a path and everything under it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable

from matchlens.core.errors import ConfigError
from matchlens.core.jsonpath import step_text

_ANY_KEY = r'(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])'
_ANY_INDEX = r"\[\d+\]"
_ANY_STEP = f"(?:{_ANY_KEY}|{_ANY_INDEX})"
_TOKEN = re.compile(
    r"""(?P<descent>\.\.)?(?:"""
    r"""\.?(?P<star>\*)"""
    r"""|\[\s*\*\s*\]"""
    r"""|\.?(?P<key>[^.\[\]\s"'*]+)"""
    r"""|\[\s*(?P<index>\d+)\s*\]"""
    r"""|\[\s*(?P<double>"(?:[^"\\]|\\.)*")\s*\]"""
    r"""|\[\s*'(?P<single>(?:[^'\\]|\\.)*)'\s*\])""")


def pattern_regex(pattern: str) -> str:
    """The regular expression (text) of one pattern; ConfigError naming it when unreadable."""
    text = pattern.strip()
    if not text.startswith("$"):
        raise ConfigError(f"json_distance.ignore_paths: {pattern!r} is not a JSONPath "
                          "(it starts with $, as in $.meta or $..timestamp)")
    parts, pos = [r"\$"], 1
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise ConfigError(f"json_distance.ignore_paths: cannot read {pattern!r} at "
                              f"character {pos + 1}")
        if match["descent"]:
            parts.append(f"{_ANY_STEP}*?")
        if match["key"] is not None or match["double"] is not None \
                or match["single"] is not None:
            key = match["key"] if match["key"] is not None else (
                json.loads(match["double"]) if match["double"] is not None
                else re.sub(r"\\(.)", r"\1", match["single"]))
            parts.append(re.escape(step_text("", key)))
        elif match["index"] is not None:
            parts.append(re.escape(f"[{int(match['index'])}]"))
        else:  # `*`, `[*]`
            parts.append(_ANY_STEP)
        pos = match.end()
    return "".join(parts)


def compile_ignore_paths(patterns: Iterable[str]) -> Callable[[str], object] | None:
    """A function returning a match (truthy) for a path under any pattern, or None when there
    are no patterns (the walk then tests nothing)."""
    patterns = [p for p in patterns if p.strip()]
    if not patterns:
        return None
    joined = "|".join(f"(?:{pattern_regex(p)})" for p in patterns)
    return re.compile(f"(?:{joined})").fullmatch
