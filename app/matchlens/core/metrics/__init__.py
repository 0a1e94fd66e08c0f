"""Metric implementations and their registry. Importing the package registers the built-in
metrics (`builtin`), so a lookup in `registry` always finds them."""

from matchlens.core.metrics import builtin  # noqa: F401 - registers the built-in metrics
from matchlens.core.metrics.registry import (
    DEFAULT_METRICS,
    REGISTRY,
    evaluate,
    get_metric,
    local_metric_ids,
)
from matchlens.core.metrics.spec import MetricSpec, OptionSpec

__all__ = [
    "REGISTRY",
    "DEFAULT_METRICS",
    "MetricSpec",
    "OptionSpec",
    "evaluate",
    "get_metric",
    "local_metric_ids",
]
