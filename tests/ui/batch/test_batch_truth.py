"""One source of truth: every verdict the batch tab draws comes from the config model, a
second file paints no phantom verdicts, and a file that fails to open keeps the one before."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from matchlens.core.metrics.registry import STATUS_MISSING
from matchlens.core.paths import sample_dataset
from matchlens.ui.batch.colours import verdict_colours
from tests.ui.batch_support import drag_line, load, make_tab, small_dataset, wait_idle
from tests.ui.verdict_check import check_batch_tab, plain


@pytest.fixture
def tab(qtbot, config):
    tab = make_tab(qtbot, config)
    yield tab
    tab.shutdown()


def with_a_missing_row(path):
    """The small dataset as JSONL, r6 with no output_a at all (a missing score)."""
    import csv
    import json

    with small_dataset(path.with_suffix(".csv")).open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    del rows[5]["output_a"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_table_colours_and_histogram_counts_are_core_verdicts(qtbot, tab, config, tmp_path):
    load(qtbot, tab, with_a_missing_row(tmp_path / "small.jsonl"), expected="expected",
         actuals=["output_a", "output_b"])
    # r6 has no output_a: a missing score, which never passes and stays in the denominator.
    status = tab.result.status[("output_a", "levenshtein_similarity")]
    assert status[5] == STATUS_MISSING
    check_batch_tab(tab, config)
    config.set_threshold("levenshtein_distance", 2)  # a gate that had none
    config.set_threshold("jaccard", None)  # and one removed
    check_batch_tab(tab, config)
    colours = verdict_colours()
    assert colours.passed != colours.failed != colours.problem
    # Spot check by hand, r1 "Paris" vs "Paris": distance 0 <= 2 passes, in the pass colour.
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    cell = tab.model.index(0, col.index("score:levenshtein_distance"))
    assert cell.data(Qt.ItemDataRole.BackgroundRole) == colours.passed
    # r4 "Pacific" vs "Atlantic": 7 unit edits > 2, failing, and so the row fails.
    cell = tab.model.index(3, col.index("score:levenshtein_distance"))
    assert cell.data(Qt.ItemDataRole.BackgroundRole) == colours.failed
    assert tab.model.index(3, col.index("verdict")).data(Qt.ItemDataRole.BackgroundRole) \
        == colours.failed
    # The histogram's pass rate counts the missing row in its denominator: 8 rows, not 7.
    panel = tab.histograms.panels["levenshtein_similarity"]
    assert "/8)" in plain(panel.stats.text()).split("\n")[0]


def test_a_second_file_paints_no_phantom_verdict(qtbot, tab, config, tmp_path):
    load(qtbot, tab, sample_dataset())
    assert config.settings("levenshtein_distance").threshold is None
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    wait_idle(qtbot, tab)
    col = [tab.model.column_key(c) for c in range(tab.model.columnCount())]
    column = col.index("score:levenshtein_distance")
    for row in range(tab.model.rowCount()):
        index = tab.model.index(row, column)
        if tab.result.status[("output_a", "levenshtein_distance")][row] == 0:
            assert index.data(Qt.ItemDataRole.BackgroundRole) is None
            assert "(no threshold)" in index.data(Qt.ItemDataRole.ToolTipRole)
    assert config.settings("levenshtein_distance").threshold is None  # nothing was written
    assert config.undo_stack.count() == 0
    check_batch_tab(tab, config)


def test_a_clamped_line_writes_no_threshold(qtbot, tab, config, tmp_path):
    load(qtbot, tab, sample_dataset())
    panel = tab.histograms.panels["levenshtein_distance"]
    drag_line(panel, panel.line.value() + 5)  # the user sets a distance threshold far out
    set_to = config.settings("levenshtein_distance").threshold
    assert set_to is not None
    steps = config.undo_stack.count()
    # The small file's distances are short: the axis ends well below the line, which is
    # clamped to it; that motion is the widget's, not the user's.
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    assert config.settings("levenshtein_distance").threshold == set_to
    assert config.undo_stack.count() == steps
    check_batch_tab(tab, config)


def test_a_failed_open_keeps_the_previous_dataset_whole(qtbot, tab, config, tmp_path):
    load(qtbot, tab, sample_dataset())
    before = (tab.result, tab.prepared, tab.table)
    counts = plain(tab.histograms.panels["jaccard"].stats.text())
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"expected": "a", "actual": "b"}\n{"expected": \n', encoding="utf-8")
    load(qtbot, tab, bad)
    message = tab.message.text()
    assert "bad.jsonl" in message and "line 2" in message  # why the new one failed
    assert "qa_extraction_sample.csv is still shown" in message
    assert (tab.result, tab.prepared, tab.table) == before
    assert tab.model.rowCount() == 200 and tab.table_bar.count.text() == "200 rows"
    assert plain(tab.histograms.panels["jaccard"].stats.text()) == counts
    assert tab.variants.comparison is not None and tab.variants.comparison.n == 200
    assert "qa_extraction_sample.csv" in tab.top.file_label.text()
    assert np.all(tab.result.status[("output_a", "jaccard")] == 0)
    check_batch_tab(tab, config)
