"""The batch window keeps its table in the column store (core/datasets/column_store.py): no
str object a cell, yet it shows, searches, sorts and scores exactly what read_table reads."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.datasets.column_store import StoredRows
from tests.ui.batch_support import load, make_tab, wait_idle

# Every cell distinct (nothing a reader could share), non-ASCII, a quote and a line break, a
# lone surrogate in the JSON file (JSON may escape one), an output missing in one JSON row.
ROWS = [{"id": f"r{i}", "expected": f"Zoë “{i}” line\nbreak {i}",
         "output": f"zoe {i}" if i != 3 else "\ud800 odd", "label": "pass" if i % 2 else "fail"}
        for i in range(12)]


@pytest.fixture
def tab(qtbot, config):
    tab = make_tab(qtbot, config)
    yield tab
    tab.shutdown()


def _write(path, kind):
    if kind == "jsonl":
        path.write_text("".join(json.dumps({k: v for k, v in r.items()
                                            if not (r["id"] == "r5" and k == "output")}) + "\n"
                                for r in ROWS), encoding="utf-8")
    else:
        import csv

        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(list(ROWS[0]))
            writer.writerows([[r[k].replace("\ud800", "?") for k in r] for r in ROWS])
    return path


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_the_window_shows_searches_and_sorts_the_stored_table(qtbot, tab, tmp_path, kind):
    path = _write(tmp_path / f"data.{kind}", kind)
    load(qtbot, tab, path)
    assert isinstance(tab.table.rows, StoredRows)  # the window's table is the store
    assert not isinstance(tab.prepared.expected, list)  # and its columns views of it
    whole = read_table(path)
    for spec, got in (("expected", tab.prepared.expected), ("output", tab.prepared.actuals["output"]),
                      ("id", tab.prepared.ids)):
        assert list(got) == resolve_column(whole, spec).values
    model = tab.model
    col = [model.column_key(c) for c in range(model.columnCount())]
    # a cell shows its text (line break as a symbol), its tooltip the text itself
    index = model.index(3, col.index("actual"))
    assert model.data(index, Qt.ItemDataRole.ToolTipRole) == resolve_column(whole, "output").values[3]
    if kind == "jsonl":  # the row without an output says so
        assert model.data(model.index(5, col.index("actual"))) == "(none)"
    tab.table_bar.search.setText("“7”")
    qtbot.waitUntil(lambda: model.view_spec().search == "“7”")
    wait_idle(qtbot, tab)
    assert [model.source_row(r) for r in range(model.rowCount())] == [7]
    tab.table_bar.search.setText("")
    qtbot.waitUntil(lambda: model.view_spec().search == "" and model.rowCount() == len(ROWS))
    with qtbot.waitSignal(model.sig_order_changed, timeout=5000):
        model.sort(col.index("id"), Qt.SortOrder.DescendingOrder)
    wait_idle(qtbot, tab)
    ids = [whole.cell_text(i, "id") for i in range(len(ROWS))]
    assert [ids[model.source_row(r)] for r in range(len(ROWS))] == sorted(ids, reverse=True)
    assert tab.result.done == len(ROWS)
