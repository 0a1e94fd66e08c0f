"""The compare view's third pane (ui/compare/baseline_pane.py): a row of a run compared with a
baseline shows reference, baseline output and this output, each output diffed against the
reference; the toggle diffs the two outputs directly; the Label keys still label the row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from matchlens.core.diff.span_table import table_for
from matchlens.core.labels.store import FAIL, PASS
from matchlens.ui.batch.run_joins import Join
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch.test_batch_runs import run_files
from tests.ui.batch_support import wait_idle

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


@pytest.fixture
def window(qtbot, tmp_path):
    today, refs, base = run_files(tmp_path)
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.batch_tab.sig_finished, timeout=30_000):
        win.load_dataset(today, actuals=["$.result"], id_spec="id",
                         joins=(Join("reference", refs, None, "$.answer"),
                                Join("baseline", base, None, "$.result")))
    wait_idle(qtbot, win.batch_tab)
    yield win
    win.shutdown()


def _wait(qtbot, win):
    qtbot.waitUntil(lambda: not win.compare_tab.is_busy(), timeout=20_000)


def _kinds(table, side):
    """The (start, end, kind) of every span the table marks on one side, as drawn."""
    cols = table.exp if side == "expected" else table.act
    return [tuple(row) for row in cols.tolist()]


def test_three_panes_each_output_against_the_reference_then_directly(qtbot, window):
    tab = window.batch_tab
    compare = window.compare_tab
    row = tab.prepared.ids.index("q3")  # reference Oslo, baseline "Olso", this run "Oslo"
    window.open_batch_row(row)
    _wait(qtbot, window)
    pane = compare.baseline_pane
    assert pane.is_shown() and pane.pane.editor.text() == "Olso"
    assert compare.texts() == ("Oslo", "Oslo")
    # the panes in order: reference, baseline output, this output
    splitter = compare.editor_splitter
    shown = [splitter.widget(i) for i in range(splitter.count()) if splitter.widget(i).isVisible()]
    assert shown == [compare.panes["expected"], pane.pane, compare.panes["actual"]]
    options = compare.align_options()
    against_reference = table_for("Oslo", "Olso", options)
    assert pane.pane.decorator.side == "actual"
    assert _kinds(pane.table, "actual") == _kinds(against_reference, "actual")
    assert pane.table.distance == 2  # "Olso" -> "Oslo": two substitutions (l/s swapped)

    pane.direct.setChecked(True)
    _wait(qtbot, window)
    direct = table_for("Olso", "Oslo", options)
    assert pane.pane.decorator.side == "expected"
    assert _kinds(pane.table, "expected") == _kinds(direct, "expected")
    # this output now shows its difference from the baseline, the reference none
    assert compare.panes["actual"].decorator.table is pane.table
    assert compare.panes["expected"].decorator.table is None
    pane.direct.setChecked(False)
    _wait(qtbot, window)
    assert compare.panes["actual"].decorator.table is compare.current_table()


def test_labelling_keys_label_the_row_in_the_three_panes(qtbot, window):
    tab = window.batch_tab
    row = tab.prepared.ids.index("q2")
    window.open_batch_row(row)
    _wait(qtbot, window)
    assert window.compare_tab.baseline_pane.is_shown()
    editor = window.compare_tab.editor("actual")
    editor.setFocus()
    before = editor.toPlainText()
    qtbot.keyClick(editor, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == before  # the key labels, it does not type
    labels = tab.labelling.session.labels
    assert labels.label(row, "$.result") == FAIL
    qtbot.keyClick(window.compare_tab.baseline_pane.pane.editor, Qt.Key.Key_1,
                   Qt.KeyboardModifier.ControlModifier)  # from the baseline pane too
    assert labels.label(row, "$.result") == PASS


def test_no_baseline_no_third_pane(qtbot, window, tmp_path):
    tab = window.batch_tab
    window.open_batch_row(0)
    _wait(qtbot, window)
    assert window.compare_tab.baseline_pane.is_shown()
    # the table showing the baseline itself: a row of it has no baseline to compare with
    tab.table_bar.variant.setCurrentText("baseline")
    window.open_batch_row(0)
    assert not window.compare_tab.baseline_pane.is_shown()
    # a file opened in the compare view leaves the row, and the pane
    tab.table_bar.variant.setCurrentText("$.result")
    window.open_batch_row(0)
    assert window.compare_tab.baseline_pane.is_shown()
    text = tmp_path / "x.txt"
    text.write_text("hello", encoding="utf-8")
    window.compare_tab.load_file("actual", text)
    assert not window.compare_tab.baseline_pane.is_shown()
