"""The batch tab's Fields view (ui/batch/fields_view.py): JSON outputs get every path with its
accuracy and counts, worst first, as `matchlens fields` counts them; prose outputs are not
counted. Set MATCHLENS_SHOT=folder to save a 1280x720 PNG of the tab."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.ui.batch_support import load, make_tab, write_csv


def invoices(path: Path) -> Path:
    """8 rows: the phone dropped in rows 0-2, the total off by one in row 4, row 7 not JSON."""
    rows = []
    for i in range(8):
        ref = {"phone": f"555-{i}", "total": 10 + i, "items": [{"sku": "a"}, {"sku": "b"}]}
        out = dict(ref)
        if i < 3:
            del out["phone"]
        if i == 4:
            out["total"] += 1
        rows.append([f"r{i}", json.dumps(ref), json.dumps(out) if i != 7 else "Sorry."])
    return write_csv(path, rows, header=["id", "reference", "output"])


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
