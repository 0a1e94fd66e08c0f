"""`matchlens batch` takes every reading option `score` takes, and the batch tab offers a
chooser when a JSON file holds several arrays of objects (issue 24, item 3)."""

from __future__ import annotations

import json

import pytest

from matchlens.cli.parser import parse_args
from matchlens.ui import app as app_module
from matchlens.ui.config_model import ConfigModel
from tests.ui.batch_support import load, make_tab, wait_idle

ROWS = [{"expected": "Paris", "output": "Paris"}, {"expected": "Rome", "output": "Milan"},
        {"expected": "Oslo", "output": "Oslo"}]


def _two_arrays(tmp_path):
    """promptfoo's rows at $.results.results, beside two other arrays of objects."""
    path = tmp_path / "eval.json"
    path.write_text(json.dumps({"results": {"results": ROWS, "stats": [{"a": 1}, {"a": 2}]},
                                "other": [{"x": 1}]}), encoding="utf-8")
    return path


def test_batch_takes_the_reading_options_of_score(tmp_path):
    args = parse_args(["batch", "eval.json", "--records", "$.results.results", "--sheet", "S2",
                       "--format", "json", "--encoding", "cp1252", "--delimiter", "tab"])
    assert app_module.reading_options(args) == {"records": "$.results.results", "sheet": "S2",
                                                "format": "json", "delimiter": "\t"}


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_records_given_on_the_command_line_are_read(qtbot, tmp_path):
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, _two_arrays(tmp_path), records="$.results.results")
    assert tab.table is not None and len(tab.table) == 3


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_several_arrays_offer_a_chooser_that_reads_the_one_picked(qtbot, tmp_path):
    tab = make_tab(qtbot, ConfigModel())
    path = _two_arrays(tmp_path)
    load(qtbot, tab, path)
    assert tab.table is None  # which array holds the rows cannot be guessed
    assert "under Rows from" in tab.message.text() and "--records" not in tab.message.text()
    box = tab.top.rows_from
    assert not box.isHidden()
    names = [box.itemText(i) for i in range(box.count())]
    assert names == ["Automatic", "$.other", "$.results.results", "$.results.stats"]
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        box.setCurrentIndex(names.index("$.results.results"))
        box.activated.emit(box.currentIndex())
    wait_idle(qtbot, tab)
    assert tab.table is not None and len(tab.table) == 3
    assert box.currentText() == "$.results.results"  # the chooser still says which
    assert tab.result is not None and tab.result.rows == 3  # and it was scored


def _two_sheets(tmp_path):
    """A real .xlsx (xlsxwriter writes the Office Open XML a spreadsheet program does): two
    sheets of two different runs, so the rows read tell which sheet was read."""
    import xlsxwriter

    path = tmp_path / "runs.xlsx"
    book = xlsxwriter.Workbook(str(path))
    for name, rows in (("Monday", [("Paris", "Paris"), ("Rome", "Milan")]),
                       ("Tuesday", [("Oslo", "Oslo"), ("Bern", "Bern"), ("Lima", "Quito")])):
        sheet = book.add_worksheet(name)
        sheet.write_row(0, 0, ["expected", "output"])
        for i, row in enumerate(rows, start=1):
            sheet.write_row(i, 0, row)
    book.close()
    return path


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_several_sheets_offer_a_chooser_that_reads_the_one_picked(qtbot, tmp_path):
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, _two_sheets(tmp_path), expected="expected", actuals=["output"])
    # the first sheet is read (as `score` does without --sheet), and the others are offered
    assert tab.table is not None and len(tab.table) == 2
    assert tab.prepared.expected == ["Paris", "Rome"]
    box = tab.top.rows_from
    qtbot.waitUntil(lambda: box.count() > 0, timeout=20_000)
    assert not box.isHidden() and tab.top.rows_label.text() == "Sheet"
    names = [box.itemText(i) for i in range(box.count())]
    assert names == ["The first sheet", "Monday", "Tuesday"]
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        box.setCurrentIndex(names.index("Tuesday"))
        box.activated.emit(box.currentIndex())
    wait_idle(qtbot, tab)
    assert tab.table is not None and len(tab.table) == 3
    assert tab.prepared.expected == ["Oslo", "Bern", "Lima"]  # Tuesday's rows, scored
    assert tab.result is not None and tab.result.rows == 3
    assert box.currentText() == "Tuesday"  # the chooser still says which
    assert list(tab.mapping.actuals) == ["output"]  # the mapping carried over to the new sheet
