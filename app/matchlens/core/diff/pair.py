"""One pair compared: the readable diff and every metric's verdict, the one way to do it.

`matchlens diff` and `matchlens.compare` call `compare_pair`; the compare view asks for one
task at a time by name (`run_task`: the highlight's SpanTable, or one metric's outcome), on the
GUI thread for small texts and in a lane process (`workers.lane_worker`) for long ones, so both
paths give the same numbers by construction. All three agree on two things:

* which metric's case option decides the highlight, the distance, the edits and the chunks
  (`DISTANCE_METRIC`: the number of highlighted edits is always the distance its panel shows);
* what a metric that raises gives: an `Outcome` with `Label.ERROR` and a sentence naming the
  metric and the exception, shown as that metric's result (a metric bug must not stop the
  others, nor kill the compare view's lane process).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_TASK, preview_table, proven_table
from matchlens.core.diff.span_table import ALIGN_TASK, table_for
from matchlens.core.metrics.json_walk import JsonDiff
from matchlens.core.metrics.registry import get_metric
from matchlens.core.results import Label, MetricResult, Outcome, judge

if TYPE_CHECKING:
    from matchlens.core.diff.readable.chunks import ReadableDiff

# Its case option decides the distance, the edits and the chunks (and the window's highlight).
DISTANCE_METRIC = "levenshtein_distance"


class Settings(Protocol):
    """What is read from a `core.config.Config` (diff sits beside config, not above it):
    `settings(metric_id)` with the metric's `.threshold` and resolved `.options`."""

    def settings(self, metric_id: str) -> Any: ...


def distance_case_sensitive(config: Settings) -> bool:
    """Whether the diff tells case apart: `DISTANCE_METRIC`'s `case_sensitive` option."""
    return bool(config.settings(DISTANCE_METRIC).options.get("case_sensitive", True))


# A metric's quicker first answer (`MetricSpec.compute_first`) is the task named
# `first_task(metric_id)`: the compare view asks for it on long texts before the metric itself.
FIRST_SUFFIX = "~first"


def first_task(metric_id: str) -> str:
    return metric_id + FIRST_SUFFIX


def metric_of_first_task(name: str) -> str | None:
    """The metric whose first answer the task `name` is, or None."""
    return name[:-len(FIRST_SUFFIX)] if name.endswith(FIRST_SUFFIX) else None


def metric_outcome(metric_id: str, expected: str, actual: str,
                   options: Mapping[str, Any] | None, first: bool = False) -> Outcome:
    """One metric's outcome for the pair, its options resolved; an exception is its error.
    `first`: its quicker first answer (`MetricSpec.compute_first`), when it has one."""
    spec = get_metric(metric_id)
    compute = spec.compute_first if first and spec.compute_first is not None else spec.compute
    try:
        return compute(expected, actual, spec.resolve_options(options))
    except Exception as err:  # a metric bug shows as that metric's error, never stops the rest
        return Outcome(None, f"{spec.label} failed: {type(err).__name__}: {err}", Label.ERROR)


@dataclass(frozen=True)
class PairComparison:
    """The readable diff of a pair and each metric's judged result (with its threshold)."""

    diff: ReadableDiff
    results: dict[str, MetricResult]
    thresholds: dict[str, float | None]


def compare_pair(expected: str, actual: str, config: Settings, metric_ids: Iterable[str], *,
                 words: bool = False, compiled: bool | None = None) -> PairComparison:
    """The readable diff (case as `DISTANCE_METRIC` says) and every metric judged against
    its configured threshold. `words` and `compiled` as in `readable_diff`."""
    # deferred: the window imports this module for `metric_outcome` and draws its diff itself
    from matchlens.core.diff.readable.chunks import readable_diff

    diff = readable_diff(expected, actual, case_sensitive=distance_case_sensitive(config),
                         words=words, compiled=compiled)
    results, thresholds = {}, {}
    for metric_id in metric_ids:
        settings = config.settings(metric_id)
        outcome = metric_outcome(metric_id, expected, actual, settings.options)
        results[metric_id] = judge(outcome, get_metric(metric_id).direction, settings.threshold)
        thresholds[metric_id] = settings.threshold
    return PairComparison(diff, results, thresholds)


def score_entry(metric_id: str, result: MetricResult) -> dict[str, Any]:
    """One metric as `matchlens diff --json` and `matchlens.compare(...).to_dict()` give it:
    score, label, explanation; json_distance adds `fields`, every differing path with its
    kind and both values, never cut short."""
    entry: dict[str, Any] = {"score": result.score, "label": str(result.label),
                             "explanation": result.explanation}
    paths = [d for d in result.details if isinstance(d, JsonDiff)]
    if paths or metric_id == "json_distance":
        entry["fields"] = [d.as_dict() for d in paths]
    return entry


def run_task(name: str, expected: str, actual: str, options: Mapping[str, Any]) -> Any:
    """One unit of the compare view's work: the alignment (a SpanTable) or one metric (an
    Outcome, which the window judges against its current threshold)."""
    if name == ALIGN_TASK:
        return table_for(expected, actual, options)
    if name == PREVIEW_TASK:
        return preview_table(expected, actual, options)
    if name == DISTANCE_TASK:
        return proven_table(expected, actual, options)
    metric_id = metric_of_first_task(name)
    if metric_id is not None:
        return metric_outcome(metric_id, expected, actual, options, first=True)
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
