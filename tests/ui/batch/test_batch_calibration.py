"""Calibration and variant views on the sample: numbers equal the core's, buttons move lines."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF, Qt

from matchlens.core.datasets import parse_label, read_table
from matchlens.core.labels.calibration import labelled, sweep
from matchlens.core.paths import sample_dataset
from matchlens.core.results import Direction
from matchlens.core.scoring.variants import paired_comparison
from matchlens.ui.batch.calibration_view import MARKER_PEN, MARKER_SIZE
from tests.ui.batch_support import drag_line, wait_idle


@pytest.fixture
def tab(sample_tab):
    return sample_tab


def human_labels() -> list[bool | None]:
    table = read_table(sample_dataset())
    return [parse_label(table.cell_text(i, "label")) for i in range(len(table))]


def test_numbers_at_the_threshold_match_core(qtbot, tab):
    view = tab.calibration
    view.metric.setCurrentIndex(view.metric.findData("levenshtein_similarity"))
    scores = tab.result.scores[("output_a", "levenshtein_similarity")]
    data = labelled(scores, human_labels())
    sw = sweep(data, Direction.MAX)
    labels, swept = view.current()
    assert labels.n == data.n and labels.no_label == data.no_label
    at = sw.at(0.7)  # the registry default threshold
    text = view.numbers.text()
    assert f"precision {at.precision:.3f}" in text and f"recall {at.recall:.3f}" in text
    assert f"F1 {at.f1:.3f}" in text and f"TP {at.tp:,}" in text
    assert f"ROC AUC {sw.auc():.3f}" in text
    fpr, tpr = sw.roc()
    x, y = view.curve.getData()
    np.testing.assert_allclose(x, fpr)
    np.testing.assert_allclose(y, tpr)
    px, py = view.point.getData()
    assert (px[0], py[0]) == pytest.approx((at.fp / sw.negatives, at.tp / sw.positives))
    # Dragging a histogram line moves the point and the numbers live.
    drag_line(tab.histograms.panels["levenshtein_similarity"], 0.8, 0.9)
    live = sw.at(0.9)
    assert f"TP {live.tp:,} · FP {live.fp:,}" in view.numbers.text()


def test_best_threshold_button_moves_the_line_and_the_config(qtbot, tab, config):
    view = tab.calibration
    view.metric.setCurrentIndex(view.metric.findData("levenshtein_similarity"))
    scores = tab.result.scores[("output_a", "levenshtein_similarity")]
    best = sweep(labelled(scores, human_labels()), Direction.MAX).best(decimals=2)
    # The sample's labels: 129 pass, 71 fail. Passing every row: F1 = 2*129 / (2*129 + 71)
    # = 258/329 = 0.784; the best threshold beats it, and says how many rows it lets through.
    assert best.useful and best.baseline_f1 == pytest.approx(258 / 329)
    # The rows it lets through, counted from the scores themselves (every sample row has a
    # label and a score), not taken from the object under test.
    assert best.passing == int((scores >= best.threshold).sum())
    sentence = best.sentence(Direction.MAX, "Levenshtein similarity")
    assert sentence.startswith(f"Best F1 {best.f1:.3f} at ≥ {best.threshold:g}: "
                               f"{best.passing} of 200 labelled rows pass there; passing every "
                               f"row would give F1 0.784")
    assert sentence in view.numbers.text().replace("&lt;", "<")
    # The button says what it will set before it is pressed.
    assert view.best_button.text() == f"Best threshold: ≥ {best.threshold:.2f}"
    with qtbot.waitSignal(config.sig_changed):
        view.best_button.click()
    assert config.settings("levenshtein_similarity").threshold == best.threshold
    assert view.best_button.text().endswith("(in use)") and not view.best_button.isEnabled()
    config.undo_stack.undo()  # and it can be taken back
    assert config.settings("levenshtein_similarity").threshold == 0.7
    assert view.best_button.isEnabled()
    config.undo_stack.redo()
    assert tab.histograms.panels["levenshtein_similarity"].line.value() == \
        pytest.approx(best.threshold)
    wait_idle(qtbot, tab)


def test_a_metric_that_does_not_separate_the_labels_is_said_so(qtbot, tab, config):
    view = tab.calibration
    view.metric.setCurrentIndex(view.metric.findData("exact_match"))
    # Exact match on output_a: the best F1 is at >= 0, where all 200 labelled rows pass; that
    # is F1 2*129 / (2*129 + 71) = 0.784, exactly what passing every row gives.
    text = view.numbers.text()
    assert ("<b>No useful threshold:</b> the best F1, 0.784 at ≥ 0 (all 200 labelled rows "
            "pass there), is no better than passing every row (F1 0.784). By F1, Exact match "
            "does not separate the human labels.") in text
    assert "Best F1" not in text  # not dressed up as a suggestion
    assert "no useful gate" in view.best_button.toolTip()
    # as `calibrate -o`, which keeps such a threshold: nothing to set, and the button says why
    assert not view.best_button.isEnabled()
    assert view.best_button.text() == "No useful threshold"
    before = config.settings("exact_match").threshold
    view.best_button.click()  # a disabled button does nothing
    assert config.settings("exact_match").threshold == before
    summary = tab.labelling.summary  # the Calibration table's Apply: the same rule
    qtbot.waitUntil(lambda: summary.report("exact_match") is not None)
    summary.table.selectRow([summary.table.item(r, 0).data(Qt.ItemDataRole.UserRole)
                             for r in range(summary.table.rowCount())].index("exact_match"))
    assert not summary.apply_button.isEnabled()
    assert summary.apply_button.text() == "No useful threshold"
    assert "no better than passing every row" in summary.apply_button.toolTip()
    wait_idle(qtbot, tab)


def test_the_roc_marker_is_whole_when_every_row_passes(qtbot, tab, config):
    view = tab.calibration
    tab.tabs.setCurrentWidget(view)
    view.metric.setCurrentIndex(view.metric.findData("exact_match"))
    with qtbot.waitSignal(config.sig_changed):
        config.set_threshold("exact_match", 0.0)
    # >= 0 passes every row: TP = all 129 human passes, FP = all 71 fails, so the point is
    # (FPR, TPR) = (71/71, 129/129) = (1, 1), the top right corner of the plot.
    px, py = view.point.getData()
    assert (px[0], py[0]) == (1.0, 1.0)
    box = view.plot.getPlotItem().getViewBox()
    # The circle reaches size/2 + pen/2 pixels from its centre (11/2 + 2/2 = 6.5 px).
    reach = MARKER_SIZE / 2 + MARKER_PEN / 2
    for height in (850, 600, 440):
        tab.resize(1300, height)
        qtbot.waitUntil(lambda h=height: tab.height() == max(h, tab.minimumSizeHint().height()))
        qtbot.wait(50)  # the layout settles
        centre = box.mapViewToScene(QPointF(1.0, 1.0))
        marker = QRectF(centre.x() - reach, centre.y() - reach, 2 * reach, 2 * reach)
        assert box.sceneBoundingRect().contains(marker), (height, marker,
                                                          box.sceneBoundingRect())
        origin = box.mapViewToScene(QPointF(0.0, 0.0))  # the other corner the point can take
        assert box.sceneBoundingRect().contains(
            QRectF(origin.x() - reach, origin.y() - reach, 2 * reach, 2 * reach))
    wait_idle(qtbot, tab)


def test_variants_view_says_which_is_better(qtbot, tab):
    view = tab.variants
    qtbot.waitUntil(lambda: view.comparison is not None)
    a = tab.result.scores[("output_a", view.metric.currentData())]
    b = tab.result.scores[("output_b", view.metric.currentData())]
    spec = tab.result.job(view.metric.currentData()).spec
    expected = paired_comparison(a, b, spec.direction, names=("output_a", "output_b"))
    assert view.comparison == expected
    assert view.sentence.text() == expected.sentence(view.metric.currentText())
    _, counts = view.curve.getData()
    assert counts.sum() == expected.n
    view.b.setCurrentText("output_a")
    assert "two different variants" in view.sentence.text()
