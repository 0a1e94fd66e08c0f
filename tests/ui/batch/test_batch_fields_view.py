"""The batch tab's Fields view (ui/batch/fields_view.py): JSON outputs get every path with its
accuracy and counts, worst first, as `matchlens fields` counts them; variants and a baseline run
side by side (a column group and a bar colour each, worst first by the first variant); prose
outputs are not counted. Set MATCHLENS_SHOT=folder to save 1280x720 PNGs of the tab."""

from __future__ import annotations

import json
import os
from pathlib import Path

from matchlens.ui.batch.fields_view import FieldsView
from tests.ui.batch_support import load, make_tab, write_csv


def cells(table, row):
    return [table.item(row, c).text() for c in range(table.columnCount())]


def shot(qtbot, tab, view, name):
    if os.environ.get("MATCHLENS_SHOT"):
        tab.tabs.setCurrentWidget(view)
        tab.resize(1280, 720)
        qtbot.wait(200)
        tab.grab().save(str(Path(os.environ["MATCHLENS_SHOT"]) / name))


def invoices(path: Path) -> Path:
    """8 rows: the phone dropped in rows 0-2, the total off by one in row 4, row 7 not JSON.
    A second output, `other`: every row JSON, the total off by one in rows 0-5."""
    rows = []
    for i in range(8):
        ref = {"phone": f"555-{i}", "total": 10 + i, "items": [{"sku": "a"}, {"sku": "b"}]}
        out = dict(ref)
        if i < 3:
            del out["phone"]
        if i == 4:
            out["total"] += 1
        other = dict(ref, total=ref["total"] + 1) if i < 6 else ref
        rows.append([f"r{i}", json.dumps(ref), json.dumps(out) if i != 7 else "Sorry.",
                     json.dumps(other)])
    return write_csv(path, rows, header=["id", "reference", "output", "other"])


def test_fields_view_lists_paths_worst_first(qtbot, config, tmp_path):
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, invoices(tmp_path / "inv.csv"), expected="reference",
             actuals=["output"])
        view = tab.fields
        qtbot.waitUntil(lambda: bool(view.summary), timeout=20_000)
        table = view.table
        shown = [(table.item(r, 0).text(), table.item(r, 1).text(), table.item(r, 3).text())
                 for r in range(table.rowCount())]
        # 7 rows compared: phone dropped in 3 -> 4/7 = 57.1%; total wrong in 1 -> 6/7 = 85.7%
        assert shown == [("$.phone", "57.1%", "3"), ("$.total", "85.7%", "0"),
                         ("$.items[*].sku", "100.0%", "0")]
        assert "over 7 of 8 rows, 1 left out (1 where the output is not JSON: Expecting value "\
               "at line 1 column 1)" in view.sentence.text()
        if os.environ.get("MATCHLENS_SHOT"):
            tab.tabs.setCurrentWidget(view)
            tab.resize(1280, 720)
            qtbot.wait(200)
            tab.grab().save(str(Path(os.environ["MATCHLENS_SHOT"]) / "fields_view.png"))
    finally:
        tab.shutdown()


def test_clicking_a_path_filters_the_table_to_its_wrong_rows(qtbot, config, tmp_path):
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, invoices(tmp_path / "inv.csv"), expected="reference",
             actuals=["output"])
        view = tab.fields
        qtbot.waitUntil(lambda: bool(view.summary), timeout=20_000)
        view.table.cellClicked.emit(0, 0)  # $.phone: dropped in rows r0, r1, r2
        qtbot.waitUntil(lambda: tab.model.rowCount() == 3, timeout=5000)
        ids = [tab.model.index(r, 1).data() for r in range(3)]
        assert ids == ["r0", "r1", "r2"]
        assert tab.table_bar.filter.currentText() == "Wrong $.phone"
        view.table.cellClicked.emit(1, 0)  # $.total: wrong in r4 only; the filter is replaced
        qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=5000)
        assert [tab.table_bar.filter.itemText(i) for i in range(tab.table_bar.filter.count())
                ].count("Wrong $.phone") == 0
        tab.table_bar.set_filter("all")  # cleared from the Show box: every row again
        qtbot.waitUntil(lambda: tab.model.rowCount() == 8, timeout=5000)
    finally:
        tab.shutdown()


def test_prose_outputs_are_not_counted(qtbot, config, tmp_path):
    rows = [[f"r{i}", "Paris", "Paris" if i else "Rome"] for i in range(4)]
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, write_csv(tmp_path / "qa.csv", rows, header=["id", "ref", "out"]),
             expected="ref", actuals=["out"])
        assert not tab.fields.is_busy() and tab.fields.summary == {}
        assert tab.fields.table.rowCount() == 0
    finally:
        tab.shutdown()


def test_two_variants_side_by_side_worst_first_by_the_first(qtbot, config, tmp_path):
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, invoices(tmp_path / "inv.csv"), expected="reference",
             actuals=["output", "other"])
        view = tab.fields
        qtbot.waitUntil(lambda: bool(view.summary), timeout=20_000)
        table = view.table
        headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
        assert headers == ["Path", "Accuracy\noutput", "Differs\noutput", "Missing\noutput",
                           "Extra\noutput", "Accuracy\nother", "Differs\nother",
                           "Missing\nother", "Extra\nother", "In reference"]
        # output: 7 rows compared (row 7 is prose), as in the one-variant test. other: all 8
        # compared, phone never dropped (8/8), the total off in rows 0-5 -> 2/8 = 25.0%.
        # Order: output's, worst first (phone 4/7 < total 6/7 < sku 14/14), not other's.
        assert [cells(table, r) for r in range(table.rowCount())] == [
            ["$.phone", "57.1%", "0", "3", "0", "100.0%", "0", "0", "0", "7"],
            ["$.total", "85.7%", "1", "0", "0", "25.0%", "6", "0", "0", "7"],
            ["$.items[*].sku", "100.0%", "0", "0", "0", "100.0%", "0", "0", "0", "14"]]
        assert view.sentence.text().startswith("3 fields, worst first by output. output: over "
                                               "7 of 8 rows, 1 left out")
        assert "other: over 8 of 8 rows." in view.sentence.text()
        # the bars: one item per variant, grouped per path, the first variant's on top
        first, second = view.bars
        assert first.opts["width"].tolist() == [4 / 7, 6 / 7, 1.0]
        assert second.opts["width"].tolist() == [1.0, 0.25, 1.0]
        assert all(a > b for a, b in zip(first.opts["y"], second.opts["y"], strict=True))
        assert all(first.opts["y"][i] > second.opts["y"][i] > first.opts["y"][i + 1]
                   for i in range(2))  # each path's pair of bars stays in its own band
        shot(qtbot, tab, view, "fields_view_variants.png")
        # a click in other's group filters the table to the rows where other has it wrong
        table.cellClicked.emit(1, 6)  # $.total, other's Differs: rows r0-r5
        qtbot.waitUntil(lambda: tab.model.rowCount() == 6, timeout=5000)
        assert tab.table_bar.variant.currentText() == "other"
        assert tab.table_bar.filter.currentText() == "Wrong $.total"
        table.cellClicked.emit(1, 0)  # the path itself: the first variant's rows (r4)
        qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=5000)
        assert tab.table_bar.variant.currentText() == "output"
    finally:
        tab.shutdown()


def test_the_baseline_run_is_a_group_of_its_own(qtbot):
    view = FieldsView()
    qtbot.addWidget(view)
    try:
        ref = ['{"a": 1, "b": 2}'] * 4
        # this run: b wrong in 1 of 4; the baseline: a wrong in 3 of 4, b always right
        run = ['{"a": 1, "b": 2}'] * 3 + ['{"a": 1, "b": 9}']
        base = ['{"a": 0, "b": 2}'] * 3 + ['{"a": 1, "b": 2}']
        view.reset(ref, {"out": run}, {}, baseline=base)
        qtbot.waitUntil(lambda: bool(view.summary), timeout=20_000)
        assert view.variants == ["out", "baseline"]
        table = view.table
        # worst first by this run: b (3/4) before a (4/4); the baseline's a at 1/4 = 25.0%
        assert [cells(table, r)[:6] for r in range(2)] == [
            ["$.b", "75.0%", "1", "0", "0", "100.0%"],
            ["$.a", "100.0%", "0", "0", "0", "25.0%"]]
        with qtbot.waitSignal(view.sig_show_rows) as shown:
            table.cellClicked.emit(1, 5)  # $.a in the baseline's group
        variant, path, rows = shown.args
        assert (variant, path, rows.tolist()) == ("baseline", "$.a", [0, 1, 2])
    finally:
        view.shutdown()
