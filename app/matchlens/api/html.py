"""The HTML a Comparison shows in Jupyter: the inline diff and the score table.

Every text that comes from the user (the texts, metric explanations) is escaped (the diff by
core.output.reports.diff_markup, the one place diffs are marked up): an output holding
`<script>` is shown, never run. Colours are translucent
tints so the diff reads on a light and a dark notebook theme alike (the window derives its
tints from the palette for the same reason).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from matchlens.core.diff.readable.chunks import Chunk
from matchlens.core.metrics.registry import get_metric
from matchlens.core.output.reports.diff_markup import diff_html as chunks_html
from matchlens.core.results import threshold_text

_DELETE = ("background: rgba(220, 40, 40, 0.22); text-decoration: line-through; "
           "text-decoration-color: rgba(200, 30, 30, 0.9);")
_INSERT = "background: rgba(30, 170, 70, 0.25); text-decoration: none;"
_TEXT = ("white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, "
         "SFMono-Regular, Menlo, Consolas, monospace; line-height: 1.5; padding: 6px 0;")
_VERDICT = {"pass": "✓ pass", "fail": "✗ fail", "scored": "scored", "invalid": "invalid",
            "error": "error"}


def diff_html(expected: str, actual: str, chunks: Sequence[Mapping[str, Any]]) -> str:
    """The texts as one (core.output.reports.diff_markup, with inline styles): equal text
    once, deleted then inserted text marked."""
    return chunks_html(expected, actual,
                       [Chunk(c["op"], *c["expected"], *c["actual"]) for c in chunks],
                       deleted_attrs=f' style="{_DELETE}" title="expected"',
                       inserted_attrs=f' style="{_INSERT}" title="actual"')


def threshold_label(metric_id: str, threshold: float | None) -> str:
    return threshold_text(get_metric(metric_id).direction, threshold)


def scores_html(scores: Mapping[str, Mapping[str, Any]]) -> str:
    """One row per metric: its score, threshold and verdict, the explanation on hover."""
    rows = []
    for metric_id, s in scores.items():
        score = "–" if s["score"] is None else f"{s['score']:.4g}"
        rows.append(
            f'<tr title="{escape(s["explanation"])}"><td style="text-align:left">'
            f'{escape(metric_id)}</td><td style="text-align:right">{score}</td>'
            f'<td style="text-align:left">{escape(threshold_label(metric_id, s["threshold"]))}'
            f'</td><td style="text-align:left">{escape(_VERDICT.get(s["label"], s["label"]))}'
            "</td></tr>")
    head = ('<tr><th style="text-align:left">metric</th><th style="text-align:right">score'
            '</th><th style="text-align:left">threshold</th><th style="text-align:left">'
            "verdict</th></tr>")
    return f"<table>{head}{''.join(rows)}</table>"


def comparison_html(expected: str, actual: str, distance: int,
                    chunks: Sequence[Mapping[str, Any]],
                    scores: Mapping[str, Mapping[str, Any]]) -> str:
    """A Comparison's fields as one block: the caption, the inline diff and the score table."""
    edits = distance
    caption = (f"{edits} edit{'' if edits == 1 else 's'} (Levenshtein); "
               '<del style="' + _DELETE + '">expected only</del> '
               '<ins style="' + _INSERT + '">actual only</ins>')
    return (f'<div class="matchlens-compare"><div style="font-size: 85%; opacity: 0.8">'
            f'{caption}</div><div style="{_TEXT}">{diff_html(expected, actual, chunks)}</div>'
            f"{scores_html(scores)}</div>")
