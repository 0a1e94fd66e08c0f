"""The row open in the compare view follows the Batch tab (ui/batch_rows.py): another variant
chosen there shows that variant's output of the same row, without leaving the Batch tab; another
file read there leaves the row, so the row keys never step or label another file's rows."""

from __future__ import annotations

import csv

import pytest

from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import load, small_dataset

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


@pytest.fixture
def window(qtbot, tmp_path):
    win = MainWindow(ConfigModel.from_disk(), restore=False)
    qtbot.addWidget(win)
    win.show()
    load(qtbot, win.batch_tab, small_dataset(tmp_path / "small.csv"))
    return win


def _outputs(path, row):
    with path.open(encoding="utf-8") as handle:
        record = list(csv.DictReader(handle))[row]
    return record["expected"], record["output_a"], record["output_b"]


def test_another_variant_shows_its_output_of_the_open_row(qtbot, window, tmp_path):
    tab, compare = window.batch_tab, window.compare_tab
    row = 1  # r2: the reference Canberra, output_a Sydney, output_b Canberra
    expected, output_a, output_b = _outputs(tmp_path / "small.csv", row)
    assert output_a != output_b
    tab.table_bar.variant.setCurrentText("output_a")
    window.open_batch_row(row)
    assert compare.texts() == (expected, output_a)
    window.tabs.setCurrentWidget(tab)
    tab.table_bar.variant.setCurrentText("output_b")
    assert window.rows.row == row
    assert compare.texts() == (expected, output_b)
    assert window.tabs.currentWidget() is tab  # followed in the background
    window.rows.step(1)  # and stepping goes on in the variant shown
    assert compare.texts() == _outputs(tmp_path / "small.csv", row + 1)[::2]


def test_another_file_leaves_the_open_row(qtbot, window, tmp_path):
    tab, compare = window.batch_tab, window.compare_tab
    window.open_batch_row(2)
    shown = compare.texts()
    assert window.rows.row == 2 and compare.row_bar.isVisibleTo(window)
    other = tmp_path / "other.csv"
    with other.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["id", "expected", "output_a"], ["x", "one", "two"],
                                      ["y", "three", "four"], ["z", "five", "six"]])
    load(qtbot, tab, other)
    assert window.rows.row is None
    assert not compare.row_bar.isVisibleTo(window)
    assert compare.texts() == shown  # the texts stay; they are no row of the new file
    window.rows.step(1)
    assert compare.texts() == shown
