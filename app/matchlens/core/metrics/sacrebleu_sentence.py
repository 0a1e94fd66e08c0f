"""bleu and chrf of one pair as sacrebleu computes them: the metric objects, sacrebleu's
sentence_score with each reference's statistics kept (and long hypotheses counted
incrementally), and the 0-1 scale. Both the per-pair metrics and the batch path use these."""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from typing import Any

from matchlens.core.metrics.incremental_ngrams import MIN_INCREMENTAL, NgramTally, tokens_13a


def unit_score(score_0_100: float) -> float:
    """sacrebleu reports 0–100 and overshoots (100.00000000000004); we report 0–1, clipped."""
    return min(1.0, max(0.0, score_0_100 / 100.0))


@cache
def bleu_metric():
    from sacrebleu.metrics import BLEU  # deferred: sacrebleu costs ~0.2 s to import

    # effective_order: without it an identical one-word answer scores ~0, not 1.
    return BLEU(effective_order=True)


@cache
def chrf_metric():
    from sacrebleu.metrics import CHRF

    return CHRF()


def sentence_score(metric: Any, hypothesis: str, reference: str) -> Any:
    """`metric.sentence_score(hypothesis, [reference])`, with the reference's statistics kept.

    The same steps sacrebleu's own sentence_score takes (base.Metric: reference cache, then the
    segment statistics, then the score), but the reference side is cached per text: while a
    user types into one side of the compare tab, the other side's n-grams are not rebuilt on
    every keystroke (half of BLEU's and chrF's 0.1-0.15 s at 100k characters). For long texts
    the hypothesis side is counted incrementally too (`incremental_ngrams`: what a keystroke
    changed, not the whole text). Equal to sentence_score, checked by Hypothesis in the tests.
    """
    metric._check_sentence_score_args(hypothesis, [reference])
    ref_info = _reference_info(metric, reference)
    if _block_tokens(metric, hypothesis):
        # BLEU's preprocessing (lowercase, right-strip, 13a) block by block: a keystroke
        # re-tokenizes one block, the tokenizer's own cache answers for the others.
        text = (hypothesis.lower() if metric.lowercase else hypothesis).rstrip()
        stats = [_bleu_statistics(metric, tokens_13a(metric.tokenizer, text), ref_info)]
    else:
        stats = [_segment_statistics(metric, metric._preprocess_segment(hypothesis), ref_info)]
    return metric._aggregate_and_compute(stats)


def _block_tokens(metric: Any, hypothesis: str) -> bool:
    from sacrebleu.metrics import BLEU

    return (isinstance(metric, BLEU) and len(hypothesis) >= MIN_INCREMENTAL
            and metric.tokenizer.signature() == "13a")


# One tally per metric object and reference: the hypothesis counts of the last call, updated
# by what changed since (a keystroke), not rebuilt (see incremental_ngrams).
_tallies: dict[int, tuple[Any, NgramTally, list[int]]] = {}
_tally_lock = threading.Lock()


def _segment_statistics(metric: Any, hypothesis: str, ref_info: Any) -> list[int]:
    """`metric._compute_segment_statistics(hypothesis, ref_info)`, incrementally for long
    texts (one reference; chrF without word n-grams, BLEU): the same integers."""
    from sacrebleu.metrics import BLEU, CHRF

    chrf = isinstance(metric, CHRF) and metric.word_order == 0
    if len(hypothesis) < MIN_INCREMENTAL or not (chrf or isinstance(metric, BLEU)):
        return metric._compute_segment_statistics(hypothesis, ref_info)
    with _tally_lock:
        if chrf:
            refs = ref_info["ref_ngrams"][0]  # one Counter per order
            tally, ref_totals = _tally(metric, ref_info, metric.char_order, refs, tokens=False)
            tally.update(hypothesis if metric.whitespace else "".join(hypothesis.split()))
            stats = []
            for ref, total, match, ref_total in zip(refs, tally.totals(), tally.matches,
                                                    ref_totals, strict=True):
                stats.extend([total if ref else 0, ref_total, match])
            return stats
    return _bleu_statistics(metric, hypothesis.split(), ref_info)


def _bleu_statistics(metric: Any, tokens: list[str], ref_info: Any) -> list[int]:
    """BLEU's segment statistics of a tokenized hypothesis, counted incrementally."""
    order = metric.max_ngram_order
    ref = ref_info["ref_ngrams"]  # one Counter, keys are tuples of every order
    with _tally_lock:
        tally, _ = _tally(metric, ref_info, order, [ref] * order, tokens=True)
        tally.update(tokens)
        ref_len = metric._get_closest_ref_len(len(tokens), ref_info["ref_lens"])
        return [len(tokens), ref_len, *tally.matches, *tally.totals()]


def _tally(metric: Any, ref_info: Any, orders: int, refs: list[Any], tokens: bool
           ) -> tuple[NgramTally, list[int]]:
    kept = _tallies.get(id(metric))
    if kept is None or kept[0] is not ref_info:
        kept = (ref_info, NgramTally(orders, refs, tokens), [sum(r.values()) for r in refs])
        _tallies[id(metric)] = kept
    return kept[1], kept[2]


@lru_cache(maxsize=4)
def _reference_info(metric: Any, reference: str) -> Any:
    return metric._cache_references([[reference]])[0]
