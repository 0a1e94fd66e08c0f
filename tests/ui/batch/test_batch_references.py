"""The batch tab's equivalent of --expected-any and normalisation: the mapping's "Several
references" box and Normalise box, `_ref` results, and a row opened in the compare view on its
winning reference with the others a step away. Real widgets, offscreen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import wait_idle, write_csv
from tests.ui.conftest import wait_done


@pytest.fixture
def window(qtbot):
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


def _dataset(tmp_path: Path) -> Path:
    return write_csv(tmp_path / "qa.csv", [
        # squad: "the broncos" -> "broncos" = reference 1 ("The Broncos" -> "broncos")
        [json.dumps(["Denver Broncos", "The Broncos", "Broncos"]), "the Broncos!"],
        # no reference matches: exact match 0 for all, the tie goes to reference 0
        [json.dumps(["Paris", "paris, France"]), "Lyon"],
        ["[]", "anything"],  # an empty list: missing
    ], header=["answers", "output"])


def _load_and_score(qtbot, tab, path: Path) -> None:
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        tab.load(path, expected="answers", actuals=["output"], score=False)
    tab.mapping_panel.any.setChecked(True)
    tab.mapping_panel.set_metrics(["exact_match", "token_f1"])
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        tab.score()
    wait_idle(qtbot, tab)


def test_several_references_score_and_open_the_winner(qtbot, window, tmp_path) -> None:
    tab = window.batch_tab
    tab.mapping_panel.normalise.setEditText("squad")
    tab.mapping_panel.normalise.lineEdit().editingFinished.emit()
    assert window.config.settings("exact_match").options["normalise"] == "squad"
    _load_and_score(qtbot, tab, _dataset(tmp_path))
    key = ("output", "exact_match")
    assert tab.result.scores[key][:2].tolist() == [1.0, 0.0]
    assert tab.result.refs[key].tolist() == [1, 0, -1]
    window.open_batch_row(0)
    wait_done(qtbot, window.compare_tab)
    compare = window.compare_tab
    assert compare.texts() == ("The Broncos", "the Broncos!")
    assert compare.references_action.isVisible()
    assert compare.references.label.text() == "reference 2 of 3 (best for Exact match)"
    assert compare.panels["exact_match"].result().score == 1.0
    compare.references.next.click()
    wait_done(qtbot, compare)
    assert compare.texts()[0] == "Broncos"
    assert compare.references.label.text() == "reference 3 of 3"
    compare.references.next.click()  # wraps round to the first
    assert compare.texts()[0] == "Denver Broncos"
    # a row of one reference set another way clears the stepper
    compare.set_texts("a", "b")
    assert not compare.references_action.isVisible()


def test_the_mapping_shows_each_metrics_normalisation(qtbot, window) -> None:
    panel = window.batch_tab.mapping_panel
    items = {panel.metrics.item(i).data(Qt.ItemDataRole.UserRole): panel.metrics.item(i)
             for i in range(panel.metrics.count())}
    # token_f1 normalises with squad by default, the others not at all: they differ
    assert items["token_f1"].text() == "Token F1 · squad"
    assert items["exact_match"].text() == "Exact match"
    assert panel.normalise.currentText() == "(differs per metric)"
    window.config.set_option("jaccard", "normalise", ["lowercase", "strip_punctuation"])
    assert items["jaccard"].text() == "Jaccard (words) · lowercase → strip_punctuation"
    panel.normalise.setEditText("none")
    panel.normalise.lineEdit().editingFinished.emit()
    assert items["token_f1"].text() == "Token F1"
    assert panel.normalise.currentText() == "none"
    window.config.undo_stack.undo()  # one undo step brings every metric's back
    assert items["token_f1"].text() == "Token F1 · squad"


def test_new_metrics_reach_histograms_and_calibration(qtbot, config, tmp_path) -> None:
    from matchlens.core.labels.calibration import labelled, sweep
    from matchlens.core.paths import sample_dataset
    from matchlens.core.results import Direction
    from tests.ui.batch_support import make_tab

    tab = make_tab(qtbot, config)
    try:
        with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
            tab.load(sample_dataset(), score=False)
        tab.mapping_panel.set_metrics(["token_f1", "wer", "cer"])
        with qtbot.waitSignal(tab.sig_finished, timeout=60_000):
            tab.score()
        wait_idle(qtbot, tab)
        assert {"token_f1", "wer", "cer"} <= set(tab.histograms.panels)
        view = tab.calibration
        for metric_id, direction in (("token_f1", Direction.MAX), ("wer", Direction.MIN)):
            at = view.metric.findData(metric_id)
            assert at >= 0, metric_id
            view.metric.setCurrentIndex(at)
            labels = tab.prepared.labels
            scores = tab.result.scores[(tab.result.variants[0], metric_id)]
            want = sweep(labelled(scores, [None if v < 0 else bool(v) for v in labels]),
                         direction)
            assert f"ROC AUC {want.auc():.3f}" in view.numbers.text()
    finally:
        tab.shutdown()

