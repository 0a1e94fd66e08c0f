"""Calibration and variant views on the sample: numbers equal the core's, buttons move lines."""

from __future__ import annotations

import numpy as np
import pytest
from tests.ui.batch_support import load, make_tab, wait_idle

from matchlens.core.calibration import labelled, sweep
from matchlens.core.datasets import parse_label, read_table
from matchlens.core.paths import sample_dataset
from matchlens.core.results import Direction
from matchlens.core.variants import paired_comparison


@pytest.fixture
def tab(qtbot, config):
    tab = make_tab(qtbot, config)
    load(qtbot, tab, sample_dataset())
    yield tab
    tab.shutdown()


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
    tab.histograms.panels["levenshtein_similarity"].line.setValue(0.9)
    live = sw.at(0.9)
    assert f"TP {live.tp:,} · FP {live.fp:,}" in view.numbers.text()


def test_best_threshold_button_moves_the_line_and_the_config(qtbot, tab, config):
    view = tab.calibration
    view.metric.setCurrentIndex(view.metric.findData("jaccard"))
    scores = tab.result.scores[("output_a", "jaccard")]
    best = sweep(labelled(scores, human_labels()), Direction.MAX).best()
    assert best.sentence(Direction.MAX).startswith("Best F1") and \
        best.sentence(Direction.MAX) in view.numbers.text().replace("&lt;", "<")
    with qtbot.waitSignal(config.sig_changed):
        view.best_button.click()
    assert config.settings("jaccard").threshold == best.threshold
    assert tab.histograms.panels["jaccard"].line.value() == pytest.approx(best.threshold)
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
