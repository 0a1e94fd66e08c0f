"""One row's change since the baseline (no Qt): the label of one metric and of the row, by
run_summary's own rules (`metric_codes`, `row_codes`) applied to that row alone, so the compare
view's row bar says what `score --baseline` writes in `<id>_change` and `change` and what the
Runs view counts — without labelling a million rows for each step through them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from matchlens.core.scoring.batch import BatchResult, verdict_array
from matchlens.core.scoring.run_summary import LABELS, metric_codes, row_codes


@dataclass(frozen=True)
class RowChange:
    """`metric` ("regressed" … "gone", LABELS) of `metric_id` and the row's `row` label, with the
    metric's score in the baseline and now (NaN: none)."""

    metric_id: str
    metric: str
    row: str
    before: float
    after: float

    def __post_init__(self) -> None:
        for label in (self.metric, self.row):
            if label not in LABELS:
                raise ValueError(f"{label!r} is not a change label ({', '.join(LABELS)})")


def row_change(result: BatchResult, baseline: str, variant: str, row: int, metric_id: str,
               thresholds: Mapping[str, float | None], in_baseline: bool, in_run: bool
               ) -> RowChange:
    """Row `row` of `variant` against the `baseline` variant of the same result, under
    `thresholds` (a metric missing there keeps its job's threshold). `in_baseline` / `in_run`:
    whether each run's file has the row's id."""
    if not 0 <= row < result.rows:
        raise ValueError(f"row {row} is outside the result's {result.rows} rows")
    if baseline not in result.variants or variant not in result.variants:
        raise ValueError(f"no baseline to compare {variant!r} with")
    cut = slice(row, row + 1)
    present = np.array([in_baseline]), np.array([in_run])
    passed, passes = np.ones(1, dtype=bool), np.ones(1, dtype=bool)
    gated = False
    metric = None
    for job in result.jobs:
        limit = thresholds.get(job.id, job.threshold)
        before = result.scores[(baseline, job.id)][cut]
        after = result.scores[(variant, job.id)][cut]
        verdicts = (None, None)
        if limit is not None:
            gated = True
            verdicts = (verdict_array(before, job.spec, limit),
                        verdict_array(after, job.spec, limit))
            passed &= verdicts[0] == 1
            passes &= verdicts[1] == 1
        if job.id == metric_id:
            code = metric_codes(before, after, *verdicts, job.spec.direction, *present)
            metric = (LABELS[int(code[0])], float(before[0]), float(after[0]))
    if metric is None:
        raise ValueError(f"{metric_id!r} was not scored")
    code = row_codes(passed if gated else None, passes if gated else None, *present)
    return RowChange(metric_id, metric[0], LABELS[int(code[0])], metric[1], metric[2])
