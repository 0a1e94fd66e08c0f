"""What the batch table shows in a cell, for each role: the row number and texts, a score, a
delta against the baseline, the row's verdict; and the table's columns (`Column`,
`table_columns`). Pure functions of the values they are given: the model only looks them up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt

from matchlens.core.metrics.registry import STATUS_NAMES, STATUS_SCORED, MetricSpec
from matchlens.core.results import passes, threshold_text
from matchlens.core.scoring.view_order import ROW_FAIL, ROW_NONE, ROW_PASS, ROW_PROBLEM
from matchlens.core.text.elide import elide

ELIDE = 80
TOOLTIP_CHARS = 2000
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_DISPLAY, _TIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole


@dataclass(frozen=True)
class Column:
    key: str  # "#", "id", "expected", "actual", "score:<metric_id>", "verdict"
    title: str
    tip: str


def table_columns(has_ids: bool, extra: Iterable[Column], specs: Mapping[str, MetricSpec],
                  baseline: str | None) -> list[Column]:
    """The table's columns: row number, id, texts, the columns others add (the human's
    verdict), a score per metric (and its delta when a baseline is chosen), the verdict."""
    cols = [Column("#", "#", "Row number in the file (1 = first data row)")]
    if has_ids:
        cols.append(Column("id", "id", "The id column"))
    cols += [Column("expected", "expected", "Expected text (full text on hover)"),
             Column("actual", "actual", "Actual text of the selected variant")]
    cols += list(extra)  # the human's verdict, in view
    for metric_id, spec in specs.items():
        cols.append(Column(f"score:{metric_id}", spec.label, f"{spec.label}: {spec.definition}"))
        if baseline is not None:
            cols.append(Column(f"delta:{metric_id}", f"Δ {spec.label}",
                               f"{spec.label}: this run's score minus the baseline's "
                               "(empty where either has none); sort it to find the "
                               "rows that moved most"))
    cols.append(Column("verdict", "verdict", "pass: every thresholded metric passes; "
                       "fail: one fails; error: one has no score"))
    return cols


def text_cell(row: int, key: str, text: str | None, role: int, dim: object) -> object:
    """The "#", "id", "expected" and "actual" cells (`text`: None where the row has none)."""
    if role == Qt.ItemDataRole.TextAlignmentRole and key == "#":
        return _RIGHT
    if role not in (_DISPLAY, _TIP):
        if role == Qt.ItemDataRole.ForegroundRole and text is None:
            return dim
        return None
    if key == "#":
        return str(row + 1)
    if text is None:
        return "(none)" if role == _DISPLAY else "No value in this row"
    if role == _DISPLAY:
        # one display line: line breaks and tabs as symbols, cut at ELIDE characters
        return elide(text, ELIDE, at="end", whitespace="symbols")
    return text if len(text) <= TOOLTIP_CHARS else text[:TOOLTIP_CHARS] + " …"


def score_cell(spec: MetricSpec, score: float, status: int, threshold: float | None,
               message: str | None, role: int, colours) -> object:  # noqa: ANN001
    """A metric's cell: its score (or why there is none), coloured by the threshold.
    `message`: why this row has no score, when the scorer said."""
    if role == _DISPLAY:
        if status != STATUS_SCORED:
            return STATUS_NAMES[status]
        return f"{score:.0f}" if spec.integer else f"{score:.3f}"
    if role == Qt.ItemDataRole.TextAlignmentRole:
        return _RIGHT
    if role == Qt.ItemDataRole.BackgroundRole:
        if status != STATUS_SCORED:
            return colours.problem
        if threshold is None:
            return None
        return colours.passed if passes(spec.direction, score, threshold) else colours.failed
    if role == _TIP:
        if status != STATUS_SCORED:
            return message or f"{STATUS_NAMES[status]}: no score for this row"
        if threshold is None:
            return f"{spec.label} {score:g} (no threshold)"
        verdict = "passes" if passes(spec.direction, score, threshold) else "fails"
        return f"{spec.label} {score:g} {verdict} {threshold_text(spec.direction, threshold)}"
    return None


def delta_cell(spec: MetricSpec, before: float, after: float, role: int) -> object:
    """This run's score minus the baseline's (empty where either has none)."""
    if role == Qt.ItemDataRole.TextAlignmentRole:
        return _RIGHT
    if role not in (_DISPLAY, _TIP):
        return None
    if math.isnan(before) or math.isnan(after):
        if role == _TIP:
            return "No delta: the baseline or this run has no score for this row"
        return ""
    delta = after - before
    text = f"{delta:+.0f}" if spec.integer else f"{delta:+.3f}"
    text = text.replace("-", "−")
    if role == _DISPLAY:
        return text
    return f"{spec.label}: {after:g} now, {before:g} in the baseline ({text})"


def verdict_code(row: int, specs: Mapping[str, MetricSpec], thresholds: Mapping[str, float | None],
                 scores: Callable[[str], np.ndarray]) -> int:
    """ROW_PASS / ROW_FAIL / ROW_PROBLEM / ROW_NONE for a scored row; `scores(metric_id)`: the
    variant's scores of that metric."""
    gated = problem = False
    for metric_id, spec in specs.items():
        threshold = thresholds.get(metric_id)
        if threshold is None:
            continue
        gated = True
        score = float(scores(metric_id)[row])
        if math.isnan(score):
            problem = True
        elif not passes(spec.direction, score, threshold):
            return ROW_FAIL
    return ROW_NONE if not gated else (ROW_PROBLEM if problem else ROW_PASS)


def verdict_cell(code: int, role: int, colours) -> object:  # noqa: ANN001
    """The row's verdict: pass, fail, no score (a thresholded metric has none), or nothing."""
    if role == _DISPLAY:
        return {ROW_PASS: "pass", ROW_FAIL: "fail", ROW_PROBLEM: "no score", ROW_NONE: ""}[code]
    if role == Qt.ItemDataRole.BackgroundRole:
        return {ROW_PASS: colours.passed, ROW_FAIL: colours.failed,
                ROW_PROBLEM: colours.problem}.get(code)
    if role == _TIP and code == ROW_PROBLEM:
        return "A thresholded metric has no score for this row, so the row does not pass"
    return None
