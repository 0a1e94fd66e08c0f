"""core.diff.navigation: the one next/previous-difference rule (locate, and F7's step)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchlens.core.diff.alignment import align, next_hunk, previous_hunk
from matchlens.core.diff.navigation import Located, locate, step

# kitten/sitting: hunks start at 0 ("k"->"s"), 4 ("e"->"i") and 6 ("g" added), on both sides
STARTS = [h.exp_start for h in align("kitten", "sitting").hunks]


def test_the_example_starts():
    assert STARTS == [0, 4, 6]


@pytest.mark.parametrize(("position", "expected"), [
    (-1, Located(None, None, 0)),
    (0, Located(0, None, 1)),   # on hunk 0: nothing before it
    (2, Located(None, 0, 1)),
    (4, Located(1, 0, 2)),
    (6, Located(2, 1, None)),
    (7, Located(None, 2, None)),
])
def test_locate(position, expected):
    assert locate(STARTS, position) == expected
    # the view's numpy column answers the same
    assert locate(np.array(STARTS, dtype=np.int64), position) == expected


@pytest.mark.parametrize(("position", "forward", "first", "expected"), [
    (0, True, True, (0, False)),    # first F7 with a difference at the caret shows it
    (0, True, False, (1, False)),   # afterwards F7 leaves the difference the caret is on
    (2, True, True, (1, False)),
    (6, True, False, (0, True)),    # past the last: wraps around to the first
    (7, True, True, (0, True)),
    (4, False, False, (0, False)),
    (0, False, False, (2, True)),   # before the first: wraps around to the last
    (0, False, True, (2, True)),
])
def test_step(position, forward, first, expected):
    assert step(np.array(STARTS, dtype=np.int64), position, forward, first=first) == expected


def test_no_differences_no_step():
    assert step(np.zeros(0, dtype=np.int64), 3, True, first=True) is None
    assert step([], 0, False, first=False) is None
    assert locate([], 5) == Located(None, None, None)


@given(st.lists(st.integers(0, 60), unique=True).map(sorted), st.integers(-2, 62),
       st.booleans(), st.booleans())
def test_step_is_the_view_rule_it_replaced(starts, position, forward, first):
    """The rule the compare view kept before core owned it: numpy's searchsorted on the
    column, 'left' for the first jump forward and every jump back, else 'right'."""
    column = np.array(starts, dtype=np.int64)
    if not starts:
        assert step(column, position, forward, first=first) is None
        return
    if forward:
        index = int(np.searchsorted(column, position, side="left" if first else "right"))
        old = (0, True) if index >= len(starts) else (index, False)
    else:
        index = int(np.searchsorted(column, position, side="left")) - 1
        old = (len(starts) - 1, True) if index < 0 else (index, False)
    assert step(column, position, forward, first=first) == old


@given(st.text("ab \n", max_size=12), st.text("ab \n", max_size=12), st.integers(-1, 13),
       st.sampled_from(["expected", "actual"]))
def test_next_and_previous_hunk_are_locate(expected, actual, position, side):
    hunks = align(expected, actual).hunks
    starts = [h.start(side) for h in hunks]
    found = locate(starts, position)
    assert next_hunk(hunks, position, side) == found.next
    assert previous_hunk(hunks, position, side) == found.previous
