"""Results validate themselves; the threshold rule is the same for every metric."""

from __future__ import annotations

import math

import pytest

from matchlens.core.results import (
    Direction,
    Label,
    MetricResult,
    Outcome,
    judge,
    passes,
    threshold_text,
)


@pytest.mark.parametrize(
    ("direction", "score", "threshold", "want"),
    [
        (Direction.MAX, 0.7, 0.7, True),  # maximised: score >= threshold (equality passes)
        (Direction.MAX, 0.69, 0.7, False),
        (Direction.MIN, 3, 3, True),  # minimised: score <= threshold
        (Direction.MIN, 4, 3, False),
    ],
)
def test_threshold_rule(direction, score, threshold, want):
    assert passes(direction, score, threshold) is want


def test_judge_labels():
    assert judge(Outcome(0.9, "x"), Direction.MAX, 0.8).label is Label.PASS
    assert judge(Outcome(0.7, "x"), Direction.MAX, 0.8).label is Label.FAIL
    assert judge(Outcome(0.7, "x"), Direction.MAX, None).label is Label.SCORED
    bad = judge(Outcome(None, "bad json", Label.INVALID), Direction.MIN, 0)
    assert (bad.score, bad.passed, bad.label) == (None, None, Label.INVALID)


@pytest.mark.parametrize(
    "make",
    [
        lambda: MetricResult(None, True, Label.PASS, ""),
        lambda: MetricResult(1.0, True, Label.FAIL, ""),
        lambda: MetricResult(1.0, None, Label.PASS, ""),
        lambda: Outcome(None, "no label"),
        lambda: Outcome(math.nan, "nan"),
    ],
)
def test_inconsistent_results_raise_value_error(make):
    with pytest.raises(ValueError):
        make()


def test_threshold_text():
    assert threshold_text(Direction.MAX, 0.7) == "≥ 0.70"
    assert threshold_text(Direction.MIN, 3) == "≤ 3"
    assert threshold_text(Direction.MIN, None) == "no threshold"
