"""rouge_l: longest common subsequence of words, as an F-measure."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import LCSseq

from matchlens.core.metrics import incremental_words
from matchlens.core.metrics.fast.word_table import as_sequences, metric_tokens
from matchlens.core.metrics.normalising import NORMALISE, by_word, normalises_by_word
from matchlens.core.metrics.registry import register
from matchlens.core.metrics.shared_work import metric_threads
from matchlens.core.metrics.spec import ManyOutcome, MetricSpec
from matchlens.core.results import Direction, Outcome

# rouge-score's tokenizer lower-cases and keeps runs of [a-z0-9]; this is the same on ASCII text
# and keeps letters of every script instead of dropping them.
_WORD = re.compile(r"[^\W_]+")


def rouge_tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


# `[^\W_]+` is a run of characters for which str.isalnum() holds (re's \w is isalnum() or
# "_"): on ASCII text, every other character made a space and `split()` gives the same words,
# in C loops instead of the regex engine's per-character class test (~10x faster).
_NOT_WORD = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalnum()})


def _rouge_tokens_fast(text: str) -> list[str]:
    if text.isascii():
        return text.lower().translate(_NOT_WORD).split()
    return _WORD.findall(text.lower())


def rouge_l(expected: str, actual: str) -> tuple[float, int, int, int]:
    """(F-measure, LCS length, expected words, actual words)."""
    if incremental_words.wanted(expected, actual):  # typed into: the LCS in a known band
        lcs, n_ref, n_hyp = incremental_words.lcs(_rouge_tokens_fast, expected, actual)
    else:
        ref, hyp = rouge_tokens(expected), rouge_tokens(actual)
        n_ref, n_hyp = len(ref), len(hyp)
        # rapidfuzz's bit-parallel LCS works on any sequence of hashables, words included.
        lcs = int(LCSseq.similarity(ref, hyp)) if ref and hyp else 0
    if not n_ref and not n_hyp:
        return 1.0, 0, 0, 0
    if lcs == 0:
        return 0.0, 0, n_ref, n_hyp
    precision, recall = lcs / n_hyp, lcs / n_ref
    return 2 * precision * recall / (precision + recall), lcs, n_ref, n_hyp


def _outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    score, lcs, n_ref, n_hyp = rouge_l(expected, actual)
    if n_ref == n_hyp == 0:
        return Outcome(score, "Neither text has any words")
    return Outcome(score, f"Longest common word sequence: {lcs} of {n_ref} expected, "
                          f"{n_hyp} actual words")


@normalises_by_word
def _many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
          ) -> ManyOutcome:
    """rouge_l of many pairs: the chunk's words numbered once (word_table), each distinct
    word split into rouge's tokens (none of which crosses whitespace), every LCS in
    rapidfuzz's C++ (`cpdist` over one character per token, on every core the batch allows),
    and the F-measure in numpy with the operations `rouge_l` does in the same order (+, *, /
    are exactly rounded in both, so the scores are equal to the bit; the tests compare)."""
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    n = len(expected)
    if n == 0:
        return ManyOutcome(np.zeros(0), np.zeros(0, dtype=np.int8))
    tokens = metric_tokens(expected, actual, by_word(options.get(NORMALISE)), "rouge",
                           _rouge_tokens_fast)
    sequences = as_sequences(tokens)
    lcs = process.cpdist(sequences[:n], sequences[n:], scorer=LCSseq.similarity, dtype=np.int64,
                         workers=metric_threads()).astype(np.float64)
    lengths = tokens.lengths().astype(np.float64)
    n_ref, n_hyp = lengths[:n], lengths[n:]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision, recall = lcs / n_hyp, lcs / n_ref
        scores = 2 * precision * recall / (precision + recall)
    scores[lcs == 0] = 0.0  # no common word, or one text without words
    scores[(n_ref == 0) & (n_hyp == 0)] = 1.0  # neither has words: identical
    return ManyOutcome(scores, np.zeros(n, dtype=np.int8))


register(MetricSpec(
    id="rouge_l",
    text=True,
    label="ROUGE-L",
    direction=Direction.MAX,
    default_threshold=None,
    options=(),
    definition="F-measure of the longest common subsequence of (lower-cased) words, 0–1.",
    compute=_outcome,
    compute_many=_many,
    display_order=100,
    batch_cost_us=8.0,
    compiled_from_rows=0,
    shares_edit_script=False,
))
