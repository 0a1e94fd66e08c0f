"""A Hypothesis state machine drives the real main window offscreen: open a good file, a bad
file, a second file; change the mapping; toggle metrics; drag a threshold; Best threshold;
undo/redo; save and restart from disk; compare with a baseline run and filter by a change
count; step through its rows in the compare view. After every step, every verdict drawn
(table colours and tooltips, histogram lines and counts, compare panel badges, the Runs view's
change counts and the rows a count shows, the row bar's change label and the three panes'
texts) must equal what core computes under the config model's thresholds, and a restart must
bring back the same thresholds.

Kept small (a few examples of a few steps on 8-row files) so it runs in well under a minute.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from PySide6.QtCore import Qt

from matchlens.core.dataset_thresholds import beside_path
from matchlens.core.diff.folding import side_folds
from matchlens.core.diff.span_table import table_for
from matchlens.core.metrics.registry import DEFAULT_METRICS, evaluate, get_metric
from matchlens.core.scoring.run_summary import LABELS
from matchlens.core.scoring.run_table import changes
from matchlens.core.scoring.view_order import FILTER_ALL, filter_mask, search_hits
from matchlens.ui.batch.run_joins import Join
from matchlens.ui.batch.runs_view import change_key
from matchlens.ui.config_model import ConfigModel, default_config_path
from matchlens.ui.main_window import MainWindow, make_settings
from tests.ui.batch_support import drag_line, load, small_dataset, wait_idle
from tests.ui.verdict_check import check_batch_tab

METRICS = [*DEFAULT_METRICS, "json_distance"]  # json_distance: every row invalid, amber cells
PAIR = ("The quick brown fox.\nParis is the capital of France.\n",
        "The quick brown dog.\nparis is the capital of  France\n")
# MATCHLENS_STATEFUL_EXAMPLES=50 explores further (minutes); CI runs the few below.
STEPS = settings(max_examples=int(os.environ.get("MATCHLENS_STATEFUL_EXAMPLES", "4")),
                 stateful_step_count=8, deadline=None, suppress_health_check=list(HealthCheck))


class Files:
    """The files every example opens: two good ones (8 rows with labels; 8 rows as JSONL with a
    row missing its output_a) and one that cannot be read."""

    def __init__(self, folder: Path) -> None:
        self.small = small_dataset(folder / "small.csv")
        with self.small.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        for row in rows:
            row["output_b"] = row["output_b"].upper()  # other scores than the first file
        del rows[5]["output_a"]
        self.second = folder / "second.jsonl"
        self.second.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        self.bad = folder / "bad.jsonl"
        self.bad.write_text('{"expected": "a", "output_a": "b"}\n{"expected": \n',
                            encoding="utf-8")


class WindowMachine(RuleBasedStateMachine):
    qtbot = None
    files: Files | None = None

    def __init__(self) -> None:
        super().__init__()
        default_config_path().unlink(missing_ok=True)  # each example starts afresh
        make_settings().remove("batch/metrics")  # (the metrics last scored)
        for path in (self.files.small, self.files.second):  # (thresholds saved for a dataset)
            beside_path(path).unlink(missing_ok=True)
        self.dataset: Path | None = None
        self.reading: dict = {}  # the joins the dataset was opened with
        self.seen: dict[int, dict] = {}  # undo stack index -> settings there
        self.opened_with = None  # the batch result the compare view's open row came from
        self.window = self._open_window()

    # -- the window ----------------------------------------------------------------------------
    def _open_window(self) -> MainWindow:
        window = MainWindow(ConfigModel.from_disk(), restore=False)
        self.qtbot.addWidget(window)
        window.show()
        window.compare_tab.set_texts(*PAIR)
        if self.dataset is not None:  # the new window's tab (self.window is the old one)
            load(self.qtbot, window.batch_tab, self.dataset, **self.reading)
        self._settle()
        return window if not hasattr(self, "window") else window

    @property
    def tab(self):
        return self.window.batch_tab

    @property
    def config(self) -> ConfigModel:
        return self.window.config

    def _settle(self) -> None:
        window = getattr(self, "window", None)
        if window is None:
            return
        self.qtbot.waitUntil(lambda: not window.batch_tab.is_busy()
                             and not window.compare_tab.is_busy(), timeout=30_000)

    def _load(self, path: Path) -> None:
        load(self.qtbot, self.window.batch_tab, path)

    def _rescore(self) -> None:
        with self.qtbot.waitSignal(self.tab.sig_finished, timeout=30_000):
            self.tab.mapping_panel.score_button.click()
        wait_idle(self.qtbot, self.tab)

    def teardown(self) -> None:
        self.window.close()

    # -- rules ---------------------------------------------------------------------------------
    @initialize(which=st.sampled_from(["small", "second", "baseline"]))
    def first_file(self, which: str) -> None:
        """Most of what can go wrong needs a dataset: every example starts with one open (or
        a run compared with a baseline)."""
        if which == "baseline":
            self.compare_with_a_baseline("output_b")
        else:
            self.open_good_file(which)

    @rule(which=st.sampled_from(["small", "second"]))
    def open_good_file(self, which: str) -> None:
        self.dataset = getattr(self.files, which)
        self.reading = {}
        self._load(self.dataset)
        assert self.tab.table is not None and self.tab.table.path == self.dataset

    @rule(which=st.sampled_from(["output_a", "output_b"]))
    def compare_with_a_baseline(self, which: str) -> None:
        """small.csv against second.jsonl's `which` as the baseline, joined by id (as
        Runs ▸ Compare with a baseline run… does; test_batch_runs drives the dialog)."""
        self.dataset = self.files.small
        self.reading = {"id_spec": "id",
                        "joins": (Join("baseline", self.files.second, "id", which),)}
        load(self.qtbot, self.tab, self.dataset, **self.reading)
        assert self.tab.joined is not None and self.tab.joined.baseline == "baseline"

    @precondition(lambda self: self.tab.variants.joined is not None)
    @rule(line=st.integers(0, 20), label=st.sampled_from(LABELS))
    def filter_by_a_change_count(self, line: int, label: str) -> None:
        """A count of the Runs view picked (as a click does; test_batch_runs_view clicks)."""
        runs = self.tab.variants.runs
        if runs.counts.rowCount():
            runs.counts.cellClicked.emit(line % runs.counts.rowCount(), LABELS.index(label))

    @rule(step=st.sampled_from([1, -1, 4]), variant=st.sampled_from(["output_a", "output_b"]))
    def step_rows_in_compare(self, step: int, variant: str) -> None:
        """Open a row of the run compared with its baseline in the compare view (or step on
        from the one open there), as double-click and Alt+Down / Alt+Up do."""
        if self.tab.model.baseline() is None or self.tab.final is None:
            self.compare_with_a_baseline("output_b")  # (upper case: every row changes)
        if variant in self.tab.prepared.actuals and variant != self.tab.model.variant():
            self.tab.table_bar.variant.setCurrentText(variant)
            self.window.rows.leave()
        if self.window.rows.row is None or self.opened_with is not self.tab.result:
            self.window.open_batch_row(0)
        self.opened_with = self.tab.result
        for _ in range(abs(step)):
            self.window.rows.step(1 if step > 0 else -1)
            self.compare_row_is_cores()

    @rule()
    def open_bad_file(self) -> None:
        before = (self.tab.table, self.tab.result, self.tab.model.rowCount())
        self._load(self.files.bad)
        assert "bad.jsonl" in self.tab.message.text()
        assert (self.tab.table, self.tab.result, self.tab.model.rowCount()) == before

    @rule(collapse=st.booleans(), direct=st.booleans())
    def view_a_baseline_row(self, collapse: bool, direct: bool) -> None:
        """Collapse unchanged and Outputs directly in the three panes (toolbar, checkbox), on
        a row of a run compared with its baseline (one is opened first if none is shown)."""
        compare = self.window.compare_tab
        if not compare.baseline_pane.is_shown() or self.opened_with is not self.tab.result:
            self.step_rows_in_compare(1, "output_a")
        if compare.action_collapse.isChecked() != collapse:
            compare.action_collapse.trigger()
        for checked in (not direct, direct):  # both ways each time, ending as drawn
            compare.baseline_pane.direct.setChecked(checked)
            self.compare_row_is_cores()

    @precondition(lambda self: self.tab.table is not None)
    @rule(actuals=st.sampled_from([("output_a",), ("output_b",), ("output_a", "output_b")]))
    def change_mapping(self, actuals: tuple[str, ...]) -> None:
        items = self.tab.mapping_panel.actuals
        for i in range(items.count()):
            item = items.item(i)
            on = item.text() in actuals
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        self._rescore()

    @precondition(lambda self: self.tab.table is not None)
    @rule(metric=st.sampled_from(METRICS))
    def toggle_metric(self, metric: str) -> None:
        chosen = list(self.tab.mapping_panel.mapping().metrics)
        chosen = [m for m in chosen if m != metric] if metric in chosen else [*chosen, metric]
        if chosen:
            self.tab.mapping_panel.set_metrics(chosen)
            self._rescore()

    @precondition(lambda self: self.tab.result is not None)
    @rule(metric=st.sampled_from(METRICS), where=st.floats(0.05, 0.95))
    def drag_threshold(self, metric: str, where: float) -> None:
        panel = self.tab.histograms.panels.get(metric)
        if panel is None or panel._x_range is None:
            return
        self.tab.tabs.setCurrentWidget(self.tab.histograms)
        self.window.tabs.setCurrentWidget(self.tab)
        self.tab.histograms.ensureWidgetVisible(panel)
        lo, hi = panel._x_range
        drag_line(panel, lo + where * (hi - lo))

    @rule(metric=st.sampled_from(METRICS))
    def toggle_threshold_in_compare_panel(self, metric: str) -> None:
        self.window.compare_tab.panels[metric].threshold.enabled_box.click()

    @rule()
    def toggle_case_option(self) -> None:
        box = self.window.compare_tab.panels["levenshtein_similarity"].option_widgets[
            "case_sensitive"]
        box.click()

    @precondition(lambda self: self.tab.result is not None)
    @rule(metric=st.sampled_from(METRICS))
    def best_threshold(self, metric: str) -> None:
        view = self.tab.calibration
        index = view.metric.findData(metric)
        if index < 0:
            return
        view.metric.setCurrentIndex(index)
        if view.best_button.isEnabled():
            value = view.best_threshold()
            assert view.best_button.text().startswith("Best threshold: ")
            view.best_button.click()
            assert self.config.settings(metric).threshold == value

    def _settings(self) -> dict:
        return {m: self.config.settings(m) for m in METRICS}

    @precondition(lambda self: self.tab.result is not None)
    @rule(pick=st.integers(0, 20), search=st.sampled_from(["", "fox", "Paris", "zzz"]))
    def filter_table(self, pick: int, search: str) -> None:
        """Pick an entry of the Show box and type a search, as a user does."""
        bar = self.tab.table_bar
        bar.filter.setCurrentIndex(pick % bar.filter.count())
        bar.search.setText(search)
        self.qtbot.waitUntil(lambda: self.tab.model.view_spec().search == search, timeout=5000)

    @precondition(lambda self: self.tab.result is not None)
    @rule(metric=st.sampled_from(METRICS), where=st.floats(0.0, 1.0))
    def filter_from_a_chart(self, metric: str, where: float) -> None:
        """A histogram bar picked (as a click on it does; test_histogram_bar_filter clicks)."""
        panel = self.tab.histograms.panels.get(metric)
        if panel is None or panel._x_range is None:
            return
        lo, hi = panel._x_range
        bar = panel.bar_at(lo + where * (hi - lo))
        if bar is not None:
            panel.sig_bar.emit(metric, *bar)

    @rule()
    def undo(self) -> None:
        """Back to the settings seen the last time the stack stood one step lower."""
        if self.window.action_undo.isEnabled():
            want = self.seen.get(self.config.undo_stack.index() - 1)
            self.window.action_undo.trigger()
            if want is not None:
                assert self._settings() == want

    @rule()
    def redo(self) -> None:
        if self.window.action_redo.isEnabled():
            want = self.seen.get(self.config.undo_stack.index() + 1)
            self.window.action_redo.trigger()
            if want is not None:
                assert self._settings() == want

    @rule()
    def save_and_restart(self) -> None:
        before = {m: self.config.settings(m) for m in METRICS}
        self.window.close()  # saves and flushes the autosave, as quitting does
        self.window = self._open_window()
        self.seen = {}  # a new window, a new (empty) undo stack
        after = {m: self.config.settings(m) for m in METRICS}
        assert after == before
        assert self.window.notice.isHidden()  # the file it wrote reads back

    # -- what must hold after every step --------------------------------------------------------
    @invariant()
    def show_box_and_table_agree(self) -> None:
        """The rows shown are the rows the Show box and the search name (issue 24, item 2)."""
        self._settle()
        bar, model = self.tab.table_bar, self.tab.model
        data = model.view_data()
        if data is None:
            return
        which = bar.filter.currentData() or FILTER_ALL
        search = bar.search.text()
        # computed here from core's filter and search over the rows in file order
        keep = filter_mask(data, which)
        rows = np.arange(data.rows) if keep is None else np.flatnonzero(keep)
        if search:
            rows = search_hits(data, rows, search)
        assert sorted(model.order().tolist()) == sorted(rows.tolist()), \
            (bar.filter.currentText(), search)
        assert model.rowCount() == len(rows)

    @invariant()
    def change_counts_are_cores(self) -> None:
        """The Runs view's counts, and the rows a count shows, are core's labels under the
        thresholds now (run_table.changes: run_summary.compare_with_baseline)."""
        self._settle()
        tab, runs = self.tab, self.tab.variants.runs
        if tab.variants.joined is None or tab.final is None or not runs.shown_counts:
            return
        by_variant = {c.variant: c for c in changes(tab.joined, tab.result, tab.thresholds())}
        change = by_variant[runs.variant]
        assert runs.shown_counts[""] == dict(zip(
            LABELS, np.bincount(change.codes, minlength=len(LABELS)).tolist(), strict=True))
        for metric_id, metric in change.metrics.items():
            assert runs.shown_counts[metric_id] == metric.counts, metric_id
        which = tab.table_bar.filter.currentData() or FILTER_ALL
        for metric_id in ["", *change.metrics]:
            for label in LABELS:
                if which == change_key(metric_id, label) and \
                        tab.model.variant() == runs.variant:
                    codes = change.codes if metric_id == "" else change.metrics[metric_id].codes
                    shown = set(tab.model.order().tolist())
                    if not tab.table_bar.search.text():
                        assert shown == set(np.flatnonzero(codes == LABELS.index(label)).tolist())

    @invariant()
    def compare_row_is_cores(self) -> None:
        """The row open in the compare view (while the batch run it came from is on screen):
        its three texts are the row's reference, baseline output and output, and the row bar
        says core's change label on the Runs view's metric under the thresholds now."""
        self._settle()
        tab, row = self.tab, self.window.rows.row
        if row is None or self.opened_with is not tab.result or tab.model.baseline() is None:
            return
        compare, prepared = self.window.compare_tab, tab.prepared
        variant, base = tab.model.variant(), tab.model.baseline()
        assert compare.texts() == (prepared.expected[row] or "",
                                   prepared.actuals[variant][row] or "")
        assert compare.baseline_pane.is_shown()
        assert compare.baseline_pane.pane.editor.text() == (prepared.actuals[base][row] or "")
        metric_id = tab.variants.metric.currentData()
        if metric_id not in {job.id for job in tab.result.jobs}:
            metric_id = tab.result.jobs[0].id
        by_variant = {c.variant: c for c in changes(tab.joined, tab.result, tab.thresholds())}
        want = by_variant[variant].metrics[metric_id].labels()[row]
        label = tab.result.job(metric_id).spec.label
        assert compare.row_bar.change_label.text().strip() == f"{want} on {label}"
        # the baseline pane draws core's highlight of the pair it shows, and collapsed it
        # hides core's folds of it (each fold's host line stays, under its placeholder)
        pane = compare.baseline_pane
        first, second = pane.pair()
        direct = pane.direct.isChecked()
        assert (first, second) == ((pane.pane.editor.text(), compare.texts()[1]) if direct
                                   else (compare.texts()[0], pane.pane.editor.text()))
        drawn = pane.pane.decorator.table
        core = table_for(first, second, compare.align_options())
        assert drawn is not None and drawn.hunks.tolist() == core.hunks.tolist()
        side = "expected" if direct else "actual"
        assert pane.pane.decorator.side == side
        folds = side_folds(core, side, pane.pane.editor.text()) \
            if compare.action_collapse.isChecked() else None
        doc = pane.pane.editor.document()
        hidden = [n for n in range(doc.blockCount()) if not doc.findBlockByNumber(n).isVisible()]
        assert hidden == ([] if folds is None else [
            n for (a, b), host in zip(folds.ranges.tolist(), folds.hosts.tolist(), strict=True)
            for n in range(a, b) if n != host])

    @invariant()
    def every_verdict_is_cores(self) -> None:
        self._settle()
        # What the settings were at each place of the undo stack (undo/redo must return there);
        # a push drops every place above it, as QUndoStack drops the steps it could redo.
        index = self.config.undo_stack.index()
        self.seen = {i: s for i, s in self.seen.items() if i < index}
        self.seen[index] = self._settings()
        check_batch_tab(self.tab, self.config)
        compare = self.window.compare_tab
        expected, actual = compare.texts()
        for metric in METRICS:
            panel = compare.panels[metric]
            if panel.result() is None:
                continue
            settings_ = self.config.settings(metric)
            want = evaluate(get_metric(metric), expected, actual, threshold=settings_.threshold,
                            options=settings_.options)
            assert panel.badge.text() == want.label.value, (metric, panel.badge.text(), want)


def run_machine(machine: type[WindowMachine], qtbot, folder: Path) -> None:
    """Run `machine`'s examples with this test's qtbot and files."""
    machine.qtbot = qtbot
    machine.files = Files(folder)
    machine.TestCase.settings = STEPS
    try:
        machine.TestCase().runTest()
    finally:
        machine.qtbot = machine.files = None


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_every_verdict_drawn_is_cores_whatever_the_user_does(qtbot, tmp_path):
    run_machine(WindowMachine, qtbot, tmp_path)


class BaselineMachine(WindowMachine):
    """The same window and invariants, every step on a run compared with its baseline: the
    rules that open another file, change the mapping or the metrics, or restart, are left out
    (plain methods are not rules), so the compare view's three panes (collapse, outputs
    directly, stepping rows) are driven in every example instead of now and then."""

    @initialize(variant=st.sampled_from(["output_a", "output_b"]))
    def first_file(self, variant: str) -> None:  # type: ignore[override]
        """The run compared with its baseline, one of its rows open in the three panes."""
        self.compare_with_a_baseline("output_b")
        self.step_rows_in_compare(1, variant)

    def open_good_file(self, which: str) -> None:  # type: ignore[override]
        raise AssertionError("not a rule of this machine")

    open_bad_file = change_mapping = toggle_metric = filter_from_a_chart = open_good_file
    save_and_restart = open_good_file


def test_baseline_rows_drawn_are_cores_whatever_the_user_does(qtbot, tmp_path):
    """Every step's invariants on the three panes (compare_row_is_cores) are checked on a
    shown baseline row in every example, not only when the rules happen to reach one."""
    run_machine(BaselineMachine, qtbot, tmp_path)
