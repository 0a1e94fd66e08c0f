"""Metric implementations and their registry."""

from matchlens.core.metrics.registry import (
    DEFAULT_METRICS,
    REGISTRY,
    MetricSpec,
    OptionSpec,
    evaluate,
    get_metric,
    local_metric_ids,
)

__all__ = [
    "REGISTRY",
    "DEFAULT_METRICS",
    "MetricSpec",
    "OptionSpec",
    "evaluate",
    "get_metric",
    "local_metric_ids",
]
