"""Labelling through the real widgets: keys in the table and the compare view, next unlabelled,
undo, the sidecar it writes, and the Calibration tab following every label."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from matchlens.core.labels.calibration_report import calibrate_scores
from matchlens.core.labels.sidecar import read_sidecar, sidecar_path
from matchlens.core.labels.store import FAIL, NONE, PASS
from matchlens.core.metrics.registry import get_metric
from matchlens.core.paths import sample_dataset
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import load, make_tab, wait_idle, write_csv

HEADER = ["id", "question", "expected", "output_a"]
ROWS = [["r1", "q", "Paris", "Paris"], ["r2", "q", "Canberra", "Sydney"],
        ["r3", "q", "The Nile", "the nile"], ["r4", "q", "Pacific", "Atlantic"],
        ["r5", "q", "Venus", "Venus"], ["r6", "q", "Mars", "Mars."]]


@pytest.fixture
def unlabelled(tmp_path):
    """Six rows and no label column: labelling starts from nothing."""
    return write_csv(tmp_path / "six.csv", ROWS, HEADER)


@pytest.fixture
def tab(qtbot, config, unlabelled):
    tab = make_tab(qtbot, config)
    load(qtbot, tab, unlabelled)
    yield tab
    tab.shutdown()


def _human(tab, view_row: int) -> str:
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())].index("human")
    return tab.model.data(tab.model.index(view_row, col))


def _press(qtbot, widget, key: str) -> None:
    """One real key press to the focused widget (Qt's shortcut map sees it first)."""
    keys = {"P": Qt.Key.Key_P, "F": Qt.Key.Key_F, "N": Qt.Key.Key_N,
            "Delete": Qt.Key.Key_Delete}
    qtbot.keyClick(widget, keys[key])


def test_keys_in_the_table_label_move_on_and_undo(qtbot, tab, unlabelled):
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(0, 0))
    assert tab.labelling.counter.text() == "0 of 6 labelled"
    _press(qtbot, view, "P")
    assert _human(tab, 0) == "✓ pass"
    assert tab.labelling.counter.text() == "1 of 6 labelled"
    _press(qtbot, view, "N")  # next unlabelled: row 2
    assert tab.labelling.table_row() == 1
    _press(qtbot, view, "F")
    _press(qtbot, view, "N")
    _press(qtbot, view, "F")
    _press(qtbot, view, "F")  # the same key again clears it
    assert _human(tab, 2) == ""
    _press(qtbot, view, "P")
    # The sidecar holds what the screen shows, after every key.
    entries = read_sidecar(sidecar_path(unlabelled))
    assert [(e.id, e.label) for e in entries] == [("r1", PASS), ("r2", FAIL), ("r3", PASS)]
    stack = tab.labelling.session.undo_stack
    stack.undo()  # the last P
    assert _human(tab, 2) == ""
    stack.undo()  # the second F (the clearing one) comes back
    assert _human(tab, 2) == "✗ fail"
    stack.redo()
    stack.redo()
    assert _human(tab, 2) == "✓ pass"
    assert tab.labelling.counter.text() == "3 of 6 labelled"
    _press(qtbot, view, "Delete")
    assert _human(tab, 2) == "" and tab.labelling.counter.text() == "2 of 6 labelled"
    # Next unlabelled wraps to the top and skips labelled rows; with the table sorted it
    # follows the order on screen.
    view.setCurrentIndex(tab.model.index(5, 0))
    _press(qtbot, view, "N")
    assert tab.labelling.table_row() == 2


def test_next_unlabelled_failing_skips_rows_the_metrics_pass(qtbot, tab):
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(0, 0))
    # Failing under the default thresholds: r2 (Sydney), r3 (case: exact_match fails), r4, r6.
    qtbot.keyClick(view, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert tab.labelling.table_row() == 1
    _press(qtbot, view, "F")
    qtbot.keyClick(view, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert tab.labelling.table_row() == 2


def test_the_calibration_tab_follows_every_label(qtbot, tab):
    summary = tab.labelling.summary
    qtbot.waitUntil(lambda: "0 of 6 labelled" in summary.counter.text())
    assert "No labels yet" in summary.counter.text()
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(0, 0))
    for key in ("P", "N", "F", "N", "P", "N", "F", "N", "P", "N", "F"):
        _press(qtbot, view, key)
    QApplication.processEvents()
    codes = np.array([PASS, FAIL, PASS, FAIL, PASS, FAIL], np.int8)
    spec = get_metric("levenshtein_similarity")
    scores = tab.result.scores[("output_a", "levenshtein_similarity")]
    expected, _ = calibrate_scores(spec, scores, codes, 0.7)
    qtbot.waitUntil(lambda: summary.cell("levenshtein_similarity", "kappa")
                    == expected.kappa_text())
    best = expected.best
    # The three human passes score 1.0 and the fails at most 0.8 ("Mars."): ≥ 1 separates
    # them perfectly, F1 1.000.
    assert best.threshold == 1.0
    assert summary.cell("levenshtein_similarity", "best") == "≥ 1"
    assert summary.cell("levenshtein_similarity", "f1") == "1.000"
    assert summary.cell("levenshtein_similarity", "auc") == f"{expected.auc:.3f}"
    # Rows: Paris/Paris 1.0 pass, Canberra/Sydney low fail, nile 1.0 (case-insensitive) pass,
    # Pacific/Atlantic low fail, Venus 1.0 pass, "Mars." 0.8 fail: ≥ 0.7 lets Mars through
    # (one FP): TP 3, FP 1, TN 2, FN 0 -> kappa 2(3·2 − 0)/((4)(3) + (3)(2)) = 12/18 = 0.67.
    assert expected.kappa_text() == "κ 0.67 (n = 6)"
    # The ROC detail below reads the same labels.
    tab.calibration.metric.setCurrentIndex(
        tab.calibration.metric.findData("levenshtein_similarity"))
    assert "6 labelled rows (3 pass, 3 fail)" in tab.calibration.numbers.text()
    # Apply this threshold: the selected metric's suggestion, through the config model.
    summary.table.selectRow([summary.table.item(r, 0).data(Qt.ItemDataRole.UserRole)
                             for r in range(summary.table.rowCount())]
                            .index("levenshtein_similarity"))
    assert summary.apply_button.text() == "Apply ≥ 1"
    qtbot.mouseClick(summary.apply_button, Qt.MouseButton.LeftButton)
    assert tab.config_model.settings("levenshtein_similarity").threshold == best.threshold
    qtbot.waitUntil(lambda: summary.apply_button.text().endswith("(in use)"))
    # At ≥ 1 the metric and the human agree on all six rows: kappa 1.
    assert summary.cell("levenshtein_similarity", "kappa") == "κ 1.00 (n = 6)"


def test_reopening_restores_labels_and_clear_all_undoes(qtbot, tab, unlabelled):
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(3, 0))
    _press(qtbot, view, "F")
    load(qtbot, tab, unlabelled)  # the same file again
    assert _human(tab, 3) == "✗ fail"
    assert "Restored 1 label change from six.csv.labels.csv" in tab.message.text()
    tab.labelling.actions["clear_all"].trigger()
    assert _human(tab, 3) == "" and "Ctrl+Z brings them back" in tab.message.text()
    assert read_sidecar(sidecar_path(unlabelled)) == []
    tab.labelling.session.undo_stack.undo()
    assert _human(tab, 3) == "✗ fail"
    assert [e.label for e in read_sidecar(sidecar_path(unlabelled))] == [FAIL]
    # A command made before the file was scored again changes the labels open now (never an
    # old copy whose save would drop what was labelled since).
    view.setCurrentIndex(tab.model.index(0, 0))
    _press(qtbot, view, "P")
    load(qtbot, tab, unlabelled)
    view.setCurrentIndex(tab.model.index(1, 0))
    _press(qtbot, view, "P")
    tab.labelling.session.undo_stack.undo()  # row 2's P, on the new labels
    tab.labelling.session.undo_stack.undo()  # row 1's P, made before the reload
    assert [(e.id, e.label) for e in read_sidecar(sidecar_path(unlabelled))] == [("r4", FAIL)]
    assert _human(tab, 0) == "" and _human(tab, 3) == "✗ fail"


def test_export_and_a_note(qtbot, tab, tmp_path):
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(1, 0))
    _press(qtbot, view, "F")
    tab.labelling.actions["note"].trigger()
    dialog = tab.labelling.note_dialog
    dialog.setTextValue("Sydney is not the capital")
    dialog.accept()
    assert _human(tab, 1) == "✗ fail ✎"
    out = tmp_path / "labels.csv"
    assert tab.labelling.export(out)
    assert [(e.id, e.label, e.note) for e in read_sidecar(out)] == [
        ("r2", FAIL, "Sydney is not the capital")]


@pytest.fixture
def window(qtbot, tmp_path):
    data = tmp_path / "sample.csv"
    shutil.copyfile(sample_dataset(), data)
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.batch_tab.sig_finished, timeout=30_000):
        win.load_dataset(data, expected="expected", actuals=["output_a"], label="label")
    wait_idle(qtbot, win.batch_tab)
    yield win
    win.shutdown()


def test_labelling_in_the_compare_view_with_the_diff_in_front(qtbot, window):
    tab = window.batch_tab
    window.open_batch_row(0)
    assert window.tabs.currentWidget() is window.compare_tab
    editor = window.compare_tab.editor("actual")
    editor.setFocus()  # even with the cursor in an editor, Ctrl+2 labels and does not type
    before = editor.toPlainText()
    # qa-001 "It's Paris." is labelled pass in the data; the human now says fail.
    qtbot.keyClick(editor, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == before
    labels = tab.labelling.session.labels
    assert labels.label(0, "output_a") == FAIL
    assert "human: fail · 200 of 200 labelled" in window.compare_tab.context_label.text()
    # Every row of the sample is labelled: clear two, then F8 finds them in table order.
    labels_before = tab.labelling.session.labels.changes()
    window.open_batch_row(5)
    qtbot.keyClick(editor, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    window.open_batch_row(9)
    qtbot.keyClick(editor, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert labels.changes() == labels_before + 2
    window.open_batch_row(0)
    qtbot.keyClick(editor, Qt.Key.Key_F8)
    assert window.rows.row == 5
    assert "not labelled · 198 of 200 labelled" in window.compare_tab.context_label.text()
    qtbot.keyClick(editor, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert labels.label(5, "output_a") == PASS
    qtbot.keyClick(editor, Qt.Key.Key_F8)
    assert window.rows.row == 9
    qtbot.keyClick(editor, Qt.Key.Key_F8)  # the only unlabelled row: stays
    assert window.rows.row == 9
    assert labels.label(9, "output_a") == NONE
    # The table shows the same labels when the person goes back.
    window.tabs.setCurrentWidget(tab)
    assert _human(tab, 5) == "✓ pass" and _human(tab, 0) == "✗ fail"


def test_one_undo_stack_for_labels_and_thresholds(qtbot, window):
    """Ctrl+Z undoes the last thing done, a label or "Apply this threshold", in order."""
    tab = window.batch_tab
    config = window.config
    window.tabs.setCurrentWidget(tab)
    assert tab.labelling.session.undo_stack is config.undo_stack
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(1, 0))  # qa-002 "Sydney": fail in the data
    qtbot.keyClick(view, Qt.Key.Key_P)
    labels = tab.labelling.session.labels
    assert labels.label(1, "output_a") == PASS
    summary = tab.labelling.summary
    qtbot.waitUntil(lambda: summary.table.rowCount() > 0)
    metrics = [summary.table.item(r, 0).data(Qt.ItemDataRole.UserRole)
               for r in range(summary.table.rowCount())]
    summary.table.selectRow(metrics.index("levenshtein_similarity"))
    best = summary.report("levenshtein_similarity").best.threshold
    assert best != 0.7  # the default: the button changes something
    qtbot.mouseClick(summary.apply_button, Qt.MouseButton.LeftButton)
    assert config.settings("levenshtein_similarity").threshold == best
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert config.settings("levenshtein_similarity").threshold == 0.7
    assert labels.label(1, "output_a") == PASS
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert labels.label(1, "output_a") == FAIL  # back to the data's label
    assert _human(tab, 1) == "✗ fail"
    qtbot.keyClick(view, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert labels.label(1, "output_a") == PASS


def test_each_variant_has_its_own_labels(qtbot, config, tmp_path):
    data = write_csv(tmp_path / "two.csv", [[*r, r[3].upper()] for r in ROWS],
                     [*HEADER, "output_b"])
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, data)
        view = tab.view
        view.setFocus()
        view.setCurrentIndex(tab.model.index(0, 0))
        _press(qtbot, view, "P")  # judging output_a's "Paris"
        tab.table_bar.variant.setCurrentText("output_b")
        assert _human(tab, 0) == "" and tab.labelling.counter.text() == "0 of 6 labelled"
        view.setCurrentIndex(tab.model.index(0, 0))
        _press(qtbot, view, "F")  # judging output_b's "PARIS"
        qtbot.waitUntil(lambda: "1 of 6 labelled (output_b)"
                        in tab.labelling.summary.counter.text())
        entries = read_sidecar(sidecar_path(data))
        assert [(e.id, e.variant, e.label) for e in entries] == [
            ("r1", "output_a", PASS), ("r1", "output_b", FAIL)]
        tab.table_bar.variant.setCurrentText("output_a")
        assert _human(tab, 0) == "✓ pass"
    finally:
        tab.shutdown()


def test_big_tables_sweep_in_a_worker_and_the_newest_label_wins(qtbot, tab, monkeypatch):
    from matchlens.ui.batch import label_calibration

    monkeypatch.setattr(label_calibration, "SYNC_ROWS", 0)  # every re-sweep off the GUI thread
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(0, 0))
    for key in ("P", "N", "F", "N", "P", "N", "F", "N", "P", "N", "F"):
        _press(qtbot, view, key)  # faster than the workers: older sweeps are dropped
    codes = np.array([PASS, FAIL, PASS, FAIL, PASS, FAIL], np.int8)
    spec = get_metric("exact_match")
    scores = tab.result.scores[("output_a", "exact_match")]
    expected, _ = calibrate_scores(spec, scores, codes, 0.5)
    summary = tab.labelling.summary
    qtbot.waitUntil(lambda: not tab.labelling.live.is_busy()
                    and summary.cell("exact_match", "labelled") == "6")
    # exact_match is 1 on Paris and Venus only: at ≥ 0.5 TP 2, FP 0, TN 3, FN 1 (the nile):
    # kappa = 2(2·3 − 1·0) / ((2+0)(0+3) + (2+1)(1+3)) = 12/18 = 0.67.
    assert summary.cell("exact_match", "kappa") == expected.kappa_text() == "κ 0.67 (n = 6)"
    wait_idle(qtbot, tab)


def test_a_file_opened_in_the_compare_view_leaves_the_row(qtbot, window, tmp_path):
    """Once the compare view shows a file, not the row, a label key must not label the row
    (nor the table's current row, out of sight): it says what to do instead."""
    labels = window.batch_tab.labelling.session.labels
    window.open_batch_row(1)  # qa-002, fail in the data
    assert not window.compare_tab.row_bar.isHidden()
    text = tmp_path / "mine.txt"
    text.write_text("Canberra is the capital.", encoding="utf-8")
    window.add_recent("actual", text)
    window.recent_menu.actions()[0].trigger()  # File > Open recent > Actual: mine.txt
    assert window.compare_tab.texts()[1] == "Canberra is the capital."
    assert window.compare_tab.row_bar.isHidden() and window.rows.row is None
    editor = window.compare_tab.editor("actual")
    editor.setFocus()
    before = labels.changes()
    qtbot.keyClick(editor, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert labels.changes() == before and labels.label(1, "output_a") == FAIL
    assert window.batch_tab.message.text() == ("Choose a row in the table first (or open one "
                                               "in Compare).")
    # F8 there opens the first unlabelled row from the top (the sample: row 6 cleared first).
    window.batch_tab.labelling.session.mark(5, "output_a", labels.label(5, "output_a"))
    qtbot.keyClick(editor, Qt.Key.Key_F8)
    assert window.rows.row == 5 and not window.compare_tab.row_bar.isHidden()
