"""The table model over arrays, tested without a view: sort, filters, search, big tables."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_SCORED,
    get_metric,
)
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.view_order import (
    FILTER_ERRORS,
    FILTER_FAILING,
    ViewSpec,
    compute_order,
    row_codes,
)
from matchlens.ui.batch import table_model
from matchlens.ui.batch.table_model import BatchTableModel

NAN = float("nan")


def make(rows: int = 6, thresholds=None):
    """Two metrics over six rows; row 4 errored on jaccard, row 5 invalid on similarity."""
    sim, jac = get_metric("levenshtein_similarity"), get_metric("jaccard")
    jobs = [MetricJob(sim, 0.7, sim.resolve_options()), MetricJob(jac, 0.5, jac.resolve_options())]
    result = BatchResult.empty(rows, ["a"], jobs)
    result.scores[("a", "levenshtein_similarity")][:] = [0.9, 0.2, 0.75, 0.7, 0.1, NAN]
    result.status[("a", "levenshtein_similarity")][:] = [0, 0, 0, 0, 0, STATUS_INVALID]
    result.scores[("a", "jaccard")][:] = [1.0, 0.0, 0.4, 0.5, NAN, 0.6]
    result.status[("a", "jaccard")][:] = [0, 0, 0, 0, STATUS_ERROR, 0]
    result.messages[("a", "jaccard")][4] = "network down"
    result.done = rows
    prepared = Prepared(
        expected=["Paris", "Rome", "Oslo", "Bern", "Kyiv", None],
        actuals={"a": ["paris", "Milan", "Oslo!", "Bern", "Kiev", "x" * 200]},
        ids=["r1", "r2", "r3", "r4", "r5", "r6"], labels=None)
    model = BatchTableModel()
    specs = {job.id: job.spec for job in jobs}
    model.set_session(prepared, result, specs, thresholds or {j.id: j.threshold for j in jobs})
    model.rows_scored(rows)
    return model


def rows(model: BatchTableModel) -> list[int]:
    return [model.source_row(r) for r in range(model.rowCount())]


def column(model: BatchTableModel, key: str) -> int:
    return [model.column_key(c) for c in range(model.columnCount())].index(key)


def test_row_codes_follow_the_core_rule():
    model = make()
    codes = row_codes(model.view_data()).tolist()
    # row0 passes both; row1 fails both; row2 0.75>=0.7 but 0.4<0.5 fails; row3 both on the
    # threshold (>=) pass; row4 similarity 0.1 fails (jaccard errored); row5 no similarity score
    # and jaccard passes -> "no score" (2), which does not pass.
    assert codes == [1, 0, 0, 1, 0, 2]


def test_sort_by_score_puts_missing_last_both_ways():
    model = make()
    model.sort(column(model, "score:levenshtein_similarity"), Qt.SortOrder.AscendingOrder)
    assert rows(model) == [4, 1, 3, 2, 0, 5]
    model.sort(column(model, "score:levenshtein_similarity"), Qt.SortOrder.DescendingOrder)
    assert rows(model) == [0, 2, 3, 1, 4, 5]


def test_sort_by_text_and_verdict():
    model = make()
    model.sort(column(model, "expected"), Qt.SortOrder.AscendingOrder)
    # None sorts as "" (first); then alphabetical.
    assert rows(model) == [5, 3, 4, 2, 0, 1]
    model.sort(column(model, "verdict"), Qt.SortOrder.AscendingOrder)
    assert rows(model)[:3] == [1, 2, 4]  # failures first, in file order
    model.sort(column(model, "#"), Qt.SortOrder.AscendingOrder)
    assert model._order is None  # file order needs no index array


def test_filters_and_search():
    model = make()
    model.set_view(ViewSpec(filter=FILTER_FAILING))
    assert rows(model) == [1, 2, 4, 5]
    model.set_view(ViewSpec(filter=FILTER_ERRORS))
    assert rows(model) == [4, 5]
    model.set_view(ViewSpec(filter="fail:jaccard"))
    assert rows(model) == [1, 2, 4]  # 0.0 and 0.4 fail; the errored row has no pass either
    model.set_view(ViewSpec(search="paris"))
    assert rows(model) == [0]  # smart case: lower-case matches "Paris" and "paris"
    model.set_view(ViewSpec(search="Paris"))
    assert rows(model) == [0]
    model.set_view(ViewSpec(search="Milan"))
    assert rows(model) == [1]
    model.set_view(ViewSpec(search="milan", filter=FILTER_FAILING, sort="score:jaccard",
                            descending=True))
    assert rows(model) == [1]


def test_thresholds_change_verdicts_and_filters():
    model = make()
    model.set_view(ViewSpec(filter=FILTER_FAILING))
    assert rows(model) == [1, 2, 4, 5]
    model.set_thresholds({"levenshtein_similarity": 0.05, "jaccard": 0.0})
    assert rows(model) == [4, 5]  # only the rows without a score still fail to pass
    model.set_thresholds({"levenshtein_similarity": None, "jaccard": None})
    assert rows(model) == []  # no thresholds: nothing is judged


def test_cells():
    model = make()
    sim = column(model, "score:levenshtein_similarity")
    jac = column(model, "score:jaccard")
    assert model.index(0, sim).data() == "0.900"
    assert model.index(5, sim).data() == "invalid"
    assert model.index(4, jac).data() == "error"
    assert model.index(4, jac).data(Qt.ItemDataRole.ToolTipRole) == "network down"
    assert model.index(1, sim).data(Qt.ItemDataRole.ToolTipRole) == \
        "Levenshtein similarity 0.2 fails ≥ 0.70"
    actual = column(model, "actual")
    assert model.index(5, actual).data() == "x" * 80 + "…"
    assert model.index(5, actual).data(Qt.ItemDataRole.ToolTipRole) == "x" * 200
    assert model.index(5, column(model, "expected")).data() == "(none)"
    assert model.index(1, column(model, "verdict")).data() == "fail"
    assert model.index(5, column(model, "verdict")).data() == "no score"
    assert model.index(0, column(model, "#")).data() == "1"


def test_big_tables_order_in_a_worker(qtbot, monkeypatch):
    monkeypatch.setattr(table_model, "SYNC_ROWS", 3)
    model = make()
    with qtbot.waitSignal(model.sig_order_changed, timeout=5000):
        model.sort(column(model, "score:jaccard"), Qt.SortOrder.DescendingOrder)
        assert model.is_busy()
    qtbot.waitUntil(lambda: not model.is_busy())
    assert rows(model) == [0, 5, 3, 2, 1, 4]
    assert rows(model) == compute_order(model.view_data(), model.view_spec()).tolist()


@pytest.mark.parametrize("n", [0, 1, 1000])
def test_order_with_many_equal_scores_is_stable(n):
    from matchlens.core.scoring.view_order import ViewData, sort_rows
    spec = get_metric("exact_match")
    scores = np.zeros(n)
    data = ViewData(n, None, ["e"] * n, ["a"] * n, {"exact_match": scores},
                    {"exact_match": np.full(n, STATUS_SCORED, np.int8)},
                    {"exact_match": spec}, {"exact_match": 0.5})
    ordered = sort_rows(data, np.arange(n), "score:exact_match", True)
    assert ordered.tolist() == list(range(n))


def test_a_new_session_sorts_again_when_asked_for_the_same_order():
    """The 'same request twice' shortcut must not survive a new session's unsorted order."""
    model = make()
    key = column(model, "score:jaccard")
    model.sort(key, Qt.SortOrder.DescendingOrder)
    assert rows(model) == [0, 5, 3, 2, 1, 4]
    fresh = make()  # the same data in a new session: file order until sorted
    model.set_session(fresh._prepared, fresh._result, fresh._specs, fresh._thresholds)
    model.rows_scored(6)
    model.sort(key, Qt.SortOrder.DescendingOrder)  # the user clicks the same header again
    assert rows(model) == [0, 5, 3, 2, 1, 4]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.none() | st.sampled_from(["", "a", "b", "ab", "B", "é", "a b", "\ud800"]),
                max_size=30),
       st.booleans())
def test_sorting_by_text_ranks_equals_sorting_the_texts(column, descending):
    from matchlens.core.scoring.view_order import ViewData, sort_rows, text_ranks

    n = len(column)
    data = ViewData(n, None, column, ["x"] * n, {}, {}, {}, {})
    rows = np.arange(n)[::2]  # a filtered subset
    plain = sort_rows(data, rows, "expected", descending)
    data.ranks = {"expected": text_ranks(column)}
    assert sort_rows(data, rows, "expected", descending).tolist() == plain.tolist()
    # Python's own order, ties in file order either way
    key = [column[i] or "" for i in rows.tolist()]
    want = sorted(range(len(rows)), key=lambda j: key[j], reverse=False)
    if descending:
        want = sorted(range(len(rows)), key=lambda j: key[j], reverse=True)
    assert plain.tolist() == [int(rows[j]) for j in want]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.none() | st.text(max_size=4) | st.just("\udfff"), max_size=40))
def test_the_scoring_process_ranks_as_the_window_does(column):
    from matchlens.core.scoring.view_order import dense_ranks, text_ranks
    from matchlens.workers.score_child import column_ranks, compact

    want = text_ranks(column).tolist()
    assert dense_ranks(column).tolist() == want
    chunks = [compact(column[i:i + 7]) for i in range(0, len(column), 7)]  # as the child keeps
    assert column_ranks(chunks).tolist() == want
    # 4 bytes a row wherever they are made (a window keeps one array per text column)
    assert {r.dtype.itemsize for r in (text_ranks(column), dense_ranks(column),
                                       column_ranks(chunks))} == {4}


def test_big_tables_rank_their_text_columns_once_scored(qtbot, monkeypatch):
    monkeypatch.setattr(table_model, "SYNC_ROWS", 3)
    monkeypatch.setattr(table_model, "RANK_ROWS", 4)
    model = make()
    model.scoring_finished()  # the order job; ranking waits to be asked
    qtbot.waitUntil(lambda: not model.ordering(), timeout=5000)
    assert not model.text_ranks.ranks
    model.rank_text_columns()  # what the tab does once the rest of the run is done
    qtbot.waitUntil(lambda: not model.is_busy(), timeout=5000)
    assert set(model.text_ranks.ranks) == {"expected", "actual:a", "id"}
    # Paris Rome Oslo Bern Kyiv None: "" (None) < Bern < Kyiv < Oslo < Paris < Rome
    assert model.view_data().ranks["expected"].tolist() == [4, 5, 3, 1, 2, 0]
    for order, want in ((Qt.SortOrder.AscendingOrder, [5, 3, 4, 2, 0, 1]),
                        (Qt.SortOrder.DescendingOrder, [1, 0, 2, 4, 3, 5])):
        with qtbot.waitSignal(model.sig_order_changed, timeout=5000):
            model.sort(column(model, "expected"), order)
        qtbot.waitUntil(lambda: not model.is_busy(), timeout=5000)
        assert rows(model) == want


@pytest.fixture
def big_model(qtbot, monkeypatch):
    """Six rows that count as a big table: ordered and ranked in workers."""
    monkeypatch.setattr(table_model, "SYNC_ROWS", 3)
    monkeypatch.setattr(table_model, "RANK_ROWS", 4)
    model = make()
    model.scoring_finished()
    qtbot.waitUntil(lambda: not model.is_busy(), timeout=5000)
    model.busy = []  # what sig_busy said, in order
    model.sig_busy.connect(model.busy.append)
    return model


def test_a_text_sort_waits_for_ranks_on_their_way(qtbot, big_model):
    import threading

    from matchlens.core.scoring.view_order import text_ranks

    model = big_model
    first, rest = threading.Event(), threading.Event()

    def ranked_elsewhere(cancel):  # as the scoring process delivers them: later, one by one
        first.wait(10)
        yield "expected", text_ranks(model._prepared.expected)
        rest.wait(10)
        yield "id", text_ranks(model._prepared.ids)

    model.rank_text_columns(ranked_elsewhere)
    model.sort(column(model, "expected"), Qt.SortOrder.AscendingOrder)
    qtbot.wait(50)
    assert model.is_busy() and rows(model) == [0, 1, 2, 3, 4, 5]  # waiting, not sorting texts
    assert model.busy == [True]  # the table bar says "working…"
    with qtbot.waitSignal(model.sig_order_changed, timeout=5000):
        first.set()  # its column's ranks: sorted now, while the other columns still rank
    assert rows(model) == [5, 3, 4, 2, 0, 1]  # None, Bern, Kyiv, Oslo, Paris, Rome
    assert model.is_busy() and not rest.is_set()
    rest.set()
    qtbot.waitUntil(lambda: not model.is_busy(), timeout=5000)
    assert model.busy[-1] is False


def test_a_waiting_sort_ends_with_its_session(big_model):
    model = big_model

    def ranked_elsewhere(cancel):  # ranks that never come
        while not cancel():
            time.sleep(0.01)
        yield from ()

    model.rank_text_columns(ranked_elsewhere)
    model.sort(column(model, "id"), Qt.SortOrder.DescendingOrder)
    assert model.busy == [True]
    model.clear()  # a new file is opened
    assert model.busy[-1] is False and not model.is_busy()
