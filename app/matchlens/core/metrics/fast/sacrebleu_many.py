"""bleu and chrf for many pairs at once, equal to sacrebleu's sentence scores to the bit.

sacrebleu scores a sentence in two steps: integer statistics (lengths and clipped n-gram
matches), then a float formula over them. Here the texts are prepared exactly as sacrebleu
prepares them, compiled (13a words as ids: bleu_tokens; for chrF whitespace removed as
`str.split` finds it: token_kernel), the clipped matches are counted by a compiled kernel (ngram_matches), the rest of the statistics
follow from the lengths, and the float formula over them is sacrebleu's own or provably the
same bits (sacrebleu_formulas).
Pairs the kernel cannot count, and every pair when numba is missing, take sacrebleu's
sentence_score itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from matchlens.core.metrics.fast.bleu_tokens import token_ids
from matchlens.core.metrics.fast.ngram_matches import UNKNOWN, count_matches, pack, whitespace_table
from matchlens.core.metrics.fast.sacrebleu_formulas import bleu_unit_scores, chrf_unit_scores
from matchlens.core.metrics.sacrebleu_sentence import (
    bleu_metric,
    chrf_metric,
    sentence_score,
    unit_score,
)
from matchlens.core.metrics.shared_work import shared
from matchlens.core.metrics.spec import ManyOutcome


def bleu_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
              ) -> ManyOutcome:
    metric = bleu_metric()
    texts, hyp, ref, packed = _texts(expected, actual)
    tokens = token_ids(metric, texts, packed)
    if tokens is None:
        return _by_sentence(metric, expected, actual)
    ids, starts, ends, alphabet = tokens
    order = metric.max_ngram_order
    matches = _count(ids, starts, ends, hyp, ref, order, alphabet)
    if matches is None:
        return _by_sentence(metric, expected, actual)
    lengths = ends - starts
    sys_len, ref_len = lengths[hyp], lengths[ref]
    totals = np.maximum(0, sys_len[:, None] - np.arange(order)[None, :])
    stats = np.column_stack([sys_len, ref_len, matches, totals])
    return _scores(stats, bleu_unit_scores, matches, metric, expected, actual)


def chrf_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
              ) -> ManyOutcome:
    metric = chrf_metric()
    if metric.word_order or metric.lowercase or metric.whitespace:
        return _by_sentence(metric, expected, actual)  # not the configuration counted here
    _, hyp, ref, packed = _texts(expected, actual)
    symbols = _chrf_symbols(packed)
    if symbols is None:
        return _by_sentence(metric, expected, actual)
    symbols, starts, ends = symbols
    order = metric.char_order
    alphabet = 128 if symbols.dtype == np.uint8 else int(symbols.max(initial=0)) + 1
    matches = _count(symbols, starts, ends, hyp, ref, order, alphabet)
    if matches is None:
        return _by_sentence(metric, expected, actual)
    n = np.arange(1, order + 1)[None, :]
    lengths = ends - starts
    lh, lr = lengths[hyp][:, None], lengths[ref][:, None]
    # [n_hyp, n_ref, n_match] per order; no reference n-gram of an order: its hypothesis
    # n-grams are not counted either (`hyp_count if ref_ngrams else 0`)
    n_ref = np.maximum(0, lr - n + 1)
    n_hyp = np.where(n_ref > 0, np.maximum(0, lh - n + 1), 0)
    stats = np.stack([n_hyp, n_ref, matches], axis=2).reshape(len(hyp), 3 * order)
    return _scores(stats, chrf_unit_scores, matches, metric, expected, actual)


def _chrf_symbols(packed: tuple):
    """The texts as sacrebleu's extract_all_char_ngrams sees them, ''.join(text.split())
    (Python's notion of whitespace), compiled; None without numba."""
    try:
        from matchlens.core.metrics.fast.token_kernel import strip_spaces
    except ImportError:
        return None
    _, cps, starts, ends = packed
    return strip_spaces(cps, starts, ends, whitespace_table())


def _texts(expected: Sequence[str], actual: Sequence[str]
           ) -> tuple[list[str], np.ndarray, np.ndarray, tuple]:
    """The references then the outputs that differ from theirs, for every row the index of
    its hypothesis (actual) and reference (expected) text, and the texts packed (pack).
    Shared by BLEU and chrF in a chunk (registry.shared: the same lists, the same answer).
    Equal references are not looked for: the compiled steps cost less per text than finding
    them would."""
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    return shared("sacrebleu texts", (expected, actual), lambda: _pack_texts(expected, actual))


def _pack_texts(expected: Sequence[str], actual: Sequence[str]):
    n = len(expected)
    differs = np.fromiter(map(ne, expected, actual), dtype=np.bool_, count=n)
    outputs = list(compress(actual, differs.tolist()))
    texts = [*expected, *outputs]
    ref = np.arange(n, dtype=np.int64)
    hyp = ref.copy()
    hyp[differs] = np.arange(n, n + len(outputs), dtype=np.int64)
    return texts, hyp, ref, pack(texts)


def _count(symbols, starts, ends, hyp, ref, order, alphabet) -> np.ndarray | None:
    try:
        return count_matches(symbols, starts, ends, hyp, ref, order, alphabet)
    except ImportError:  # numba missing (a trimmed install): sacrebleu scores every pair
        return None


def _scores(stats: np.ndarray, formula: Callable[[Any, np.ndarray], np.ndarray],
            matches: np.ndarray, metric: Any, expected: Sequence[str], actual: Sequence[str]
            ) -> ManyOutcome:
    """The scores of the statistics rows (sacrebleu_formulas), then sacrebleu's own for the
    rows the kernel could not count."""
    unknown = matches[:, 0] == UNKNOWN
    stats[unknown] = 0  # scored below; a -1 count would break the formula (log of < 0)
    scores = formula(metric, stats)
    for i in np.flatnonzero(unknown).tolist():
        scores[i] = unit_score(sentence_score(metric, actual[i], expected[i]).score)
    return ManyOutcome(scores, np.zeros(len(scores), dtype=np.int8))


def _by_sentence(metric: Any, expected: Sequence[str], actual: Sequence[str]) -> ManyOutcome:
    scores = np.fromiter((unit_score(sentence_score(metric, a, e).score)
                          for e, a in zip(expected, actual, strict=True)),
                         dtype=np.float64, count=len(expected))
    return ManyOutcome(scores, np.zeros(len(scores), dtype=np.int8))
