"""The metric registry: every front end (CLI columns, score panels, histograms, the batch's
cost estimate, the compare view's lanes) is built from it.

The table is filled by the metric modules (`register`); importing the package
`matchlens.core.metrics` imports the built-in ones (`builtin`), so the lookups here always see
them. Nothing here imports a metric module. The names a front end needs of `spec` and
`shared_work` are importable from here too: it is the one place they look.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matchlens.core.errors import ConfigError
from matchlens.core.metrics.normalising import normalising_metric
from matchlens.core.metrics.shared_work import (  # noqa: F401 - the front ends' import path
    folded_texts,
    metric_threads,
    shared,
    sharing_work,
    stripped_texts,
    threads_per_process,
)
from matchlens.core.metrics.spec import (  # noqa: F401 - the front ends' import path
    BASE_URL_FROM,
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_NAMES,
    STATUS_SCORED,
    ComputeFn,
    ManyFn,
    ManyOutcome,
    MetricSpec,
    OptionSpec,
    many_by_pairs,
    shown,
)
from matchlens.core.results import MetricResult, judge

REGISTRY: dict[str, MetricSpec] = {}

# The five text metrics `matchlens score` runs when --metrics is not given.
DEFAULT_METRICS = (
    "exact_match",
    "contains",
    "levenshtein_distance",
    "levenshtein_similarity",
    "jaccard",
)


def register(spec: MetricSpec) -> MetricSpec:
    """Add a metric to the table (a text metric gets its `normalise` option here)."""
    if spec.text:
        spec = normalising_metric(spec)
    REGISTRY[spec.id] = spec
    return spec


def get_metric(metric_id: str) -> MetricSpec:
    try:
        return REGISTRY[metric_id]
    except KeyError:
        valid = ", ".join(spec.id for spec in all_metrics())
        raise ConfigError(f"unknown metric {metric_id!r}; valid metrics: {valid}") from None


def all_metrics() -> list[MetricSpec]:
    """Every registered metric in display order (the window's panels, error messages); one
    without an order comes last, in the order it was registered."""
    last = float("inf")
    return sorted(REGISTRY.values(),
                  key=lambda spec: last if spec.display_order is None else spec.display_order)


def local_metric_ids() -> list[str]:
    """Every registered metric that needs no network (what `--metrics all` means)."""
    return [spec.id for spec in all_metrics() if not spec.network]


def edit_script_metric_ids() -> frozenset[str]:
    """The metrics that need the character edit script of the texts (see MetricSpec)."""
    return frozenset(spec.id for spec in REGISTRY.values() if spec.shares_edit_script)


def evaluate(spec: MetricSpec, expected: str, actual: str, *,
             threshold: float | None | object = ..., options: Mapping[str, Any] | None = None,
             ) -> MetricResult:
    """Score one pair with the spec's defaults, updated by `threshold` and `options`."""
    resolved = spec.resolve_options(options)
    limit = spec.default_threshold if threshold is ... else threshold
    return judge(spec.compute(expected, actual, resolved), spec.direction, limit)  # type: ignore[arg-type]
