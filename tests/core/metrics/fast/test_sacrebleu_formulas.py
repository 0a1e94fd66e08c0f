"""The float step of batch BLEU and chrF (sacrebleu_formulas) gives sacrebleu's own formula's
result to the bit: chrF's column-wise copy row for row against `_compute_f_score`, BLEU through
sacrebleu's formula once per statistics row the process has not seen."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import get_metric
from matchlens.core.metrics.fast import sacrebleu_formulas as formulas
from matchlens.core.metrics.sacrebleu_sentence import bleu_metric, chrf_metric, unit_score


@st.composite
def chrf_rows(draw):
    """A statistics row: per order n_hyp, n_ref and n_match <= both, either side possibly 0
    (chrF itself zeroes n_hyp where n_ref is 0; the formula is checked beyond that)."""
    row = []
    for _ in range(6):
        n_ref, n_hyp = draw(st.integers(0, 40)), draw(st.integers(0, 40))
        row += [n_hyp, n_ref, draw(st.integers(0, min(n_hyp, n_ref)))]
    return row


@settings(max_examples=300, deadline=None)
@given(st.lists(chrf_rows(), min_size=1, max_size=20))
def test_chrf_columns_are_sacrebleus_formula_to_the_bit(rows):
    metric = chrf_metric()
    want = [unit_score(metric._compute_f_score(row)) for row in rows]
    got = formulas._chrf_columns(np.array(rows, dtype=np.int64), metric.order, metric.beta)
    assert got.tolist() == want


def test_chrf_columns_on_rows_that_round_differently_by_operation_order():
    # one match in 3 and 7 n-grams: the averages are sums of thirds and sevenths, whose last
    # bit depends on the order of the additions and divisions; all-zero and one-sided rows
    # take the formula's 0.0 and eps branches
    rows = [[3, 7, 1] * 6, [7, 3, 1, 3, 7, 2, 1, 1, 1, 0, 5, 0, 9, 9, 9, 2, 3, 1], [0] * 18,
            [0, 5, 0] * 6, [5, 5, 5] + [0, 0, 0] * 5]
    metric = chrf_metric()
    got = formulas._chrf_columns(np.array(rows, dtype=np.int64), metric.order, metric.beta)
    assert got.tolist() == [unit_score(metric._compute_f_score(r)) for r in rows]


def test_a_sacrebleu_whose_chrf_formula_disagrees_is_followed(monkeypatch):
    # the rows checked against sacrebleu's formula decide: another formula is followed
    metric = chrf_metric()
    monkeypatch.setattr(metric, "_compute_f_score", lambda row: 50.0)
    formulas._caches.pop(metric, None)
    stats = np.array([[3, 7, 1] * 6, [5, 5, 5] * 6], dtype=np.int64)
    assert formulas.chrf_unit_scores(metric, stats).tolist() == [0.5, 0.5]
    formulas._caches.pop(metric, None)


def test_bleus_formula_runs_once_per_row_the_process_has_not_seen(monkeypatch):
    metric = bleu_metric()
    calls = []
    real = metric._compute_score_from_stats
    monkeypatch.setattr(metric, "_compute_score_from_stats", lambda s: calls.append(1) or real(s))
    formulas._caches.pop(metric, None)
    spec = get_metric("bleu")
    expected = ["Paris is nice", "Rome", "Paris is nice", "Oslo"] * 50
    scores = spec.many(expected, expected, {}).scores.tolist()
    # every row is an exact answer, so its statistics are those of its length alone: three
    # tokens or one -> 2 distinct rows; a second batch of the same lengths, none new
    assert scores == [1.0] * 200 and len(calls) == 2
    again = spec.many(["Oslo is far", "Bern"], ["Oslo is far", "Bern"], {}).scores.tolist()
    assert again == [1.0, 1.0] and len(calls) == 2
    spec.many(["a b"], ["a b"], {})  # two tokens: new
    assert len(calls) == 3
    formulas._caches.pop(metric, None)


def test_the_bleu_cache_starts_again_when_full(monkeypatch):
    metric = bleu_metric()
    formulas._caches.pop(metric, None)
    monkeypatch.setattr(formulas, "_CACHE_LIMIT", 3)
    stats = np.array([[n, n, n, max(0, n - 1), 0, 0, n, max(0, n - 1), 0, 0]
                      for n in range(1, 6)], dtype=np.int64)
    want = [unit_score(metric._compute_score_from_stats(r).score) for r in stats.tolist()]
    assert formulas.bleu_unit_scores(metric, stats[:2]).tolist() == want[:2]
    assert len(formulas._caches[metric]) == 2
    assert formulas.bleu_unit_scores(metric, stats).tolist() == want  # 2 + 3 new > 3: cleared
    assert len(formulas._caches[metric]) == 3
    formulas._caches.pop(metric, None)


@st.composite
def bleu_rows(draw):
    """A statistics row as sentence BLEU makes them: lengths, then per order the matches
    (at most the hypothesis' n-grams) and the hypothesis' n-grams (sys_len - n + 1)."""
    sys_len, ref_len = draw(st.integers(0, 60)), draw(st.integers(0, 60))
    totals = [max(0, sys_len - n) for n in range(4)]
    return [sys_len, ref_len, *[draw(st.integers(0, t)) for t in totals], *totals]


@settings(max_examples=300, deadline=None)
@given(st.lists(bleu_rows(), min_size=1, max_size=20))
def test_the_sentence_bleu_copy_is_sacrebleus_formula_to_the_bit(rows):
    metric = bleu_metric()
    assert [formulas._sentence_bleu(list(row), 4) for row in rows] == [
        metric._compute_score_from_stats(list(row)).score for row in rows]


def test_a_sacrebleu_whose_bleu_formula_disagrees_is_followed(monkeypatch):
    metric = bleu_metric()
    formulas._caches.pop(metric, None)

    class Score:
        score = 50.0

    monkeypatch.setattr(metric, "_compute_score_from_stats", lambda row: Score)
    stats = np.array([[3, 3, 3, 2, 1, 0, 3, 2, 1, 0], [5, 4, 2, 1, 0, 0, 5, 4, 3, 2]])
    assert formulas.bleu_unit_scores(metric, stats).tolist() == [0.5, 0.5]
    formulas._caches.pop(metric, None)
