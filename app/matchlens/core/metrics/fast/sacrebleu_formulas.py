"""The float step of sacrebleu's sentence BLEU and chrF for many statistics rows at once, equal
to sacrebleu's own to the bit.

- BLEU's formula takes logarithms and an exponential, which numpy computes with its own
  (vectorised) routines that may differ from the C library's `math.log` by an ulp; so it runs
  in Python, once per distinct statistics row, and its result is kept for the rest of the
  process (rows repeat within a chunk and across chunks: every exact answer of a given length
  has the same statistics). It runs as `_sentence_bleu`: the statements of sacrebleu's
  compute_bleu for sentence BLEU's settings, in its order, calling the same math.exp, my_log
  and sum, without the BLEUScore it builds (whose string formatting is most of its cost), and
  checked against sacrebleu's own on a few new rows of every call.
- chrF's formula is nothing but +, -, * and / on IEEE doubles, each correctly rounded whether
  Python or numpy does it, so the same operations in the same order over whole columns give
  the same bits. A few rows of every call are checked against sacrebleu's `_compute_f_score`
  all the same: a sacrebleu that changed its formula is followed (row by row), not
  contradicted.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Callable
from itertools import repeat
from typing import Any

import numpy as np

from matchlens.core.metrics.sacrebleu_sentence import unit_score

# Distinct BLEU statistics rows remembered per metric object: a bounded dict (a row's key is
# 40 bytes; 300k of them ~ 60 MB at most, then the dict starts again).
_CACHE_LIMIT = 300_000
_caches: weakref.WeakKeyDictionary[Any, dict[bytes, float]] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()
_CHECKED_ROWS = 8  # rows per call checked against sacrebleu's own formula


def bleu_unit_scores(metric: Any, stats: np.ndarray) -> np.ndarray:
    """unit_score(metric._compute_score_from_stats(row).score) for every row of `stats`."""
    from sacrebleu.metrics import BLEU

    def sacrebleus(row: list[int]) -> float:
        return metric._compute_score_from_stats(row).score

    if not (type(metric) is BLEU and metric.smooth_method == "exp" and metric.effective_order):
        return cached_unit_scores(metric, stats, sacrebleus)
    order = metric.max_ngram_order
    checked: list[int] = []

    def formula(row: list[int]) -> float:
        score = _sentence_bleu(row, order)
        if len(checked) < _CHECKED_ROWS:
            checked.append(1)
            if score != sacrebleus(row):
                raise _Disagrees
        return score

    try:
        return cached_unit_scores(metric, stats, formula)
    except _Disagrees:  # a sacrebleu with another formula: its own, row by row
        with _caches_lock:
            _caches.pop(metric, None)
        return cached_unit_scores(metric, stats, sacrebleus)


class _Disagrees(Exception):
    pass


def _sentence_bleu(row: list[int], order: int) -> float:
    """BLEU.compute_bleu(correct, total, sys_len, ref_len, 'exp', None, True, order).score:
    sacrebleu 2.x's statements for these settings, in its order."""
    from sacrebleu.utils import my_log

    sys_len, ref_len = row[0], row[1]
    correct, total = row[2:2 + order], row[2 + order:]
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * order
    smooth_mteval = 1.0
    eff_order = order
    for n in range(1, order + 1):
        if total[n - 1] == 0:
            break
        eff_order = n
        if correct[n - 1] == 0:
            smooth_mteval *= 2
            precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    return bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)


def cached_unit_scores(metric: Any, stats: np.ndarray,
                       formula: Callable[[list[int]], float]) -> np.ndarray:
    """unit_score(formula(row)) for every row: the formula once per row never seen before by
    this process (for this metric object). Every row is looked up by its bytes (cheaper than
    finding the distinct rows first: most rows of a chunk were seen before)."""
    if not len(stats):
        return np.zeros(0, dtype=np.float64)
    rows = np.ascontiguousarray(stats, dtype=np.int32)  # counts of tokens: far below 2**31
    keys = rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel().tolist()
    with _caches_lock:
        cache = _caches.setdefault(metric, {})
    values = np.fromiter(map(cache.get, keys, repeat(np.nan)), dtype=np.float64,
                         count=len(keys))
    new = np.flatnonzero(np.isnan(values))
    if len(cache) + len(new) > _CACHE_LIMIT:
        cache.clear()
    for at, row in zip(new.tolist(), stats[new].tolist(), strict=True):
        value = cache.get(keys[at])
        if value is None:  # not a row earlier in this chunk either
            value = cache[keys[at]] = unit_score(formula(row))
        values[at] = value
    return values


def chrf_unit_scores(metric: Any, stats: np.ndarray) -> np.ndarray:
    """unit_score(metric._compute_f_score(row)) for every row of `stats` ([n_hyp, n_ref,
    n_match] per order), computed column-wise; sacrebleu's own formula on each distinct row if
    the columns disagree with it on the rows checked (or the configuration is another)."""
    from sacrebleu.metrics import CHRF

    if type(metric) is not CHRF or metric.eps_smoothing or metric.word_order:
        return cached_unit_scores(metric, stats, metric._compute_f_score)
    values = _chrf_columns(stats, metric.order, metric.beta)
    checked = np.linspace(0, len(stats) - 1, min(_CHECKED_ROWS, len(stats))).astype(np.int64)
    for at, row in zip(checked.tolist(), stats[checked].tolist(), strict=True):
        if unit_score(metric._compute_f_score(row)) != values[at]:
            return cached_unit_scores(metric, stats, metric._compute_f_score)
    return values


def _chrf_columns(stats: np.ndarray, order: int, beta: int | float) -> np.ndarray:
    """CHRF._compute_f_score (eps_smoothing off) and unit_score, step by step, on columns.

    Python's int / int of numbers below 2**53 converts both exactly and divides once, as
    numpy's int64 / int64 does; a branch becomes np.where over both outcomes (the outcome
    not taken may divide by zero: silenced, then discarded); adding 0.0 for an order skipped
    changes no sum of non-negative numbers."""
    factor = beta ** 2
    rows = len(stats)
    avg_prec, avg_rec = np.zeros(rows), np.zeros(rows)
    effective_order = np.zeros(rows, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):
            n_hyp, n_ref, n_match = stats[:, 3 * i], stats[:, 3 * i + 1], stats[:, 3 * i + 2]
            both = (n_hyp > 0) & (n_ref > 0)
            # prec and rec are eps where their count is 0, but then the order is not summed
            avg_prec = avg_prec + np.where(both, n_match / n_hyp, 0.0)
            avg_rec = avg_rec + np.where(both, n_match / n_ref, 0.0)
            effective_order += both
        some = effective_order > 0
        avg_prec = np.where(some, avg_prec / effective_order, 0.0)
        avg_rec = np.where(some, avg_rec / effective_order, 0.0)
        score = (1 + factor) * avg_prec * avg_rec
        score = score / ((factor * avg_prec) + avg_rec)
        score = np.where(avg_prec + avg_rec != 0, 100 * score, 0.0)
    return np.minimum(1.0, np.maximum(0.0, score / 100.0))
