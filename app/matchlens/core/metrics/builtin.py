"""Registers the built-in metrics in the order the window shows them."""

from matchlens.core.metrics import (  # noqa: F401
    error_rates,
    exact,
    jaccard,
    json_distance,
    levenshtein,
    rouge,
    sacrebleu_metrics,
    token_f1,
)
