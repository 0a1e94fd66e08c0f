"""`matchlens.compare`: one pair of texts as the compare view sees it, as plain data.

`.chunks` are the pieces a person reads, `.edits` the exact Levenshtein edit script (one entry
per unit edit, so `len(edits) == distance`), `.scores` one entry per metric; the offsets are
code-point offsets into the original texts, as `matchlens diff --json` gives them. In Jupyter
the result draws itself (`_repr_html_`): the highlighted diff and the score table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from matchlens.api.plan import ConfigLike, settle_metrics
from matchlens.core.alignment import Alignment, EditKind, align
from matchlens.core.results import Label, MetricResult, Outcome, judge, threshold_text

_EDIT_OP = {EditKind.SUBSTITUTE: "replace", EditKind.DELETE: "delete", EditKind.INSERT: "insert"}


@dataclass(frozen=True)
class Comparison:
    expected: str
    actual: str
    distance: int
    chunks: list[dict[str, Any]] = field(repr=False)
    edits: list[dict[str, Any]] = field(repr=False)
    scores: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The shape `matchlens diff --json` prints."""
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
            normalise: str | Sequence[str] | None = None) -> Comparison:
    """Compare two texts: chunks, exact edits and every metric's score and verdict.

    `metrics`, `config`, `overrides` and `normalise` as in `matchlens.score`. The edit
    script follows `levenshtein_distance`'s `case_sensitive` option, so its length is that
    metric's score.
    """
    for name, text in (("expected", expected), ("actual", actual)):
        if not isinstance(text, str):
            from matchlens.core.errors import ConfigError

            raise ConfigError(f"{name} must be a text (str), not {type(text).__name__}")
    metric_ids, config_ = settle_metrics(metrics, config, overrides, normalise)
    case = bool(config_.settings("levenshtein_distance").options.get("case_sensitive", True))
    alignment = align(expected, actual, case_sensitive=case)
    scores = {}
    for metric_id in metric_ids:
        settings = config_.settings(metric_id)
        result = _judged(metric_id, expected, actual, settings.options, settings.threshold)
        scores[metric_id] = {
            "score": result.score, "passed": result.passed, "label": str(result.label),
            "threshold": settings.threshold, "explanation": result.explanation,
        }
    return Comparison(expected, actual, alignment.distance, chunks_of(alignment, expected,
                      actual), edits_of(alignment), scores)


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


def edits_of(alignment: Alignment) -> list[dict[str, Any]]:
    """One entry per unit edit of the counted spans (a case-only mark is no edit)."""
    edits = []
    for span in alignment.spans:
        if not span.counted:
            continue
        op = _EDIT_OP[span.kind]
        for k in range(span.units or 0):
            e = span.exp_start + (0 if span.kind is EditKind.INSERT else k)
            a = span.act_start + (0 if span.kind is EditKind.DELETE else k)
            edits.append({"op": op,
                          "expected": [e, e + (span.kind is not EditKind.INSERT)],
                          "actual": [a, a + (span.kind is not EditKind.DELETE)]})
    return edits


def chunks_of(alignment: Alignment, expected: str, actual: str) -> list[dict[str, Any]]:
    """The texts cut at the compare view's differences (each hunk one chunk, the text between
    them equal): concatenating equal and delete chunks gives `expected`, equal and insert
    chunks `actual`."""
    chunks: list[dict[str, Any]] = []
    e = a = 0
    for hunk in alignment.hunks:
        if hunk.exp_start > e:
            chunks.append(_chunk("equal", e, hunk.exp_start, a, hunk.act_start))
        has_e, has_a = hunk.exp_end > hunk.exp_start, hunk.act_end > hunk.act_start
        op = "replace" if has_e and has_a else "delete" if has_e else "insert"
        chunks.append(_chunk(op, hunk.exp_start, hunk.exp_end, hunk.act_start, hunk.act_end))
        e, a = hunk.exp_end, hunk.act_end
    if e < len(expected) or a < len(actual):
        chunks.append(_chunk("equal", e, len(expected), a, len(actual)))
    return chunks


def _chunk(op: str, e1: int, e2: int, a1: int, a2: int) -> dict[str, Any]:
    return {"op": op, "expected": [e1, e2], "actual": [a1, a2]}
