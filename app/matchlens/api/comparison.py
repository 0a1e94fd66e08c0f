"""`matchlens.compare`: one pair of texts as the compare view sees it, as plain data.

The same computation as `matchlens diff --json` (`core.readable`): `.chunks` are the readable
pieces the compare view draws, `.edits` the exact Levenshtein edit script (one entry per unit
edit, so `len(edits) == distance`), `.scores` one entry per metric; offsets are code-point
offsets into the original texts. In Jupyter the result draws itself (`_repr_html_`): the
highlighted diff and the score table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from matchlens.api.plan import ConfigLike, settle_metrics
from matchlens.core.diff.readable.chunks import readable_diff
from matchlens.core.errors import ConfigError
from matchlens.core.results import Label, MetricResult, Outcome, judge, threshold_text

# Its case option decides the distance, the edits and the chunks, as in the window and `diff`.
DISTANCE_METRIC = "levenshtein_distance"


@dataclass(frozen=True)
class Comparison:
    expected: str
    actual: str
    distance: int
    chunks: list[dict[str, Any]] = field(repr=False)
    edits: list[dict[str, Any]] = field(repr=False)
    scores: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """What `matchlens diff --json` prints for the same texts and options."""
        return {"distance": self.distance, "edits": self.edits, "chunks": self.chunks,
                "scores": {k: {"score": v["score"], "label": v["label"]}
                           for k, v in self.scores.items()}}

    def _repr_html_(self) -> str:
        from matchlens.api.html import comparison_html

        return comparison_html(self)

    def __str__(self) -> str:
        lines = [f"{self.distance} edit{'' if self.distance == 1 else 's'}, "
                 f"{len(self.chunks)} chunk{'' if len(self.chunks) == 1 else 's'}"]
        for metric_id, s in self.scores.items():
            score = "–" if s["score"] is None else f"{s['score']:g}"
            lines.append(f"  {metric_id:<24}{score:>8}  {s['label']}")
        return "\n".join(lines)


def compare(expected: str, actual: str, *, metrics: str | Sequence[str] | None = None,
            config: ConfigLike = None, overrides: Sequence[str] = (),
            normalise: str | Sequence[str] | None = None, words: bool = False) -> Comparison:
    """Compare two texts: readable chunks, the exact edits and every metric's verdict.

    `metrics`, `config`, `overrides` and `normalise` as in `matchlens.score`; `words=True`
    keeps every change to whole words (`diff --words`). The edits follow
    `levenshtein_distance`'s `case_sensitive` option, so their number is that metric's score.
    """
    for name, text in (("expected", expected), ("actual", actual)):
        if not isinstance(text, str):
            raise ConfigError(f"{name} must be a text (str), not {type(text).__name__}")
    metric_ids, settled = settle_metrics(metrics, config, overrides, normalise)
    case = bool(settled.settings(DISTANCE_METRIC).options.get("case_sensitive", True))
    diff = readable_diff(expected, actual, case_sensitive=case, words=words).as_dict()
    scores = {}
    for metric_id in metric_ids:
        settings = settled.settings(metric_id)
        result = _judged(metric_id, expected, actual, settings.options, settings.threshold)
        scores[metric_id] = {
            "score": result.score, "passed": result.passed, "label": str(result.label),
            "threshold": settings.threshold, "explanation": result.explanation,
        }
    return Comparison(expected, actual, diff["distance"], diff["chunks"], diff["edits"], scores)


def _judged(metric_id: str, expected: str, actual: str, options, threshold) -> MetricResult:
    from matchlens.core.metrics import get_metric

    spec = get_metric(metric_id)
    try:
        outcome = spec.compute(expected, actual, options)
    except Exception as err:  # as the compare view: a metric bug is that metric's error
        outcome = Outcome(None, f"{spec.label} failed: {type(err).__name__}: {err}", Label.ERROR)
    return judge(outcome, spec.direction, threshold)


def threshold_label(metric_id: str, threshold: float | None) -> str:
    from matchlens.core.metrics import get_metric

    return threshold_text(get_metric(metric_id).direction, threshold)
