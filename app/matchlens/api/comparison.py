"""`matchlens.compare`: one pair of texts as the compare view sees it, as plain data.

The same computation as `matchlens diff --json` and the window (`core.diff.pair.compare_pair`):
`.chunks` are the readable pieces the compare view draws, `.edits` the exact Levenshtein edit
script (one entry per unit edit, so `len(edits) == distance`), `.moves` the moved sentences,
list items and paragraphs (`core.diff.moves`), `.scores` one entry per metric;
offsets are code-point offsets into the original texts. In Jupyter the result draws itself
(`_repr_html_`, `api.html`): the highlighted diff and the score table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from matchlens.api.html import comparison_html
from matchlens.api.plan import ConfigLike, settle_metrics
from matchlens.core.diff.pair import compare_pair, score_entry
from matchlens.core.errors import ConfigError

# What `diff --json` prints of each metric (core.diff.pair.score_entry).
_ENTRY = ("score", "label", "explanation", "fields")


@dataclass(frozen=True)
class Comparison:
    expected: str
    actual: str
    distance: int
    chunks: list[dict[str, Any]] = field(repr=False)
    edits: list[dict[str, Any]] = field(repr=False)
    scores: dict[str, dict[str, Any]]
    moves: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """What `matchlens diff --json` prints for the same texts and options."""
        return {"distance": self.distance, "edits": self.edits, "chunks": self.chunks,
                "moves": self.moves,
                "scores": {k: {key: v[key] for key in _ENTRY if key in v}
                           for k, v in self.scores.items()}}

    def _repr_html_(self) -> str:
        return comparison_html(self.expected, self.actual, self.distance, self.chunks,
                               self.scores)

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
    compared = compare_pair(expected, actual, settled, metric_ids, words=words)
    diff = compared.diff.as_dict()
    scores = {
        metric_id: {**score_entry(metric_id, result), "passed": result.passed,
                    "threshold": compared.thresholds[metric_id]}
        for metric_id, result in compared.results.items()
    }
    return Comparison(expected, actual, diff["distance"], diff["chunks"], diff["edits"], scores,
                      diff["moves"])
