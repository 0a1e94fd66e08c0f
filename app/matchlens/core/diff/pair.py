"""One pair compared: the readable diff and every metric's verdict, the one way to do it.

The compare view (one metric at a time, through `core.diff.tasks`), `matchlens diff` and
`matchlens.compare` all come here, so they agree by construction on two things:

* which metric's case option decides the highlight, the distance, the edits and the chunks
  (`DISTANCE_METRIC`: the number of highlighted edits is always the distance its panel shows);
* what a metric that raises gives: an `Outcome` with `Label.ERROR` and a sentence naming the
  metric and the exception, shown as that metric's result (a metric bug must not stop the
  others, nor kill the compare view's lane process).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

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


def metric_outcome(metric_id: str, expected: str, actual: str,
                   options: Mapping[str, Any] | None) -> Outcome:
    """One metric's outcome for the pair, its options resolved; an exception is its error."""
    spec = get_metric(metric_id)
    try:
        return spec.compute(expected, actual, spec.resolve_options(options))
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
