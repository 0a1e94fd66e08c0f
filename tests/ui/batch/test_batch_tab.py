"""The batch tab end to end on real widgets: load, map, score, table, histograms, rows out."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.metrics.registry import DEFAULT_METRICS, STATUS_SCORED, get_metric
from matchlens.core.paths import sample_dataset
from matchlens.core.scoring.batch import Chunk, MetricJob
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.core.scoring.view_order import FILTER_FAILING, text_ranks
from matchlens.ui.batch import scoring_run
from tests.ui.batch_support import (
    drag_line,
    load,
    make_tab,
    small_dataset,
    wait_idle,
    write_csv,
)


@pytest.fixture
def tab(qtbot, config):
    tab = make_tab(qtbot, config)
    yield tab
    tab.shutdown()


def core_result(path: Path, actuals: list[str], metrics=DEFAULT_METRICS):
    """What core.batch computes on the same file with the registry defaults."""
    table = read_table(path)
    jobs = [MetricJob(get_metric(m), get_metric(m).default_threshold,
                      get_metric(m).resolve_options()) for m in metrics]
    expected = resolve_column(table, "expected").values
    return run_to_completion(expected, {a: resolve_column(table, a).values for a in actuals},
                             jobs)


@pytest.mark.parametrize("where", ["thread", "scoring process"])
def test_sample_scores_match_core(qtbot, tab, monkeypatch, where):
    from matchlens.ui.batch import dataset_scoring as worker

    if where == "scoring process":  # what datasets of 20,000 rows and more use
        monkeypatch.setattr(worker, "PROCESS_ROWS", 1)
        monkeypatch.setattr(worker, "CHILD_CHUNK_ROWS", 64)  # several chunks
    path = sample_dataset()
    load(qtbot, tab, path)
    # The mapping was guessed from the column names.
    mapping = tab.mapping_panel.mapping()
    assert mapping.expected == "expected"
    assert mapping.actuals == ("output_a", "output_b")
    assert mapping.label == "label" and mapping.id == "id"
    assert mapping.metrics == DEFAULT_METRICS  # no network metric by default
    core = core_result(path, ["output_a", "output_b"])
    assert tab.model.rowCount() == core.rows == 200
    for key, scores in core.scores.items():
        np.testing.assert_array_equal(tab.result.scores[key], scores)
        np.testing.assert_array_equal(tab.result.status[key], core.status[key])
    # The table shows the selected variant's scores, formatted.
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    sim = col.index("score:levenshtein_similarity")
    for row in (0, 1, 57, 199):
        shown = tab.model.index(row, sim).data()
        assert shown == f"{core.scores[('output_a', 'levenshtein_similarity')][row]:.3f}"
    # Histogram counts equal a plain count of the core scores.
    for variant, metric_id in core.scores:
        stats = tab.histograms.stats[(variant, metric_id)]
        edges, counts = stats.histogram.bars()
        assert counts.sum() == np.count_nonzero(core.status[(variant, metric_id)] == STATUS_SCORED)
        summary = core.summary(variant, metric_id)
        assert stats.scored == summary.scored and stats.status_counts[2] == summary.errored
        if summary.passed is not None:
            assert stats.passed(core.job(metric_id).threshold) == summary.passed
    # Bounded metric: 50 bins of 0.02 on [0, 1]; the last holds 0.98, 0.99 and 1.0.
    edges, counts = tab.histograms.stats[("output_b", "levenshtein_similarity")].histogram.bars()
    sim_b = core.scores[("output_b", "levenshtein_similarity")]
    assert edges[0] == 0 and edges[-1] == 1 and counts.size == 50
    assert counts[-1] == np.count_nonzero(sim_b >= 0.98)
    assert counts[0] == np.count_nonzero(sim_b < 0.02)
    assert not tab.is_busy()
    assert (tab.run.child.proc is not None) == (where == "scoring process")


def test_dragging_the_threshold_updates_pass_rate_then_config(qtbot, tab, config):
    path = sample_dataset()
    load(qtbot, tab, path)
    core = core_result(path, ["output_a", "output_b"])
    panel = tab.histograms.panels["levenshtein_similarity"]
    steps = config.undo_stack.count()
    drag_line(panel, 0.75, 0.8123, release=False)  # it snaps to the 2 decimals the app shows
    expected = core.summary("output_a", "levenshtein_similarity", 0.81).pass_rate
    assert tab.histograms.pass_rate("output_a", "levenshtein_similarity", 0.81) == expected
    assert f"pass {expected:.1%}" in panel.stats.text()
    # The config follows the line live (every view draws from it), as one undo step.
    assert config.settings("levenshtein_similarity").threshold == 0.81
    drag_line(panel, 0.81)  # a last move and the drag ends
    assert config.settings("levenshtein_similarity").threshold == 0.81
    assert config.undo_stack.count() == steps + 1
    config.undo_stack.undo()  # the whole drag, in one step
    assert config.settings("levenshtein_similarity").threshold == 0.7
    assert panel.line.value() == pytest.approx(0.7)
    config.undo_stack.redo()
    assert config.settings("levenshtein_similarity").threshold == 0.81
    # The table verdicts follow the stored threshold.
    wait_idle(qtbot, tab)
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    sim = col.index("score:levenshtein_similarity")
    scores = core.scores[("output_a", "levenshtein_similarity")]
    row = int(np.flatnonzero((scores >= 0.7) & (scores < 0.81))[0])
    tip = tab.model.index(row, sim).data(Qt.ItemDataRole.ToolTipRole)
    assert "fails ≥ 0.81" in tip
    # A threshold set elsewhere (compare panels, Best threshold) moves the line.
    config.set_threshold("levenshtein_similarity", 0.5)
    assert panel.line.value() == 0.5
    rate = core.summary("output_a", "levenshtein_similarity", 0.5).pass_rate
    assert f"pass {rate:.1%}" in panel.stats.text()


def test_failing_filter_search_and_sort(qtbot, tab):
    path = sample_dataset()
    load(qtbot, tab, path)
    core = core_result(path, ["output_a", "output_b"])
    tab.table_bar.set_filter(FILTER_FAILING)
    wait_idle(qtbot, tab)
    failing = ~core.row_passes("output_a")
    assert tab.model.rowCount() == int(failing.sum())
    assert all(failing[tab.model.source_row(r)] for r in range(tab.model.rowCount()))
    tab.table_bar.search.setText("canberra")
    qtbot.waitUntil(lambda: tab.model.view_spec().search == "canberra")
    wait_idle(qtbot, tab)
    rows = [tab.model.source_row(r) for r in range(tab.model.rowCount())]
    assert rows and all("canberra" in tab.pair_for_row(r)[0].lower()
                        or "canberra" in tab.pair_for_row(r)[1].lower() for r in rows)
    tab.table_bar.search.clear()
    tab.table_bar.set_filter("all")
    qtbot.waitUntil(lambda: tab.model.view_spec().search == "" and tab.model.rowCount() == 200)
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    tab.view.sortByColumn(col.index("score:jaccard"), Qt.SortOrder.DescendingOrder)
    wait_idle(qtbot, tab)
    shown = [core.scores[("output_a", "jaccard")][tab.model.source_row(r)] for r in range(200)]
    assert shown == sorted(shown, reverse=True)


def test_double_click_and_neighbours(qtbot, tab):
    load(qtbot, tab, sample_dataset())
    index = tab.model.index(1, 0)
    rect = tab.view.visualRect(index)
    # A real double click is a press, a release, then the double-click event.
    qtbot.mouseClick(tab.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    with qtbot.waitSignal(tab.sig_open_row) as signal:
        qtbot.mouseDClick(tab.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert signal.args == [1]
    expected, actual, description = tab.pair_for_row(1)
    assert (expected, actual) == ("Canberra", "Sydney")
    # The metric's verdict, then the human's (the sample's label column) and the labels counter.
    assert description == ("row 2 of 200 (id qa-002) · output_a · fail · human: fail · "
                           "200 of 200 labelled")
    tab.table_bar.variant.setCurrentText("output_b")
    assert tab.pair_for_row(1)[1] == "Canberra"
    assert tab.neighbour_row(1, +1) == 2 and tab.neighbour_row(1, -1) == 0
    assert tab.neighbour_row(199, +1) is None
    data = tab.model.view_data()
    from matchlens.core.scoring.view_order import failing_mask
    failing = np.flatnonzero(failing_mask(data))
    assert tab.neighbour_row(-1, +1, failing_only=True) == failing[0]
    assert tab.neighbour_row(int(failing[0]), +1, failing_only=True) == failing[1]
    assert tab.neighbour_row(int(failing[1]), -1, failing_only=True) == failing[0]


def test_given_columns_win_and_missing_labels_are_counted(qtbot, tab, tmp_path):
    path = small_dataset(tmp_path / "small.csv")
    load(qtbot, tab, path, expected="expected", actuals=["output_b"], label="label")
    assert tab.result.variants == ["output_b"]
    assert not tab.table_bar.variant.isVisible()  # one variant: no selector
    assert "neither pass nor fail" in tab.message.text()  # "maybe"
    calibration = tab.calibration.current()
    labelled, _ = calibration
    # 8 rows: r5 has an empty label, r8 says "maybe" -> 6 labelled rows.
    assert labelled.n == 6 and labelled.no_label == 2
    assert "fewer than 30" in tab.calibration.numbers.text()


def test_load_errors_are_sentences(qtbot, tab, tmp_path):
    statuses = []
    tab.sig_status.connect(statuses.append)
    missing = tmp_path / "nope.csv"
    load(qtbot, tab, missing)
    assert str(missing) in tab.message.text() and "no such file" in tab.message.text()
    assert statuses and "no such file" in statuses[-1]
    path = small_dataset(tmp_path / "small.csv")
    load(qtbot, tab, path, expected="expectd")
    assert "no column 'expectd'" in tab.message.text()
    assert "did you mean 'expected'" in tab.message.text()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"expected": "a", "actual": "b"}\n{"expected": \n', encoding="utf-8")
    load(qtbot, tab, bad)
    assert "bad.jsonl" in tab.message.text() and "line 2" in tab.message.text()


def test_jsonl_with_jsonpath_and_drop(qtbot, tab, tmp_path):
    path = tmp_path / "nested.jsonl"
    path.write_text('{"ref": {"answer": "Paris"}, "out": "{\\"answer\\": \\"Paris\\"}"}\n'
                    '{"ref": {"answer": "Rome"}, "out": "{\\"answer\\": \\"Milan\\"}"}\n',
                    encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(tab.sig_finished, timeout=20_000):
        tab.dropEvent(event)
    wait_idle(qtbot, tab)
    assert tab.table is not None and len(tab.table) == 2
    tab.mapping_panel.expected.setEditText("$.ref.answer")
    tab.mapping_panel.path_edit.setText("$.out.answer")
    tab.mapping_panel.path_edit.returnPressed.emit()
    for i in range(tab.mapping_panel.actuals.count()):
        item = tab.mapping_panel.actuals.item(i)
        if item.text() != "$.out.answer":
            item.setCheckState(Qt.CheckState.Unchecked)
    with qtbot.waitSignal(tab.sig_finished, timeout=20_000):
        tab.mapping_panel.score_button.click()
    wait_idle(qtbot, tab)
    scores = tab.result.scores[("$.out.answer", "exact_match")]
    assert scores.tolist() == [1.0, 0.0]


def test_cancel_stops_within_the_chunk_in_flight(qtbot, tab, tmp_path, monkeypatch):
    monkeypatch.setattr(scoring_run, "CHUNK_ROWS", 2_000)  # many chunks: cancel lands mid-run
    rng = np.random.default_rng(3)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]
    rows = []
    for i in range(60_000):
        e = " ".join(rng.choice(words, 12))
        rows.append([f"r{i}", "", e, e[::-1] + str(i), e + str(i), ""])
    path = write_csv(tmp_path / "big.csv", rows)
    tab.load(path)
    qtbot.waitUntil(lambda: tab.run.task is not None, timeout=30_000)  # scoring has started
    clicked, after = [], []

    def cancel_on_a_chunk(item: object) -> None:
        if isinstance(item, Chunk):
            if clicked:
                after.append(item)  # a chunk that still reached the tab after Cancel
            else:
                clicked.append(tab.result.done)
                tab.progress.cancel_button.click()

    task = tab.run.task
    task.sig_yielded.connect(cancel_on_a_chunk)
    qtbot.waitUntil(lambda: bool(clicked), timeout=30_000)
    # The tab is idle as soon as Cancel is clicked; the thread ends after its chunk in flight,
    # so wait for the task itself (waiting for the tab only flaked on a loaded machine).
    qtbot.waitUntil(lambda: not tab.is_busy() and not task.running, timeout=30_000)
    # Event-based, not timed: Cancel stops within the chunk in flight (the run has 30 chunks
    # of 2,000 rows), and no more than that chunk reaches the tab.
    assert len(after) <= 1
    assert "cancelled" in tab.message.text()
    assert "Scoring big.csv" not in tab.progress.label.text()  # no stale "working" sentence
    assert 0 < tab.result.done < 60_000
    assert tab.model.rowCount() == 60_000  # partial results stay visible
    assert tab.histograms.stats[("output_a", "exact_match")].done == tab.result.done


def test_a_file_in_another_encoding_reads_after_choosing_it(qtbot, tab, tmp_path):
    """The load error names the byte and suggests the encoding; choosing it reads the file."""
    path = tmp_path / "latin.csv"
    path.write_bytes("expected,actual\nZoë,Zoe\nCafé,Café\n".encode("latin-1"))
    load(qtbot, tab, path)
    message = tab.message.text()
    assert message.startswith(f"{path}, line 2: byte 0xeb")
    assert "choose Encoding ▸ latin-1" in message and "--encoding" not in message
    assert tab.table is None
    assert "reading…" not in tab.top.file_label.text()  # the file line says it did not load
    assert "not loaded" in tab.top.file_label.text()
    loads = []
    original = tab.load
    tab.load = lambda *args, **kwargs: (loads.append(kwargs.get("encoding")),
                                        original(*args, **kwargs))
    tab.top.encoding.setCurrentText("latin-1")
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        QTest.keyClick(tab.top.encoding.lineEdit(), Qt.Key.Key_Return)  # as the user does
    wait_idle(qtbot, tab)
    assert loads == ["iso8859-1"]  # one read for one Return, in the codec's own name
    assert tab.table is not None and tab.table.encoding == "iso8859-1"  # codecs name
    assert tab.prepared.expected == ["Zoë", "Café"]  # decoded, not mojibake
    assert tab.result is not None and tab.result.done == 2  # and scored, as the first load would


def test_table_verdicts_follow_the_line_while_it_is_dragged(qtbot, tab, config):
    path = sample_dataset()
    load(qtbot, tab, path)
    core = core_result(path, ["output_a", "output_b"])
    scores = core.scores[("output_a", "levenshtein_similarity")]
    row = int(np.flatnonzero((scores >= 0.7) & (scores < 0.9))[0])  # passes now, fails at 0.9
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    cell = tab.model.index(row, col.index("score:levenshtein_similarity"))
    assert "passes" in cell.data(Qt.ItemDataRole.ToolTipRole)
    panel = tab.histograms.panels["levenshtein_similarity"]
    drag_line(panel, 0.8, 0.9, release=False)  # mid-drag, not dropped
    assert "fails ≥ 0.9" in cell.data(Qt.ItemDataRole.ToolTipRole)
    title = panel.title.text().replace("&nbsp;", " ")
    assert "≥ 0.90" in title and "≥ 0.70" not in title
    drag_line(panel, 0.9)  # let go


@pytest.mark.parametrize("where", ["scoring process", "window's worker thread"])
def test_text_columns_are_ranked_once_the_run_is_done(qtbot, tab, tmp_path, monkeypatch, where):
    from matchlens.ui.batch import dataset_scoring as worker
    from matchlens.ui.batch import table_model
    from matchlens.ui.batch import text_ranks as text_ranks_module

    monkeypatch.setattr(table_model, "SYNC_ROWS", 3)  # the small dataset counts as big
    monkeypatch.setattr(table_model, "RANK_ROWS", 4)
    if where == "scoring process":
        monkeypatch.setattr(worker, "PROCESS_ROWS", 1)

        def not_here(*args, **kwargs):
            raise AssertionError("ranked in the window's process")
            yield

        monkeypatch.setattr(text_ranks_module, "ranks_job", not_here)
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))  # waits until the tab is idle
    assert set(tab.model.text_ranks.ranks) == {"expected", "actual:output_a", "actual:output_b", "id"}
    for key, column in (("expected", tab.prepared.expected), ("id", tab.prepared.ids),
                        ("actual:output_a", tab.prepared.actuals["output_a"])):
        np.testing.assert_array_equal(tab.model.text_ranks.ranks[key], text_ranks(column))
    if where == "scoring process":
        assert tab.run.child.proc.wait(timeout=5) == 0  # it ranked, then exited when asked
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    with qtbot.waitSignal(tab.model.sig_order_changed, timeout=5000):
        tab.model.sort(col.index("expected"), Qt.SortOrder.AscendingOrder)
    wait_idle(qtbot, tab)
    shown = [tab.prepared.expected[tab.model.source_row(r)] for r in range(8)]
    assert shown == sorted(tab.prepared.expected)  # Canberra, Everest, Mars, … Venus


def test_texts_no_utf8_can_hold_still_rank_and_sort(qtbot, tab, tmp_path, monkeypatch):
    """JSON may escape a lone surrogate ("\\ud800"): numpy strings cannot hold it, Python's can."""
    import json

    from matchlens.ui.batch import dataset_scoring as worker
    from matchlens.ui.batch import table_model

    monkeypatch.setattr(table_model, "SYNC_ROWS", 3)
    monkeypatch.setattr(table_model, "RANK_ROWS", 4)
    monkeypatch.setattr(worker, "PROCESS_ROWS", 1)  # ranked in the scoring process
    expected = ["b", "\ud800 odd", "a", "\ud7ff", "\ue000", "a"]
    path = tmp_path / "odd.jsonl"
    path.write_text("".join(json.dumps({"expected": e, "actual": e.upper()}) + "\n"
                            for e in expected), encoding="utf-8")  # json escapes the surrogate
    load(qtbot, tab, path)
    assert tab.prepared.expected == expected
    assert "expected" in tab.model.text_ranks.ranks
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    with qtbot.waitSignal(tab.model.sig_order_changed, timeout=5000):
        tab.model.sort(col.index("expected"), Qt.SortOrder.AscendingOrder)
    wait_idle(qtbot, tab)
    shown = [tab.prepared.expected[tab.model.source_row(r)] for r in range(len(expected))]
    assert shown == sorted(expected)  # code point order: U+D7FF < U+D800 < U+E000
    assert not tab.message.isVisible()
