"""token_f1: SQuAD's token-level F1 (multiset overlap of whitespace tokens)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from matchlens.core.metrics.registry import ManyOutcome, MetricSpec, register
from matchlens.core.results import Direction, Outcome


def token_f1(expected_tokens: Sequence[str], actual_tokens: Sequence[str]) -> tuple[float, int]:
    """(F1, shared tokens). Either side without tokens: 1.0 if both have none, else 0.0
    (SQuAD v2.0's rule for unanswerable questions)."""
    if not expected_tokens or not actual_tokens:
        return float(len(expected_tokens) == len(actual_tokens)), 0
    common = sum((Counter(actual_tokens) & Counter(expected_tokens)).values())
    return _f1(common, len(expected_tokens), len(actual_tokens)), common


def _f1(common: int, n_expected: int, n_actual: int) -> float:
    if common == 0:
        return 0.0
    precision = common / n_actual
    recall = common / n_expected
    return 2 * precision * recall / (precision + recall)


def _outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    e, a = expected.split(), actual.split()
    score, common = token_f1(e, a)
    if not e and not a:
        return Outcome(score, "Neither text has any tokens")
    if not e or not a:
        side = "expected" if not e else "actual"
        return Outcome(score, f"The {side} text has no tokens")
    return Outcome(score, f"{common} shared tokens: precision {common}/{len(a)}, "
                          f"recall {common}/{len(e)}")


def _many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
          ) -> ManyOutcome:
    scores = []
    append = scores.append
    for e, a in zip(expected, actual, strict=True):
        if e == a:  # the same tokens (or none on both sides): 1.0 without counting
            append(1.0)
            continue
        e_tokens, a_tokens = e.split(), a.split()
        if not e_tokens or not a_tokens:
            append(float(len(e_tokens) == len(a_tokens)))
            continue
        # no token repeated on either side (most answers): the shared multiset is the set
        # intersection, in C; Counter's & is a Python loop
        e_set, a_set = set(e_tokens), set(a_tokens)
        if len(e_set) == len(e_tokens) and len(a_set) == len(a_tokens):
            append(_f1(len(e_set & a_set), len(e_tokens), len(a_tokens)))
        else:
            append(token_f1(e_tokens, a_tokens)[0])
    return ManyOutcome(np.array(scores, dtype=np.float64), np.zeros(len(scores), dtype=np.int8))


register(MetricSpec(
    id="token_f1",
    text=True,
    normalise_default="squad",
    label="Token F1",
    direction=Direction.MAX,
    default_threshold=None,
    options=(),
    definition="SQuAD F1: harmonic mean of token precision and recall over the normalised "
               "(squad by default) whitespace tokens; 1 when both texts have no tokens.",
    compute=_outcome,
    compute_many=_many,
))
