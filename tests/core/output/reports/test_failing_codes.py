"""core.output.reports.failing_codes: two scores share a key exactly when `failing_sentence`
writes them the same (the reference: the sentence itself, made one score at a time), and the
codes number the distinct keys as `np.unique` would group them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.output.reports.failing_codes import dense_codes, text_keys
from matchlens.core.output.reports.rows import failing_sentence
from matchlens.core.results import Direction

# scores as metrics give them, and the hard ones: exact halves of a hundredth (k/8: 0.125 is
# written 0.12, half to even), floats a hair either side of a half (0.285 is 0.28499…), whole
# numbers (written without decimals against a whole threshold), fractions of small counts
halves = st.integers(0, 800).map(lambda k: k / 8)
hairs = st.integers(0, 1000).flatmap(lambda k: st.sampled_from(
    [(k + 0.5) / 100, np.nextafter((k + 0.5) / 100, 0), np.nextafter((k + 0.5) / 100, 2)]))
fractions = st.tuples(st.integers(0, 60), st.integers(1, 60)).map(lambda t: t[0] / t[1])
scores = st.lists(st.one_of(halves, hairs, fractions, st.integers(0, 10**6).map(float),
                            st.floats(0, 1e9, allow_nan=False)), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(scores, st.sampled_from([0.7, 1.0, 3.0, 0.125]), st.booleans())
def test_same_key_exactly_when_the_same_sentence(values, threshold, integer):
    array = np.array(values, dtype=np.float64)
    keys = text_keys(array, threshold, integer)
    said = [failing_sentence("m", v, threshold, Direction.MAX, integer) for v in values]
    assert keys is not None
    for a in range(len(values)):
        for b in range(len(values)):
            assert (keys[a] == keys[b]) == (said[a] == said[b]), (values[a], values[b])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -0.0, -0.5, 1e13])
def test_scores_not_keyed_say_so(bad):
    assert text_keys(np.array([0.5, bad]), 0.7, False) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5) | st.integers(-(10**15), 10**15), max_size=50))
def test_dense_codes_group_as_unique_does(values):
    keys = np.array(values, dtype=np.int64)
    number, first = dense_codes(keys)
    assert len(first) == len(set(values))
    for row, code in enumerate(number.tolist()):
        assert keys[first[code]] == keys[row]
        assert first[code] == values.index(values[row])  # the first row holding the key
