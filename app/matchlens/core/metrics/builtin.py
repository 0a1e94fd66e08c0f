"""The built-in metric modules: importing one registers its metrics (the package imports this).
A new metric is its module, with its `register(MetricSpec(...))`, and its line here."""

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
