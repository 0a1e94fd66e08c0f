"""token_f1: SQuAD's token-level F1 (multiset overlap of whitespace tokens)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from matchlens.core.metrics import incremental_words
from matchlens.core.metrics.fast.word_table import metric_tokens
from matchlens.core.metrics.normalising import NORMALISE, by_word, normalises_by_word
from matchlens.core.metrics.registry import register
from matchlens.core.metrics.spec import ManyOutcome, MetricSpec
from matchlens.core.results import Direction, Outcome
from matchlens.core.text.normalise_steps import squad_fast


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


def squad_tokens(text: str) -> list[str]:
    """The whitespace tokens of SQuAD's normalisation of `text` (word by word: see
    normalising.WORD_PRESETS, so a text's tokens are its blocks' tokens)."""
    return squad_fast(text).split()


@normalises_by_word
def _outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    preset = by_word(options.get(NORMALISE))
    tokenize = squad_tokens if preset else str.split
    if incremental_words.wanted(expected, actual):  # typed into: the kept counts, updated
        counts = incremental_words.overlap(tokenize, expected, actual)
        n_e, n_a, common = counts.ref_tokens, counts.hyp_tokens, counts.common
        score = float(n_e == n_a) if not n_e or not n_a else _f1(common, n_e, n_a)
    else:
        e, a = tokenize(expected), tokenize(actual)
        (score, common), n_e, n_a = token_f1(e, a), len(e), len(a)
    if not n_e and not n_a:
        return Outcome(score, "Neither text has any tokens")
    if not n_e or not n_a:
        side = "expected" if not n_e else "actual"
        return Outcome(score, f"The {side} text has no tokens")
    return Outcome(score, f"{common} shared tokens: precision {common}/{n_a}, "
                          f"recall {common}/{n_e}")


@normalises_by_word
def _many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
          ) -> ManyOutcome:
    """token_f1 of many pairs: the chunk's words numbered once (word_table), squad applied to
    each distinct word, the shared tokens of every pair counted by a compiled loop, and the
    F1 in numpy with `_f1`'s operations in its order (exactly rounded: equal to the bit)."""
    from matchlens.core.metrics.fast.word_kernel import shared_counts

    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    n = len(expected)
    tokens = metric_tokens(expected, actual, by_word(options.get(NORMALISE)))
    n_tokens = tokens.lengths().astype(np.float64)
    n_expected, n_actual = n_tokens[:n], n_tokens[n:]
    rows = np.arange(n)
    common = shared_counts(tokens.ids, tokens.starts, tokens.ends, rows, rows + n,
                           max(len(tokens.vocabulary), 1)).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision, recall = common / n_actual, common / n_expected
        scores = 2 * precision * recall / (precision + recall)
    scores[common == 0] = 0.0
    # SQuAD v2.0: a side without tokens scores 1 if the other has none either
    scores[n_expected == 0] = n_actual[n_expected == 0] == 0
    scores[n_actual == 0] = n_expected[n_actual == 0] == 0
    return ManyOutcome(scores, np.zeros(n, dtype=np.int8))


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
    display_order=60,
    batch_cost_us=8.0,
    compiled_from_rows=0,
    shares_edit_script=False,
))
