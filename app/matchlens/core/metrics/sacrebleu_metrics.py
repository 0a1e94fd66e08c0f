"""bleu and chrf, as sacrebleu defines them, scaled to 0–1: their registration (the one-pair
path is sacrebleu_sentence, the batch path fast.sacrebleu_many)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matchlens.core.metrics.registry import register
from matchlens.core.metrics.sacrebleu_sentence import (
    bleu_metric,
    chrf_metric,
    sentence_score,
    unit_score,
)
from matchlens.core.metrics.spec import ManyOutcome, MetricSpec
from matchlens.core.results import Direction, Outcome


def _bleu_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    result = sentence_score(bleu_metric(), actual, expected)
    precisions = " / ".join(f"{p:.0f}" for p in result.precisions)
    return Outcome(unit_score(result.score),
                   f"n-gram precisions {precisions} %, brevity penalty {result.bp:.2f}")


def _chrf_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    result = sentence_score(chrf_metric(), actual, expected)
    return Outcome(unit_score(result.score), "Character n-gram F-score (n ≤ 6, β = 2)")


def _bleu_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
               ) -> ManyOutcome:
    from matchlens.core.metrics.fast.sacrebleu_many import (
        bleu_many,  # loaded only when a batch scores bleu
    )

    return bleu_many(expected, actual, options)


def _chrf_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
               ) -> ManyOutcome:
    from matchlens.core.metrics.fast.sacrebleu_many import chrf_many

    return chrf_many(expected, actual, options)


register(MetricSpec(
    id="bleu",
    text=True,
    label="BLEU",
    direction=Direction.MAX,
    default_threshold=None,
    options=(),
    definition="Sentence BLEU (sacrebleu, effective order), 0–1: word n-gram precision with a "
               "brevity penalty.",
    compute=_bleu_outcome,
    compute_many=_bleu_many,
    display_order=80,
    batch_cost_us=10.0,
    compiled_from_rows=0,
    shares_edit_script=False,
))

register(MetricSpec(
    id="chrf",
    text=True,
    label="chrF",
    direction=Direction.MAX,
    default_threshold=None,
    options=(),
    definition="chrF (sacrebleu), 0–1: F-score of character n-grams; robust to inflection.",
    compute=_chrf_outcome,
    compute_many=_chrf_many,
    display_order=90,
    batch_cost_us=10.0,
    compiled_from_rows=0,
    shares_edit_script=False,
))
