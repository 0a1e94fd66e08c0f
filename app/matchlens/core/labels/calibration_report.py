"""One metric against the human labels, in the numbers both the window and `calibrate` show.

Per metric: the suggested threshold (best F1, the strictest of ties: `Sweep.best`), precision,
recall and F1 there and how many labelled rows pass, the "pass every row" F1 it must beat,
ROC AUC, and Cohen's kappa between the metric's *current* verdict and the human (with the row
count it is over). Pure numpy, no Qt: the window's Calibration tab and `matchlens calibrate`
call the same functions, so they print the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from matchlens.core.labels.calibration import (
    Best,
    Confusion,
    Labelled,
    Sweep,
    labelled,
    shown_decimals,
    sweep,
)
from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import threshold_text


@dataclass(frozen=True)
class MetricReport:
    spec: MetricSpec
    data: Labelled
    best: Best | None  # None without a human pass among the scored rows
    auc: float | None  # None without both a pass and a fail
    threshold: float | None  # the metric's current threshold
    current: Confusion | None  # counts at the current threshold (None: no threshold)

    @property
    def kappa(self) -> float | None:
        return None if self.current is None else self.current.kappa

    def kappa_text(self) -> str:
        """'κ 0.42 (n = 57)', 'κ – (no threshold)' or 'κ – (n = 12: undefined)'."""
        if self.current is None:
            return "κ – (no threshold)"
        k = self.kappa
        if k is None:
            return f"κ – (n = {self.current.n:,}: undefined)"
        return f"κ {k:.2f} (n = {self.current.n:,})"


def report(spec: MetricSpec, data: Labelled, sw: Sweep, threshold: float | None) -> MetricReport:
    """The numbers from a sweep already made (the window makes big ones off the GUI thread)."""
    best = sw.best(shown_decimals(spec))
    current = None if threshold is None else sw.at(threshold)
    return MetricReport(spec, data, best, sw.auc(), threshold, current)


def calibrate_scores(spec: MetricSpec, scores: np.ndarray, labels: np.ndarray,
                     threshold: float | None) -> tuple[MetricReport, Sweep]:
    """From one column of scores and the labels (int8: 1 pass, 0 fail, -1 none)."""
    data = labelled(scores, labels)
    sw = sweep(data, spec.direction)
    return report(spec, data, sw, threshold), sw


def rate_text(x: float | None, digits: int = 3) -> str:
    """A rate (precision, F1, AUC...) as the window and the terminal show it; – for none."""
    return "–" if x is None else f"{x:.{digits}f}"


def row_cells(r: MetricReport) -> dict[str, str]:
    """The table cells (window and terminal): one string per column of `COLUMNS`."""
    best, spec = r.best, r.spec
    cells = {"metric": spec.id, "labelled": f"{r.data.n:,}"}
    if best is None:
        cells.update(best="–", precision="–", recall="–", f1="–", passing="–", baseline="–")
    else:
        c = best.confusion
        cells.update(best=threshold_text(spec.direction, best.threshold),
                     precision=rate_text(c.precision), recall=rate_text(c.recall),
                     f1=rate_text(best.f1),
                     passing=f"{best.passing:,}/{c.n:,}", baseline=rate_text(best.baseline_f1))
    cells["auc"] = rate_text(r.auc)
    cells["current"] = threshold_text(spec.direction, r.threshold)
    cells["kappa"] = r.kappa_text()
    return cells


COLUMNS = (("metric", "metric"), ("labelled", "rows"), ("best", "best threshold"),
           ("precision", "precision"), ("recall", "recall"), ("f1", "F1"),
           ("passing", "pass there"), ("baseline", "F1 pass-all"), ("auc", "ROC AUC"),
           ("current", "current"), ("kappa", "agreement now"))

COLUMN_TIPS = {
    "labelled": "Rows with both a score and a human label (the others are left out)",
    "best": "The threshold with the best F1 against the labels (the strictest of ties)",
    "precision": "At the best threshold: of the rows the metric passes, the share a human passed",
    "recall": "At the best threshold: of the rows a human passed, the share the metric passes",
    "f1": "At the best threshold: the harmonic mean of precision and recall",
    "passing": "Labelled rows that pass at the best threshold",
    "baseline": "F1 of passing every row: a threshold is only useful above it",
    "auc": "Area under the ROC curve: 0.5 = no better than chance, 1 = separates perfectly",
    "current": "The metric's threshold now",
    "kappa": "Cohen's kappa between the metric's verdict at the current threshold and the "
             "human's, over n labelled rows: 1 = always agree, 0 = no better than chance",
}


def verdict_sentence(r: MetricReport) -> str:
    """One line under the numbers: is this metric a useful gate for these labels?"""
    if r.best is None:
        if r.data.n == 0:
            return f"{r.spec.id}: no row has both a score and a label."
        return f"{r.spec.id}: no human pass among the labelled rows, so no F1 to maximise."
    return f"{r.spec.id}: {r.best.sentence(r.spec.direction, r.spec.id)}"
