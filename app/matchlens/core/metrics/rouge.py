"""rouge_l: longest common subsequence of words, as an F-measure."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rapidfuzz.distance import LCSseq

from matchlens.core.metrics.registry import MetricSpec, register
from matchlens.core.results import Direction, Outcome

# rouge-score's tokenizer lower-cases and keeps runs of [a-z0-9]; this is the same on ASCII text
# and keeps letters of every script instead of dropping them.
_WORD = re.compile(r"[^\W_]+")


def rouge_tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def rouge_l(expected: str, actual: str) -> tuple[float, int, int, int]:
    """(F-measure, LCS length, expected words, actual words)."""
    ref, hyp = rouge_tokens(expected), rouge_tokens(actual)
    if not ref and not hyp:
        return 1.0, 0, 0, 0
    if not ref or not hyp:
        return 0.0, 0, len(ref), len(hyp)
    # rapidfuzz's bit-parallel LCS works on any sequence of hashables, words included.
    lcs = int(LCSseq.similarity(ref, hyp))
    if lcs == 0:
        return 0.0, 0, len(ref), len(hyp)
    precision, recall = lcs / len(hyp), lcs / len(ref)
    return 2 * precision * recall / (precision + recall), lcs, len(ref), len(hyp)


def _outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    score, lcs, n_ref, n_hyp = rouge_l(expected, actual)
    if n_ref == n_hyp == 0:
        return Outcome(score, "Neither text has any words")
    return Outcome(score, f"Longest common word sequence: {lcs} of {n_ref} expected, "
                          f"{n_hyp} actual words")


register(MetricSpec(
    id="rouge_l",
    text=True,
    label="ROUGE-L",
    direction=Direction.MAX,
    default_threshold=None,
    options=(),
    definition="F-measure of the longest common subsequence of (lower-cased) words, 0–1.",
    compute=_outcome,
))
