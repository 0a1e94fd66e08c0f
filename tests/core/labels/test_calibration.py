"""core.calibration: hand-derived small cases, then Hypothesis against slow per-threshold loops."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.labels.calibration import (
    MIN_LABELLED,
    Confusion,
    confusion_at,
    count_passing,
    labelled,
    sweep,
)
from matchlens.core.results import Direction, passes

MAX, MIN = Direction.MAX, Direction.MIN

# Six rows, best score first: labels T T F T F F (3 human passes, 3 fails).
SCORES = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
LABELS = [True, True, False, True, False, False]


def test_confusion_at_a_threshold_between_scores():
    data = labelled(SCORES, LABELS)
    c = confusion_at(data, 0.65, MAX)
    # >= 0.65 passes 0.9, 0.8 (labelled pass: TP 2) and 0.7 (labelled fail: FP 1);
    # 0.6 is a labelled pass that fails (FN 1); 0.5 and 0.4 are labelled fails that fail (TN 2).
    assert (c.tp, c.fp, c.tn, c.fn) == (2, 1, 2, 1)
    assert c.precision == pytest.approx(2 / 3)  # 2 / (2 + 1)
    assert c.recall == pytest.approx(2 / 3)  # 2 / (2 + 1)
    assert c.f1 == pytest.approx(2 / 3)  # 2*2 / (2*2 + 1 + 1)
    assert c.accuracy == pytest.approx(4 / 6)  # (2 + 2) / 6


def test_sweep_counts_f1_and_best():
    s = sweep(labelled(SCORES, LABELS), MAX)
    assert s.thresholds.tolist() == [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]  # strictest first
    # Walking down the rows: T T F T F F
    assert s.tp.tolist() == [1, 2, 2, 3, 3, 3]
    assert s.fp.tolist() == [0, 0, 1, 1, 2, 3]
    # F1 = 2TP / (2TP + FP + FN), FN = 3 - TP:
    # 2/4, 4/5, 4/6, 6/7, 6/8, 6/9
    assert s.f1() == pytest.approx([0.5, 0.8, 4 / 6, 6 / 7, 0.75, 6 / 9])
    best = s.best()
    assert best.threshold == 0.6 and best.f1 == pytest.approx(6 / 7)
    assert best.ties.tolist() == [0.6]
    assert (best.confusion.tp, best.confusion.fp) == (3, 1)


def test_roc_and_auc():
    s = sweep(labelled(SCORES, LABELS), MAX)
    fpr, tpr = s.roc()
    # FP / 3 and TP / 3 at each threshold, from (0, 0):
    assert fpr == pytest.approx([0, 0, 0, 1 / 3, 1 / 3, 2 / 3, 1])
    assert tpr == pytest.approx([0, 1 / 3, 2 / 3, 2 / 3, 1, 1, 1])
    # Pairs (pass, fail) ordered right: 0.9 and 0.8 beat all 3 fails, 0.6 beats 0.5 and 0.4
    # -> 8 of 9 pairs.
    assert s.auc() == pytest.approx(8 / 9)


def test_ties_pick_the_strictest():
    # T F F T: F1 at 0.9 = 2/(2+0+1) = 2/3; at 0.6 = 4/(4+2+0) = 4/6 = 2/3 — a tie.
    s = sweep(labelled(np.array([0.9, 0.8, 0.7, 0.6]), [True, False, False, True]), MAX)
    best = s.best()
    assert best.ties.tolist() == [0.9, 0.6]
    assert best.threshold == 0.9  # the strictest
    assert "1 other threshold: 0.6" in best.sentence(MAX)


def test_best_says_how_many_rows_pass_and_beats_passing_everything():
    # SCORES / LABELS: best F1 6/7 at >= 0.6 (derived above), where 0.9, 0.8, 0.7, 0.6 pass:
    # 4 of the 6 rows. Passing every row: TP 3, FP 3, FN 0 -> F1 = 6 / (6 + 3) = 2/3.
    best = sweep(labelled(SCORES, LABELS), MAX).best()
    assert best.passing == 4
    assert best.baseline_f1 == pytest.approx(2 / 3)
    assert best.useful  # 6/7 > 2/3
    text = best.sentence(MAX, "Jaccard")
    assert text.startswith("Best F1 0.857 at ≥ 0.6: 4 of 6 labelled rows pass there")
    assert "passing every row would give F1 0.667" in text


def test_a_best_that_passes_everything_is_no_suggestion():
    # Scores 1, 0, 1, 0 labelled T, T, F, F: the metric says nothing about the labels.
    # >= 1 passes rows 0 and 2: TP 1, FP 1, FN 1 -> F1 2/4 = 0.5.
    # >= 0 passes all four: TP 2, FP 2, FN 0 -> F1 4/6 = 0.667, the same as passing everything.
    best = sweep(labelled(np.array([1.0, 0.0, 1.0, 0.0]), [True, True, False, False]),
                 MAX).best()
    assert best.threshold == 0.0 and best.passing == 4 and not best.useful
    text = best.sentence(MAX, "Exact match")
    assert text.startswith("No useful threshold: the best F1, 0.667 at ≥ 0 "
                           "(all 4 labelled rows pass there)")
    assert "no better than passing every row (F1 0.667)" in text
    assert "By F1, Exact match does not separate the human labels." in text


def test_a_strict_tie_with_passing_everything_is_no_suggestion_either():
    # 0.9 T, 0.5 F, 0.4 F, 0.1 T (P 2, N 2): >= 0.9 -> TP 1, FP 0, FN 1 -> 2/3;
    # >= 0.5 -> 2/4; >= 0.4 -> 2/5; >= 0.1 -> TP 2, FP 2 -> 4/6 = 2/3 = passing everything.
    # The strictest tie (0.9, one row passes) is suggested, and the text says it is no use.
    best = sweep(labelled(np.array([0.9, 0.5, 0.4, 0.1]), [True, False, False, True]),
                 MAX).best()
    assert best.threshold == 0.9 and best.passing == 1 and not best.useful
    text = best.sentence(MAX)
    assert "at ≥ 0.9 (1 of 4 labelled rows pass there)" in text
    assert "this metric does not separate the human labels" in text
    assert "(the same F1 at 1 other threshold: 0.1; the strictest is suggested)" in text


def test_best_is_stated_at_the_precision_the_window_shows():
    # 0.6667 T, 0.6 F, 0.3 F: >= 0.6667 alone separates them (F1 1). Rounded to 2 decimals,
    # 0.67 would fail the 0.6667 row; 0.66 lets exactly the same row pass (0.6 < 0.66).
    s = sweep(labelled(np.array([0.6667, 0.6, 0.3]), [True, False, False]), MAX)
    assert s.best().threshold == 0.6667
    assert s.best(decimals=2).threshold == 0.66
    assert s.at(0.66) == s.at(0.6667)
    # 0.6667 T, 0.665 F: 0.66 would let 0.665 pass too, and 0.67 fails both: stays 0.6667.
    s = sweep(labelled(np.array([0.6667, 0.665]), [True, False]), MAX)
    assert s.best(decimals=2).threshold == 0.6667
    # Lower is better: 0.3333 T, 0.4 F; <= 0.33 fails both, <= 0.34 passes only 0.3333.
    s = sweep(labelled(np.array([0.3333, 0.4]), [True, False]), MIN)
    assert s.best(decimals=2).threshold == 0.34
    # Already round (an edit distance): unchanged.
    s = sweep(labelled(np.array([0.0, 1.0, 2.0, 3.0]), [True, True, False, False]), MIN)
    assert s.best(decimals=0).threshold == 1.0


def test_min_direction_distance_like():
    # Edit distances: 0 and 1 labelled pass, 2 and 3 fail; a MIN metric passes score <= t.
    s = sweep(labelled(np.array([0.0, 1.0, 2.0, 3.0]), [True, True, False, False]), MIN)
    assert s.thresholds.tolist() == [0, 1, 2, 3]  # strictest (lowest) first
    best = s.best()
    assert best.threshold == 1.0 and best.f1 == 1.0  # <= 1 separates them perfectly
    assert s.auc() == 1.0
    c = s.at(1.5)  # between candidates: same rows pass as at 1
    assert (c.tp, c.fp, c.tn, c.fn) == (2, 0, 2, 0)
    assert confusion_at(labelled(np.array([0.0, 1.0, 2.0, 3.0]), [True, True, False, False]),
                        1.5, MIN) == c


def test_at_beyond_the_scores():
    s = sweep(labelled(SCORES, LABELS), MAX)
    assert s.at(0.95) == Confusion(0, 0, 3, 3)  # nothing passes
    assert s.at(0.1) == Confusion(3, 3, 0, 0)  # everything passes
    assert s.at(0.65) == Confusion(2, 1, 2, 1)  # as derived above


def test_excluded_rows_are_counted():
    data = labelled(np.array([0.5, np.nan, 0.7, np.nan]), [True, False, None, None])
    assert data.n == 1  # only row 0 has both
    assert data.no_score == 1  # row 1: labelled fail, no score
    assert data.no_label == 2  # rows 2 and 3
    assert "2 without a label" in data.excluded_text()
    assert "fewer than 30" in data.warning()


def test_warning_disappears_with_enough_rows():
    n = MIN_LABELLED
    data = labelled(np.linspace(0, 1, n), [i % 2 == 0 for i in range(n)])
    assert data.warning() is None
    one_sided = labelled(np.linspace(0, 1, n), [True] * n)
    assert "Every labelled row is a pass" in one_sided.warning()
    assert sweep(one_sided, MAX).auc() is None


def test_empty_and_undefined_ratios():
    c = Confusion(0, 0, 0, 0)
    assert c.precision is None and c.recall is None and c.f1 is None and c.accuracy is None
    assert Confusion(0, 0, 5, 0).f1 is None  # no positives at all
    assert Confusion(0, 2, 0, 3).f1 == 0.0  # defined, just bad
    s = sweep(labelled(np.array([]), []), MAX)
    assert s.best() is None and s.auc() is None


def test_count_passing():
    sorted_scores = np.array([0.1, 0.5, 0.5, 0.9])
    assert count_passing(sorted_scores, 0.5, MAX) == 3  # 0.5, 0.5, 0.9 are >= 0.5
    assert count_passing(sorted_scores, 0.5, MIN) == 3  # 0.1, 0.5, 0.5 are <= 0.5
    assert count_passing(sorted_scores, 1.0, MAX) == 0
    assert count_passing(sorted_scores, 0.0, MIN) == 0


# --- Hypothesis against slow, obviously right loops ----------------------------------------------

# Few distinct scores so that ties (the hard part) are common.
_rows = st.lists(
    st.tuples(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0, 3.0]), st.booleans()),
    max_size=40,
)
_direction = st.sampled_from([MAX, MIN])


def _slow_confusion(rows, t, direction) -> Confusion:
    tp = fp = tn = fn = 0
    for score, label in rows:
        ok = passes(direction, score, t)
        if ok and label:
            tp += 1
        elif ok:
            fp += 1
        elif label:
            fn += 1
        else:
            tn += 1
    return Confusion(tp, fp, tn, fn)


def _data(rows):
    return labelled(np.array([r[0] for r in rows], dtype=float), [r[1] for r in rows])


@settings(max_examples=200, deadline=None)
@given(_rows, _direction, st.floats(-1, 4))
def test_sweep_matches_per_threshold_loop(rows, direction, probe):
    s = sweep(_data(rows), direction)
    assert sorted(set(s.thresholds.tolist())) == sorted({r[0] for r in rows})
    for k, t in enumerate(s.thresholds.tolist()):
        assert s.confusion(k) == _slow_confusion(rows, t, direction)
    assert s.at(probe) == _slow_confusion(rows, probe, direction)
    assert confusion_at(_data(rows), probe, direction) == _slow_confusion(rows, probe, direction)


@settings(max_examples=200, deadline=None)
@given(_rows, _direction)
def test_auc_is_the_pairwise_probability(rows, direction):
    pos = [s for s, label in rows if label]
    neg = [s for s, label in rows if not label]
    auc = sweep(_data(rows), direction).auc()
    if not pos or not neg:
        assert auc is None
        return
    # P(a labelled pass scores better than a labelled fail), ties counted half.
    wins = 0.0
    for p in pos:
        for q in neg:
            better = p > q if direction is MAX else p < q
            wins += 1.0 if better else 0.5 if p == q else 0.0
    assert auc == pytest.approx(wins / (len(pos) * len(neg)))


@settings(max_examples=200, deadline=None)
@given(_rows, _direction)
def test_best_is_the_strictest_maximal_f1(rows, direction):
    best = sweep(_data(rows), direction).best()
    if not any(label for _, label in rows):
        assert best is None
        return
    f1 = {}
    for t in {r[0] for r in rows}:
        c = _slow_confusion(rows, t, direction)
        f1[t] = Fraction(2 * c.tp, 2 * c.tp + c.fp + c.fn)
    top = max(f1.values())
    tied = [t for t, v in f1.items() if v == top]
    strictest = max(tied) if direction is MAX else min(tied)
    assert best.threshold == strictest
    assert sorted(best.ties.tolist()) == sorted(tied)
    assert math.isclose(best.f1, float(top))


def test_kappa_against_its_definition_and_its_undefined_cases():
    from matchlens.core.labels.calibration import Confusion

    # TP 20, FP 5, TN 10, FN 5 (n = 40): observed agreement p_o = 30/40 = 0.75; both raters
    # pass 25 of 40, so chance agreement p_e = (25/40)² + (15/40)² = 0.53125;
    # kappa = (0.75 − 0.53125) / (1 − 0.53125) = 0.21875 / 0.46875 = 7/15.
    assert Confusion(20, 5, 10, 5).kappa == pytest.approx(7 / 15)
    # Perfect disagreement on balanced classes: p_o = 0, p_e = 0.5 -> kappa = −1.
    assert Confusion(0, 5, 0, 5).kappa == pytest.approx(-1.0)
    # Both raters pass every row: chance agreement is already 1 -> undefined, not 0 or 1.
    assert Confusion(7, 0, 0, 0).kappa is None
    assert Confusion(0, 0, 0, 0).kappa is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.floats(0, 1)),
                          st.sampled_from([True, False, None])), max_size=40))
def test_labelled_keeps_exactly_the_rows_with_a_score_and_a_label(rows):
    scores = np.array([np.nan if s is None else s for s, _ in rows], dtype=float)
    labels = [label for _, label in rows]
    data = labelled(scores, labels)
    kept = [(s, label) for s, label in rows if s is not None and label is not None]
    assert data.scores.tolist() == [s for s, _ in kept]
    assert data.labels.tolist() == [label for _, label in kept]
    assert data.no_score == sum(1 for s, label in rows if s is None and label is not None)
    assert data.no_label == sum(1 for _, label in rows if label is None)


def test_labelled_shares_the_scores_when_every_row_is_kept_and_they_stay_unwritable():
    scores = np.array([0.2, 0.9, 0.5])
    data = labelled(scores, [True, False, True])
    assert np.shares_memory(data.scores, scores)  # no second copy of a million scores
    assert data.labels.tolist() == [True, False, True] and data.n == 3
    with pytest.raises(ValueError):
        data.scores[0] = 1.0  # a sweep can never change the result's scores through it
    part = labelled(scores, [True, None, True])
    assert part.scores.tolist() == [0.2, 0.5] and not np.shares_memory(part.scores, scores)
