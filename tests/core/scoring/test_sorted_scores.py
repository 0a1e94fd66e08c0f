"""SortedScores (stats.py): counts at a threshold and the median, as over the sorted array."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.labels.calibration import count_passing
from matchlens.core.results import Direction
from matchlens.core.scoring.stats import SortedScores

# few distinct values (run-length form) and mostly distinct ones (the plain sorted array)
VALUES = st.one_of(
    st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, -np.inf, np.inf]), max_size=60),
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=60))


@settings(max_examples=150, deadline=None)
@given(VALUES, st.floats(-2e6, 2e6, allow_nan=False), st.sampled_from(list(Direction)))
def test_counts_and_median_are_those_of_the_sorted_scores(values, threshold, direction):
    scores = np.array(values, dtype=float)
    ordered = np.sort(scores)
    kept = SortedScores(np.random.default_rng(0).permutation(scores))
    for t in (threshold, *values[:5]):  # thresholds on a score count it (ties)
        assert kept.passing(t, direction) == count_passing(ordered, t, direction)
    assert [kept.at(k) for k in range(scores.size)] == ordered.tolist()
    if scores.size:
        with np.errstate(invalid="ignore"):
            np.testing.assert_equal(kept.median(), float(np.median(ordered)))  # NaN == NaN
    else:
        assert kept.median() is None


def test_few_distinct_scores_are_kept_as_runs_and_many_as_the_sorted_array():
    binary = SortedScores(np.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0]))
    assert binary.values.tolist() == [0.0, 1.0] and binary.upto.tolist() == [2, 6]
    assert binary.passing(1.0, Direction.MAX) == 4 and binary.passing(0.5, Direction.MIN) == 2
    spread = SortedScores(np.array([0.3, 0.1, 0.2]))
    assert spread.upto is None and spread.values.tolist() == [0.1, 0.2, 0.3]
