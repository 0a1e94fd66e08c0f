"""search_hits (view_order.py) over rows handed out in slices: the same rows as one pass."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.scoring import view_order
from matchlens.core.scoring.view_order import ViewData, search_hits

TEXTS = st.sampled_from(["Paris", "paris is", "London", "", None, "PARIS"])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(TEXTS, TEXTS), max_size=40), st.sampled_from(["paris", "Paris", "x"]),
       st.integers(1, 9), st.booleans())
def test_search_in_slices_finds_the_rows_a_plain_loop_finds(pairs, needle, step, backwards):
    expected = [e for e, _ in pairs]
    actual = [a for _, a in pairs]
    data = ViewData(done=len(pairs), ids=None, expected=expected, actual=actual, scores={},
                    status={}, specs={}, thresholds={})
    rows = np.arange(len(pairs))[::-1] if backwards else np.arange(len(pairs))

    def hit(text):
        text = text or ""
        return needle in (text.lower() if needle == needle.lower() else text)

    want = [i for i in rows.tolist() if hit(expected[i]) or hit(actual[i])]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(view_order, "SEARCH_SLICE", step)
        got = search_hits(data, rows, needle)
    assert got.dtype == np.int64 and got.tolist() == want
