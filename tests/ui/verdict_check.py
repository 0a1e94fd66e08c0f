"""What the batch tab draws, checked against what core computes under the config model's
thresholds: table colours and tooltips (score cells and the verdict column), histogram lines,
headers and pass counts. Shared by the hand-written tests and the stateful one.

The expected verdicts are computed here from core's scores with plain numpy comparisons
(`>=` for higher-is-better, `<=` for lower-is-better), not with the app's own helpers, so a
flipped comparison or colour in the app shows up as a difference.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument

from matchlens.core.labels.calibration import labelled, sweep
from matchlens.core.metrics.registry import STATUS_SCORED, get_metric
from matchlens.core.results import Direction, threshold_text
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.ui.batch.colours import verdict_colours

_CORE_CACHE: dict[tuple, object] = {}


def plain(html_text: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html_text)
    return doc.toPlainText().replace("\xa0", " ")


def core_scores(tab):
    """core.batch's result on the tab's mapped texts with the options the run used."""
    prepared, result = tab.prepared, tab.result
    key = (id(prepared), repr([(j.id, sorted(j.options.items())) for j in result.jobs]))
    if key not in _CORE_CACHE:
        _CORE_CACHE.clear()  # one dataset at a time
        jobs = [MetricJob(j.spec, None, dict(j.options)) for j in result.jobs]
        _CORE_CACHE[key] = run_to_completion(prepared.expected, dict(prepared.actuals), jobs)
    return _CORE_CACHE[key]


def expected_passes(direction: Direction, scores: np.ndarray, threshold: float) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return scores >= threshold if direction is Direction.MAX else scores <= threshold


def check_batch_tab(tab, config) -> None:
    """Every verdict the batch tab shows equals core's under `config`'s thresholds."""
    if tab.result is None or tab.result.done < tab.result.rows:
        return
    core = core_scores(tab)
    model, colours = tab.model, verdict_colours()
    variant = model.variant()
    columns = {model.column_key(c): c for c in range(model.columnCount())}
    rows = tab.result.rows
    fails = np.zeros(rows, bool)
    problems = np.zeros(rows, bool)
    gated = False
    for job in tab.result.jobs:
        spec, threshold = job.spec, config.settings(job.id).threshold
        scores, status = core.scores[(variant, job.id)], core.status[(variant, job.id)]
        scored = status == STATUS_SCORED
        np.testing.assert_array_equal(tab.result.status[(variant, job.id)], status)
        ok = expected_passes(spec.direction, scores, threshold) if threshold is not None \
            else None
        if ok is not None:
            gated = True
            fails |= scored & ~ok
            problems |= ~scored
        column = columns[f"score:{job.id}"]
        for view_row in range(model.rowCount()):
            row = model.source_row(view_row)
            index = model.index(view_row, column)
            colour = index.data(Qt.ItemDataRole.BackgroundRole)
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            where = f"{job.id} row {row + 1} ({variant}) at threshold {threshold}"
            if not scored[row]:
                assert colour == colours.problem, where
            elif ok is None:
                assert colour is None, where
                assert tip.endswith("(no threshold)"), (where, tip)
            else:
                want = colours.passed if ok[row] else colours.failed
                assert colour == want, (where, colour, want)
                assert (" passes " if ok[row] else " fails ") in tip, (where, tip)
        _check_histogram(tab, job, variant, threshold, scores, scored)
    _check_calibration(tab, config, core)
    verdict = columns["verdict"]
    for view_row in range(model.rowCount()):
        row = model.source_row(view_row)
        colour = model.index(view_row, verdict).data(Qt.ItemDataRole.BackgroundRole)
        if not gated:
            want = None
        elif fails[row]:
            want = colours.failed
        elif problems[row]:
            want = colours.problem
        else:
            want = colours.passed
        assert colour == want, f"verdict of row {row + 1}: {colour} != {want}"


def _check_histogram(tab, job, variant, threshold, scores, scored) -> None:
    panel = tab.histograms.panels.get(job.id)
    if panel is None:
        return
    variants = tab.result.variants
    i = variants.index(variant)
    stats = plain(panel.stats.text()).split("\n")[i]
    title = plain(panel.title.text())
    rows = len(scores)
    if threshold is None:
        assert "no threshold" in stats and "no threshold" in title, (job.id, stats, title)
        return
    passed = int(np.count_nonzero(scored & expected_passes(job.spec.direction, scores,
                                                           threshold)))
    # The pass rate's denominator is every row, errored and missing ones included.
    assert f"pass {passed / rows:.1%} ({passed:,}/{rows:,})" in stats, (job.id, stats)
    sign = "≥" if job.spec.direction is Direction.MAX else "≤"
    assert f"{sign} " in title and "no threshold" not in title, (job.id, title)
    lo, hi = panel._x_range or (threshold, threshold)
    at = min(max(threshold, lo), hi)  # a line beyond the axis waits at its end
    assert abs(panel.line.value() - at) < 1e-9, (job.id, panel.line.value(), threshold)


def _check_calibration(tab, config, core) -> None:
    """The Calibration view's numbers are core's confusion at the config's threshold."""
    view = tab.calibration
    if view.current() is None or tab.prepared.labels is None:
        return
    metric_id = view.metric_id()
    spec = get_metric(metric_id)
    threshold = config.settings(metric_id).threshold
    text = plain(view.numbers.text())
    if threshold is None:
        assert "No threshold set" in text, text
        return
    scores = core.scores[(tab.model.variant(), metric_id)]
    at = sweep(labelled(scores, tab.prepared.labels), spec.direction).at(threshold)
    assert f"At {threshold_text(spec.direction, threshold)}: " in text, (threshold, text)
    assert f"TP {at.tp:,} · FP {at.fp:,} · TN {at.tn:,} · FN {at.fn:,}" in text, (at, text)
