"""The batch table view repaints only what scoring changed on screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent

from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import Prepared
from matchlens.ui.batch.table_model import BatchTableModel
from matchlens.ui.batch.table_view import BatchTableView
from tests.ui.batch_support import EventCounter

ROWS = 2_000


@pytest.fixture
def view(qtbot):
    sim = get_metric("levenshtein_similarity")
    job = MetricJob(sim, 0.5, sim.resolve_options())
    result = BatchResult.empty(ROWS, ["a"], [job])
    result.scores[("a", sim.id)][:] = 0.25
    result.status[("a", sim.id)][:] = 0
    texts = [f"text {i}" for i in range(ROWS)]
    prepared = Prepared(expected=texts, actuals={"a": texts[::-1]}, ids=None, labels=None)
    model = BatchTableModel()
    model.set_session(prepared, result, {sim.id: sim}, {sim.id: 0.5})
    view = BatchTableView(model)
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    qtbot.waitExposed(view)
    counter = EventCounter(QEvent.Type.Paint)
    view.viewport().installEventFilter(counter)
    view.counter = counter  # kept alive with the view
    return view


def paints_after(qtbot, view: BatchTableView, change) -> int:
    qtbot.wait(20)
    view.counter.count = 0
    change()
    qtbot.wait(50)
    return view.counter.count


def test_rows_scored_off_screen_repaint_nothing(qtbot, view):
    model: BatchTableModel = view.model()
    shown = view.rowAt(view.viewport().height() - 1) + 1
    assert 0 < shown < 100
    score = [model.column_key(c) for c in range(model.columnCount())].index(
        "score:levenshtein_similarity")
    assert model.index(0, score).data() is None  # not scored yet
    assert paints_after(qtbot, view, lambda: model.rows_scored(shown + 10)) > 0
    assert model.index(0, score).data() == "0.250"
    assert paints_after(qtbot, view, lambda: model.rows_scored(ROWS)) == 0
    view.scrollToBottom()
    qtbot.wait(20)
    assert model.index(ROWS - 1, score).data() == "0.250"


def test_a_scrolled_view_repaints_rows_scored_in_it(qtbot, view):
    model: BatchTableModel = view.model()
    view.scrollTo(model.index(500, 0))
    qtbot.wait(20)
    first = view.rowAt(0)
    assert first > 100
    assert paints_after(qtbot, view, lambda: model.rows_scored(50)) == 0
    assert paints_after(qtbot, view, lambda: model.rows_scored(first + 1)) > 0
