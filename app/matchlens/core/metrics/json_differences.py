"""One difference of two JSON values as json_distance reports it (`JsonDiff`: its path, kind,
both values, and where to look on each side when array items were paired across indices), and
the marker of a side that lacks a path (`MISSING`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MISSING: Any = object()


@dataclass(frozen=True)
class JsonDiff:
    """One differing path: `$.items[2].price: 10 → 12`, with its kind and both raw values
    (`MISSING` where a side lacks the path)."""

    path: str
    expected: str  # the JSON text of the value, or "missing"
    actual: str
    kind: str = "differs"  # differs | missing | extra
    expected_value: Any = None
    actual_value: Any = None
    # Where to look on each side when array items were paired across indices (None: `path`).
    # actual_path: the paired value in the output (`$.items[0].price` for the reference's
    # `$.items[2].price`), or for an item the output lacks, the output's array holding the
    # rest; expected_path: for an item only the output has, the reference's array.
    actual_path: str | None = None
    expected_path: str | None = None

    def __str__(self) -> str:
        if self.kind == "differs" and self.actual_path:
            return f"{self.path} ↔ {self.actual_path}: {self.expected} → {self.actual}"
        return f"{self.path}: {self.expected} → {self.actual}"

    def as_dict(self) -> dict[str, Any]:
        """`{"path", "kind", "expected", "actual"}` for `diff --json`: a missing side is null
        (the kind says which side lacks it); `actual_path` too when the output's value is under
        another index (items paired across indices)."""
        e, a = self.expected_value, self.actual_value
        out = {"path": self.path, "kind": self.kind,
               "expected": None if e is MISSING else e, "actual": None if a is MISSING else a}
        if self.kind == "differs" and self.actual_path:
            out["actual_path"] = self.actual_path
        return out


def show(value: Any) -> str:
    if value is MISSING:
        return "missing"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"
