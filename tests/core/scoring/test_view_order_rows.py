"""core.scoring.view_order: a "rows:…" filter keeps exactly the rows of its mask (the Fields
view's "Wrong $.path"), and nothing when its mask is gone."""

from __future__ import annotations

import numpy as np

from matchlens.core.scoring.view_order import (
    FILTER_ROWS_PREFIX,
    ViewData,
    ViewSpec,
    compute_order,
    filter_mask,
)


def data(masks):
    return ViewData(done=4, ids=None, expected=["a", "b", "c", "d"], actual=["a", "x", "c", "y"],
                    scores={}, status={}, specs={}, thresholds={}, row_masks=masks)


def test_rows_filter_keeps_its_mask():
    key = FILTER_ROWS_PREFIX + "$.phone"
    mask = np.array([False, True, False, True])
    assert filter_mask(data({key: mask}), key).tolist() == [False, True, False, True]
    assert list(compute_order(data({key: mask}), ViewSpec(filter=key))) == [1, 3]
    assert not filter_mask(data({}), key).any()
