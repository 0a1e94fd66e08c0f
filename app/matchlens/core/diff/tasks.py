"""The work the compare view asks for, by task name: the highlight or one metric. No Qt here.

The same `run_task` runs on the GUI thread for small texts and inside a lane process
(`workers.lane_worker`) for long ones, so both paths give the same numbers by construction.
A metric's task is `core.diff.pair.metric_outcome`, the one `matchlens diff` and
`matchlens.compare` use; the window judges the outcome against its current threshold.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from matchlens.core.diff.pair import metric_outcome
from matchlens.core.diff.span_table import ALIGN_TASK, table_for


def run_task(name: str, expected: str, actual: str, options: Mapping[str, Any]) -> Any:
    """One unit of work: the alignment (a SpanTable) or one metric (an Outcome)."""
    if name == ALIGN_TASK:
        return table_for(expected, actual, options)
    return metric_outcome(name, expected, actual, options)


def timed_task(name: str, expected: str, actual: str, options: Mapping[str, Any]
               ) -> tuple[Any, float]:
    start = time.perf_counter()
    result = run_task(name, expected, actual, options)
    return result, time.perf_counter() - start


def warm_up(names: list[str]) -> None:
    """First calls pay for regex compilation and lazy imports (~80 ms for BLEU): pay it early."""
    for name in names:
        if name == ALIGN_TASK:
            for view in ("exact", "readable"):
                run_task(name, "warm up", "warm-up",
                         {"case_sensitive": True, "granularity": "char", "view": view})
            continue
        run_task(name, "warm up the metric", "warm the metric up", {})
