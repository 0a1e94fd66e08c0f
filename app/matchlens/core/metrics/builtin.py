"""Registers the built-in metrics in the order the window shows them."""

from matchlens.core.metrics import (  # noqa: F401
    exact,
    levenshtein,
    jaccard,
    json_distance,
    sacrebleu_metrics,
    rouge,
)
