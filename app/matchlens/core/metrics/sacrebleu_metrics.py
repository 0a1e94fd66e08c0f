"""bleu and chrf, as sacrebleu defines them, scaled to 0–1."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from matchlens.core.metrics.registry import ManyOutcome, MetricSpec, register
from matchlens.core.results import Direction, Outcome


def unit_score(score_0_100: float) -> float:
    """sacrebleu reports 0–100 and overshoots (100.00000000000004); we report 0–1, clipped."""
    return min(1.0, max(0.0, score_0_100 / 100.0))


@cache
def _bleu():
    from sacrebleu.metrics import BLEU  # deferred: sacrebleu costs ~0.2 s to import

    # effective_order: without it an identical one-word answer scores ~0, not 1.
    return BLEU(effective_order=True)


@cache
def _chrf():
    from sacrebleu.metrics import CHRF

    return CHRF()


def sentence_score(metric: Any, hypothesis: str, reference: str) -> Any:
    """`metric.sentence_score(hypothesis, [reference])`, with the reference's statistics kept.

    The same steps sacrebleu's own sentence_score takes (base.Metric: reference cache, then the
    segment statistics, then the score), but the reference side is cached per text: while a
    user types into one side of the compare tab, the other side's n-grams are not rebuilt on
    every keystroke (half of BLEU's and chrF's 0.1-0.15 s at 100k characters). Equal to
    sentence_score, checked by Hypothesis in the tests.
    """
    metric._check_sentence_score_args(hypothesis, [reference])
    ref_info = _reference_info(metric, reference)
    stats = [metric._compute_segment_statistics(metric._preprocess_segment(hypothesis), ref_info)]
    return metric._aggregate_and_compute(stats)


@lru_cache(maxsize=4)
def _reference_info(metric: Any, reference: str) -> Any:
    return metric._cache_references([[reference]])[0]


def _bleu_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    result = sentence_score(_bleu(), actual, expected)
    precisions = " / ".join(f"{p:.0f}" for p in result.precisions)
    return Outcome(unit_score(result.score),
                   f"n-gram precisions {precisions} %, brevity penalty {result.bp:.2f}")


def _chrf_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    result = sentence_score(_chrf(), actual, expected)
    return Outcome(unit_score(result.score), "Character n-gram F-score (n ≤ 6, β = 2)")


def _bleu_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
               ) -> ManyOutcome:
    from matchlens.core.metrics.sacrebleu_many import bleu_many  # it imports this module

    return bleu_many(expected, actual, options)


def _chrf_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
               ) -> ManyOutcome:
    from matchlens.core.metrics.sacrebleu_many import chrf_many

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
))
