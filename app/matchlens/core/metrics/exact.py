"""exact_match and contains."""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from matchlens.core.metrics.registry import register
from matchlens.core.metrics.shared_work import folded_texts, stripped_texts
from matchlens.core.metrics.spec import ManyOutcome, MetricSpec, OptionSpec
from matchlens.core.results import Direction, Outcome
from matchlens.core.text.casefold import fold_case

CASE = OptionSpec("case_sensitive", bool, True, "Compare upper and lower case as different")
STRIP = OptionSpec("strip_whitespace", bool, True, "Ignore leading and trailing whitespace")


def exact_match(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    e, a = expected, actual
    if options["strip_whitespace"]:
        e, a = e.strip(), a.strip()
    if not options["case_sensitive"]:
        e, a = fold_case(e), fold_case(a)
    if e == a:
        return Outcome(1.0, "The texts are identical" + _qualifier(options))
    return Outcome(0.0, _first_difference(e, a))


def _qualifier(options: Mapping[str, Any]) -> str:
    notes = []
    if options.get("strip_whitespace"):
        notes.append("surrounding whitespace")
    if not options.get("case_sensitive", True):
        notes.append("case")
    return f" (ignoring {' and '.join(notes)})" if notes else ""


def _first_difference(e: str, a: str) -> str:
    i = 0
    limit = min(len(e), len(a))
    while i < limit and e[i] == a[i]:
        i += 1
    if i == limit:
        longer = "actual" if len(a) > len(e) else "expected"
        return f"The texts differ: {longer} is longer, from character {i + 1}"
    return f"The texts differ from character {i + 1}: {e[i]!r} vs {a[i]!r}"


def contains(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    needle, hay = expected.strip(), actual
    if not options["case_sensitive"]:
        needle, hay = fold_case(needle), fold_case(hay)
    at = hay.find(needle)
    if at >= 0:
        return Outcome(1.0, f"Expected text found in actual at character {at + 1}")
    return Outcome(0.0, "Expected text does not occur in actual")


def _normalise(texts: Sequence[str], strip: bool, case_sensitive: bool) -> Sequence[str]:
    out = stripped_texts(texts) if strip else texts
    return out if case_sensitive else folded_texts(out)


def _as_outcome(flags: Iterator[bool], n: int) -> ManyOutcome:
    scores = np.fromiter(flags, dtype=bool, count=n).astype(np.float64)
    return ManyOutcome(scores, np.zeros(n, dtype=np.int8))


# The pair loops below run in C (map over operator functions): no Python frame per row.
def exact_match_many(expected: Sequence[str], actual: Sequence[str],
                     options: Mapping[str, Any]) -> ManyOutcome:
    strip, case = options["strip_whitespace"], options["case_sensitive"]
    e, a = _normalise(expected, strip, case), _normalise(actual, strip, case)
    if len(e) != len(a):
        raise ValueError("expected and actual must have the same length")
    return _as_outcome(map(operator.eq, e, a), len(e))


def contains_many(expected: Sequence[str], actual: Sequence[str],
                  options: Mapping[str, Any]) -> ManyOutcome:
    case = options["case_sensitive"]
    needles = _normalise(expected, True, case)
    hays = actual if case else folded_texts(actual)
    if len(needles) != len(hays):
        raise ValueError("expected and actual must have the same length")
    return _as_outcome(map(operator.contains, hays, needles), len(hays))


register(MetricSpec(
    id="exact_match",
    text=True,
    label="Exact match",
    direction=Direction.MAX,
    default_threshold=0.5,
    options=(CASE, STRIP),
    definition="1 if the two texts are equal (after stripping surrounding whitespace), else 0.",
    compute=exact_match,
    compute_many=exact_match_many,
    display_order=10,
    batch_cost_us=0.3,
    shares_edit_script=False,
))

register(MetricSpec(
    id="contains",
    text=True,
    label="Contains",
    direction=Direction.MAX,
    default_threshold=0.5,
    options=(CASE,),
    definition="1 if the stripped expected text occurs anywhere in the actual text, else 0.",
    compute=contains,
    compute_many=contains_many,
    display_order=20,
    batch_cost_us=0.3,
    shares_edit_script=False,
))
