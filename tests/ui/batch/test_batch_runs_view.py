"""The Runs view (ui/batch/runs_view.py, the Variants view grown): the counts drawn are the
labels `score --references --baseline` computes (core.scoring.run_scoring), under the
thresholds in effect; a clicked count filters the table to exactly those rows; the delta column
sorts; a clicked scatter point selects its row."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from matchlens.core.config import Config
from matchlens.core.datasets import read_table
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_scoring import RunFiles, score_runs
from matchlens.core.scoring.run_summary import LABELS
from matchlens.core.scoring.view_order import FILTER_ALL
from matchlens.ui.batch.run_joins import Join
from matchlens.ui.config_model import ConfigModel
from tests.ui.batch_support import load, make_tab

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
WORDS = ["Paris", "Rome", "Oslo", "Bern", "Lima", "Quito", "the Nile", "Mount Everest"]


def _files(tmp_path, seed=3):
    """40 questions; today answers 36 of them, yesterday 38 (2 only today, 4 only
    yesterday), in shuffled orders, with exact, lower-cased and wrong answers."""
    rng = random.Random(seed)
    ids = [f"q{i}" for i in range(40)]
    answers = {q: rng.choice(WORDS) for q in ids}

    def noisy(text, right):
        roll = rng.random()
        return text if roll < right else text.lower() if roll < right + 0.15 else \
            rng.choice(WORDS) + ("." if rng.random() < 0.3 else "")

    def write(name, rows):
        path = tmp_path / name
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return path

    today_ids, base_ids = ids[:36], ids[2:]
    rng.shuffle(today_ids)
    rng.shuffle(base_ids)
    return (write("today.jsonl", [{"id": q, "result": noisy(answers[q], 0.7)} for q in today_ids]),
            write("answers.jsonl", [{"id": q, "answer": answers[q]} for q in ids]),
            write("yesterday.jsonl", [{"id": q, "result": noisy(answers[q], 0.5)}
                                      for q in base_ids]))


def _core(today, refs, base, config):
    jobs = plan.make_plan(config, None).jobs
    return score_runs(RunFiles(read_table(today), "id", read_table(refs), read_table(base),
                               "$.result"), ColumnMapping("$.answer", ("$.result",)), jobs)


def _open(qtbot, tmp_path, config_model):
    today, refs, base = _files(tmp_path)
    tab = make_tab(qtbot, config_model)
    load(qtbot, tab, today, actuals=["$.result"], id_spec="id",
         joins=(Join("reference", refs, None, "$.answer"),
                Join("baseline", base, None, "$.result")))
    qtbot.waitUntil(lambda: bool(tab.variants.runs.shown_counts), timeout=20_000)
    return tab, (today, refs, base)


def _click_count(qtbot, runs, metric_id, label):
    table = runs.counts
    row = next(r for r in range(table.rowCount())
               if table.verticalHeaderItem(r).data(Qt.ItemDataRole.UserRole) == metric_id)
    rect = table.visualItemRect(table.item(row, LABELS.index(label)))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _shown_ids(tab):
    return {tab.prepared.ids[i] for i in tab.model.order().tolist()}


def test_the_counts_are_cores_and_each_click_filters_the_table_to_its_rows(qtbot, tmp_path):
    config = ConfigModel()
    tab, files = _open(qtbot, tmp_path, config)
    assert tab.tabs.tabText(tab.tabs.indexOf(tab.variants)) == "Runs"
    assert tab.tabs.currentWidget() is tab.variants  # a run with a baseline opens on it
    core = _core(*files, Config())
    (change,) = core.changes
    runs = tab.variants.runs
    assert runs.shown_counts[""] == dict(zip(LABELS, np.bincount(change.codes, minlength=7)
                                             .tolist(), strict=True))
    for metric_id, metric in change.metrics.items():
        assert runs.shown_counts[metric_id] == metric.counts
    # the paired test and the mean delta are in view, as the summary words them
    assert tab.variants.sentence.text() == \
        change.metrics["exact_match"].comparison.sentence("Exact match")

    ids = np.array(core.joined.ids)
    for metric_id, label in (("", "regressed"), ("exact_match", "improved"),
                             ("levenshtein_distance", "worse"), ("", "new"), ("", "gone")):
        codes = change.codes if metric_id == "" else change.metrics[metric_id].codes
        _click_count(qtbot, runs, metric_id, label)
        qtbot.waitUntil(lambda: not tab.model.is_busy(), timeout=10_000)
        expected = set(ids[codes == LABELS.index(label)].tolist())
        assert expected, f"the fixture has no {label} row on {metric_id or 'the row'}"
        assert _shown_ids(tab) == expected
        assert label.capitalize() in tab.table_bar.filter.currentText()  # the Show box says
    tab.table_bar.clear_filter.click()  # one click clears it
    assert tab.table_bar.filter.currentData() == FILTER_ALL and len(_shown_ids(tab)) == 40


def test_the_counts_follow_a_threshold_as_core_counts_it(qtbot, tmp_path):
    config = ConfigModel()
    tab, files = _open(qtbot, tmp_path, config)
    runs = tab.variants.runs
    before = dict(runs.shown_counts["levenshtein_similarity"])
    config.set_threshold("levenshtein_similarity", 0.2)
    qtbot.waitUntil(lambda: runs.shown_counts["levenshtein_similarity"] != before,
                    timeout=10_000)
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=10_000)
    moved = Config()
    moved.thresholds["levenshtein_similarity"] = 0.2
    (change,) = _core(*files, moved).changes
    assert runs.shown_counts["levenshtein_similarity"] == \
        change.metrics["levenshtein_similarity"].counts
    assert runs.shown_counts[""] == dict(zip(LABELS, np.bincount(change.codes, minlength=7)
                                             .tolist(), strict=True))


def test_a_count_filter_follows_a_moved_threshold(qtbot, tmp_path):
    config = ConfigModel()
    tab, files = _open(qtbot, tmp_path, config)
    _click_count(qtbot, tab.variants.runs, "levenshtein_similarity", "improved")
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=10_000)
    before = _shown_ids(tab)
    config.set_threshold("levenshtein_similarity", 0.2)
    qtbot.waitUntil(lambda: _shown_ids(tab) != before, timeout=10_000)
    moved = Config()
    moved.thresholds["levenshtein_similarity"] = 0.2
    core = _core(*files, moved)
    (change,) = core.changes
    codes = change.metrics["levenshtein_similarity"].codes
    assert _shown_ids(tab) == set(np.array(core.joined.ids)[codes == LABELS.index("improved")]
                                  .tolist())


def test_the_delta_column_sorts_and_a_scatter_point_selects_its_row(qtbot, tmp_path):
    tab, files = _open(qtbot, tmp_path, ConfigModel())
    model = tab.model
    keys = [model.column_key(c) for c in range(model.columnCount())]
    column = keys.index("delta:levenshtein_similarity")
    tab.view.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: not model.is_busy(), timeout=10_000)
    (change,) = _core(*files, Config()).changes
    delta = change.metrics["levenshtein_similarity"].delta
    shown = [delta[i] for i in model.order().tolist()]
    scored = [d for d in shown if not np.isnan(d)]
    assert scored == sorted(scored, reverse=True) and np.isnan(shown[-1])  # none last
    text = model.data(model.index(0, column))
    assert text == f"{max(scored):+.3f}".replace("-", "−")

    runs = tab.variants.runs
    tab.variants.metric.setCurrentIndex(tab.variants.metric.findData("levenshtein_similarity"))
    qtbot.waitUntil(lambda: runs.metric == "levenshtein_similarity" and not tab.is_busy(),
                    timeout=10_000)
    xs, ys = runs.points.getData()
    rows = [int(p.data()) for p in runs.points.points()]
    pick = int(np.argmin(ys - xs))  # the row that lost most: a lone point
    plot = runs.scatter_plot
    scene = runs.points.mapToScene(QPointF(float(xs[pick]), float(ys[pick])))
    where = plot.mapFromScene(scene)
    with qtbot.waitSignal(runs.sig_select_row, timeout=5_000) as picked:
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(where))
    row = picked.args[0]
    assert delta[row] == pytest.approx(ys[rows.index(row)] - xs[rows.index(row)])
    assert model.source_row(tab.view.currentIndex().row()) == row


@pytest.mark.parametrize("seed", [3, 11])
def test_the_windows_rows_and_labels_are_those_matchlens_score_baseline_writes(
        qtbot, tmp_path, capsys, seed):
    """The window's joined rows (ids, order), its per-row labels and its counts equal the
    `change` and `<metric>_change` columns `matchlens score --baseline` writes for the same
    files: shuffled orders, ids only today has (new), only yesterday (gone), and references
    no output answers."""
    from matchlens.main import main
    from matchlens.ui.batch.runs_view import label_codes
    from tests.cli.conftest import read_csv_file

    today, refs, base = _files(tmp_path, seed)
    out = tmp_path / "scored.csv"
    code = main([str(a) for a in ("score", today, "--id", "id", "--actual", "$.result",
                                  "--references", refs, "--expected", "$.answer",
                                  "--baseline", base, "--baseline-actual", "$.result",
                                  "-o", out)])
    capsys.readouterr()
    assert code in (0, 1), code  # 1: some row fails a threshold
    header, cells = read_csv_file(out)
    written = [dict(zip(header, row, strict=True)) for row in cells]
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"], id_spec="id",
         joins=(Join("reference", refs, None, "$.answer"),
                Join("baseline", base, None, "$.result")))
    qtbot.waitUntil(lambda: bool(tab.variants.runs.shown_counts), timeout=20_000)
    assert tab.prepared.ids == [row["id"] for row in written]  # the same rows, same order
    thresholds = {job.id: job.threshold for job in tab.result.jobs}
    rows, metrics = label_codes(tab.joined, tab.result, "$.result", thresholds, lambda: False)
    assert [LABELS[c] for c in rows] == [row["change"] for row in written]
    for metric_id, codes in metrics.items():
        column = [row[f"{metric_id}_change"] for row in written]
        assert [LABELS[c] for c in codes] == column, metric_id
        counts = {label: column.count(label) for label in LABELS}
        assert tab.variants.runs.shown_counts[metric_id] == counts, metric_id
    assert tab.variants.runs.shown_counts[""] == {
        label: [row["change"] for row in written].count(label) for label in LABELS}
