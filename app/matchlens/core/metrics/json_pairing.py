"""How the items of two JSON arrays are paired without an exact assignment: by the value of a
field (`array_match` `key:NAME`), and the cheaper pairing `unordered` falls back to beyond its
limits (identical items first, the rest by position). Each returns (pairs (i of e, j of a) in
e's order, e's unpaired items, a's unpaired items); the walk (json_walk) chooses which applies
and says so in the explanation.
"""

from __future__ import annotations

import json
from typing import Any

Pairing = tuple[list[tuple[int, int]], list[int], list[int]]


def kind_of(value: Any) -> str:
    """The JSON type of a parsed value (a subclass of a builtin too)."""
    # bool before number: in Python True == 1, in JSON they are different types.
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"



def identity(value: Any) -> Any:
    """A hashable stand-in equal for equal JSON values (1 and 1.0 alike, true and 1 not)."""
    kind = kind_of(value)
    if kind in ("array", "object"):
        return kind, json.dumps(value, sort_keys=True)
    return kind, value


def pair_identical_first(e: list, a: list) -> Pairing:
    """Identical items paired first (in order), the rest by position."""
    waiting: dict[Any, list[int]] = {}
    for j in range(len(a) - 1, -1, -1):
        waiting.setdefault(identity(a[j]), []).append(j)
    pairs, rest_e = [], []
    for i, item in enumerate(e):
        queue = waiting.get(identity(item))
        if queue:
            pairs.append((i, queue.pop()))
        else:
            rest_e.append(i)
    used_a = {j for _, j in pairs}
    rest_a = [j for j in range(len(a)) if j not in used_a]
    k = min(len(rest_e), len(rest_a))
    pairs.extend(zip(rest_e[:k], rest_a[:k], strict=True))
    return sorted(pairs), rest_e[k:], rest_a[k:]


def pair_by_key(e: list, a: list, key: str) -> Pairing:
    """Items paired by the value of their field `key`; repeated values pair in order; an item
    without the field (or not an object) has no partner."""
    waiting: dict[Any, list[int]] = {}
    for j in range(len(a) - 1, -1, -1):
        item = a[j]
        if isinstance(item, dict) and key in item:
            waiting.setdefault(identity(item[key]), []).append(j)
    pairs, left_e = [], []
    for i, item in enumerate(e):
        queue = waiting.get(identity(item[key])) \
            if isinstance(item, dict) and key in item else None
        if queue:
            pairs.append((i, queue.pop()))
        else:
            left_e.append(i)
    used_a = {j for _, j in pairs}
    return pairs, left_e, [j for j in range(len(a)) if j not in used_a]
