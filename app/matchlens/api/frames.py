"""The columns `matchlens score` adds, as pandas columns: the same names (`score_columns`), the
same values, typed for a DataFrame instead of written as text.

A score is a float (NaN where the row has none); an integer metric (`levenshtein_distance`,
`json_distance`) is a nullable integer; a `_pass` column is a nullable boolean (<NA> where there
is no verdict), matching the `true` / `false` / empty cells the command writes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matchlens.core.output.score_columns import check_collisions, score_columns
from matchlens.core.scoring.batch import BatchResult


def added_columns(result: BatchResult) -> dict[str, Any]:
    """Column name -> pandas array, in the order the command writes them."""
    import pandas as pd

    out: dict[str, Any] = {}
    for col in score_columns(result):
        if col.is_pass:
            verdicts = result.verdicts(col.variant, col.metric_id)
            out[col.name] = pd.arrays.BooleanArray(verdicts == 1, verdicts == -1)
            continue
        scores = result.scores[(col.variant, col.metric_id)]
        if result.job(col.metric_id).spec.integer:
            missing = np.isnan(scores)
            values = np.where(missing, 0, scores).astype(np.int64)
            out[col.name] = pd.arrays.IntegerArray(values, missing)
        else:
            out[col.name] = scores.copy()
    return out


def scored_frame(input_frame: Any, result: BatchResult, source: str | None = None) -> Any:
    """The input columns unchanged, then the score columns (ConfigError, as the command's,
    when the input already has one of them)."""
    import pandas as pd

    check_collisions([str(c) for c in input_frame.columns], result, source)
    added = pd.DataFrame(added_columns(result))
    # side by side by position: an index with repeated labels must not be aligned
    out = pd.concat([input_frame.reset_index(drop=True), added], axis=1)
    out.index = input_frame.index
    out.attrs = {}
    return out
