"""Registers the built-in metrics in the order the window shows them."""

from matchlens.core.metrics import (  # noqa: F401
    exact,
    jaccard,
    json_distance,
    levenshtein,
    rouge,
    sacrebleu_metrics,
)
