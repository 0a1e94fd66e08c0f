"""The batch tab: open a dataset, map its columns, score every row off the GUI thread, and look
at the table, the distributions, the calibration against labels and the variant comparison.

Several actual columns (variants) are shown as one table row per dataset row with a variant
selector above the table (the table shows the selected variant's text and scores); the
histograms overlay every variant, and the Variants tab compares two of them row by row.

Reading a file (loading.py), the scoring run (scoring_run.py) and the exports (export_actions.py)
are mixins of this class; here are the layout, what the window asks of the tab, the thresholds
and the run's bookkeeping.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.datasets import Cancelled, Table
from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import get_metric
from matchlens.core.results import threshold_text
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import Mapping, Prepared
from matchlens.core.scoring.stats import Final
from matchlens.core.scoring.view_order import ROW_FAIL, ROW_PASS, ROW_PROBLEM, failing_mask
from matchlens.embeddings.redact import scrub
from matchlens.ui.batch.bars import ProgressRow, TableBar, TopBar
from matchlens.ui.batch.calibration_view import CalibrationView
from matchlens.ui.batch.export_actions import ExportActions
from matchlens.ui.batch.histograms import HistogramGrid
from matchlens.ui.batch.labelling import BatchLabelling
from matchlens.ui.batch.loading import DatasetLoading, for_the_window
from matchlens.ui.batch.mapping_panel import MappingPanel
from matchlens.ui.batch.scoring_run import ScoringRun
from matchlens.ui.batch.table_model import BatchTableModel
from matchlens.ui.batch.table_view import BatchTableView
from matchlens.ui.batch.variants_view import VariantsView
from matchlens.ui.batch.worker import ChildRun, Task, release, stop_tasks
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.normalise_box import normalise_every_text_metric, text_metric_normalisations

_VERDICT_WORDS = {ROW_PASS: "pass", ROW_FAIL: "fail", ROW_PROBLEM: "no score"}


class BatchTab(DatasetLoading, ScoringRun, ExportActions, QWidget):
    sig_open_row = Signal(int)  # row index double-clicked in the table
    sig_status = Signal(str)  # a sentence for the status bar
    sig_finished = Signal()  # scoring and plots done (used by --screenshot)

    def __init__(self, config_model: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.config_model = config_model
        self.setAcceptDrops(True)
        self.table: Table | None = None
        self.prepared: Prepared | None = None
        self.result: BatchResult | None = None
        self.final: Final | None = None
        self.mapping: Mapping | None = None
        self._read_task: Task | None = None
        self._score_task: Task | None = None
        self._child = ChildRun()  # the scoring process of the current run (big datasets)
        self._export_task: Task | None = None
        self._check_task: Task | None = None  # the key check and cost estimate before a network run
        self._network_note = ""  # "All 120 texts are cached: nothing will be sent."
        self._path: Path | None = None  # the file last asked for (also when it failed to load)
        self._score_on_load = True
        self._rank_pending = False  # text columns to rank once the run's other work is done
        self._loading_encoding = ""
        self._prepared_run: Prepared | None = None  # columns resolved by the network check
        self._asked_mapping: Mapping | None = None  # the mapping the network check resolved
        self.network_prompt: QMessageBox | None = None  # the open "no key" / "cost" question
        self._score_after_read = False
        self._scoring_requested = False  # Score pressed; the task starts once plots are built
        self._done_sentence = ""  # set when scores are in, said once the plots are drawn
        self._pending: tuple = (None, None, None)
        self._started_at = 0.0
        self._drag_serial = 0  # one undo step per drag of a histogram line
        self._dragging: str | None = None
        self._build()
        config_model.sig_changed.connect(self._on_config_changed)

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.top = TopBar(self)
        self.top.open_button.clicked.connect(self.open_dialog)
        self.top.sig_export_table.connect(self.export_table_dialog)
        self.top.sig_export_thresholds.connect(self.export_thresholds_dialog)
        self.top.sig_export_plot.connect(self.export_plot_dialog)
        self.top.sig_encoding.connect(self._reload_as)
        self.top.plot_names = self._plot_names
        layout.addWidget(self.top)
        self.progress = ProgressRow(self)
        self.progress.cancel_button.clicked.connect(self.cancel)
        layout.addWidget(self.progress)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.hide()
        layout.addWidget(self.message)

        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.mapping_panel = MappingPanel(split)
        self.mapping_panel.sig_score.connect(self.score)
        self.mapping_panel.sig_normalise.connect(self._normalise_all)
        self._show_normalisation()
        right = QSplitter(Qt.Orientation.Vertical, split)
        table_box = QWidget(right)
        box = QVBoxLayout(table_box)
        box.setContentsMargins(0, 0, 0, 0)
        self.model = BatchTableModel(self)
        self.model.sig_error.connect(self._fail)
        self.table_bar = TableBar(self.model, table_box)
        self.table_bar.variant.currentTextChanged.connect(self._on_variant)
        box.addWidget(self.table_bar)
        self.view = BatchTableView(self.model, table_box)
        self.view.doubleClicked.connect(
            lambda index: self.sig_open_row.emit(self.model.source_row(index.row())))
        box.addWidget(self.view)
        self.tabs = QTabWidget(right)
        self.histograms = HistogramGrid(self.tabs)
        self.histograms.sig_moving.connect(self._on_threshold_moving)
        self.histograms.sig_drawn.connect(self._on_drawn)
        self.histograms.sig_committed.connect(self._on_threshold_committed)
        self.calibration = CalibrationView(self.tabs)
        self.calibration.sig_set_threshold.connect(self._on_best_threshold)
        self.variants = VariantsView(self.tabs)
        self.tabs.addTab(self.histograms, "Distributions")
        self.tabs.addTab(self.calibration, "Calibration")
        self.tabs.addTab(self.variants, "Variants")
        right.addWidget(table_box)
        right.addWidget(self.tabs)
        # Half and half: at 1280x720 a 2:3 split left the table five rows.
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        split.addWidget(self.mapping_panel)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([260, 1000])
        layout.addWidget(split, 1)
        self.labelling = BatchLabelling(self)  # the human column, Label actions, live calibration
        self._show_idle()

    # -- the agreed interface --------------------------------------------------------------------
    def pair_for_row(self, row: int) -> tuple[str, str, str] | None:
        if self.prepared is None or not 0 <= row < self.prepared.rows:
            return None
        variant = self.model.variant()
        expected = self.prepared.expected[row]
        actual = self.prepared.actuals[variant][row]
        parts = [f"row {row + 1} of {self.prepared.rows}"]
        if self.prepared.ids is not None and self.prepared.ids[row]:
            parts[0] += f" (id {self.prepared.ids[row]})"
        parts.append(variant)
        verdict = _VERDICT_WORDS.get(self.model.row_code(row))
        if verdict:
            parts.append(verdict)
        parts.extend(self.labelling.row_words(row))
        if expected is None or actual is None:
            parts.append("no expected value" if expected is None else "no actual value")
        return expected or "", actual or "", " · ".join(parts)

    def references_for_row(self, row: int) -> tuple[list[str], int, str] | None:
        """With several references a row: (the references, the one to open, why that one).

        The one to open is the reference that won the first metric (in the mapping's order)
        that scored the row; the compare view steps through the others."""
        prepared, result = self.prepared, self.result
        if prepared is None or prepared.references is None or not 0 <= row < prepared.rows:
            return None
        refs = prepared.references[row]
        if not refs:
            return None
        variant = self.model.variant()
        for job in (result.jobs if result is not None else []):
            won = result.refs.get((variant, job.id))
            if won is not None and won[row] >= 0:
                return refs, int(won[row]), f"best for {job.spec.label}"
        return refs, 0, "the first"

    def neighbour_row(self, row: int, step: int, failing_only: bool = False) -> int | None:
        """The next (step > 0) or previous row in the table's current sort/filter order."""
        order = self.model.order()
        if order.size == 0 or step == 0:
            return None
        hits = np.flatnonzero(order == row)
        if hits.size:
            pos = int(hits[0])
            candidates = np.arange(pos + 1, order.size) if step > 0 else np.arange(pos - 1, -1, -1)
        else:  # the row is filtered out: continue from its place in file order
            candidates = np.flatnonzero(order > row) if step > 0 else np.flatnonzero(order < row)[::-1]
        if failing_only:
            data = self.model.view_data()
            if data is None:
                return None
            failing = failing_mask(data)
            candidates = candidates[failing[order[candidates]]]
        skip = abs(step) - 1 if not failing_only else 0
        if candidates.size <= skip:
            return None
        return int(order[candidates[skip]])

    def focus_search(self) -> None:
        """Edit ▸ Find (Ctrl+F) on this tab: the table's text search."""
        self.table_bar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.table_bar.search.selectAll()

    def is_busy(self) -> bool:
        return any(t is not None for t in (self._read_task, self._score_task, self._export_task,
                                           self._check_task)) \
            or self._scoring_requested or bool(self._done_sentence) or self.model.is_busy() \
            or self._rank_pending or self.labelling.live.is_busy() \
            or self.variants.is_busy() or self.histograms.is_drawing()

    def _on_error(self, error: object) -> None:
        if isinstance(error, Cancelled):
            return
        if isinstance(error, MatchLensError):
            self._fail(for_the_window(str(error)))
        else:  # a bug, not bad input: still a sentence, never a silent hang
            self._fail(f"Unexpected error while working on the dataset: "
                       f"{type(error).__name__}: {error}")

    def _fail(self, sentence: str) -> None:
        self._score_after_read = False
        if self._path is not None and (self.table is None or self.table.path != self._path):
            if self.table is None:  # "reading…" is no longer true
                self.top.set_file(self._path, "not loaded (see below)")
            else:  # the previous dataset is still the one shown: say so, and name it again
                self._show_table_file(self.table)
                sentence = (f"{sentence} {self.table.path.name} is still shown, as it was.")
        self._show_idle()
        self.progress.finish("")
        self._say(sentence, error=True)
        self.sig_status.emit(sentence)
        self.sig_finished.emit()

    def _on_task_done(self) -> None:
        for name in ("_read_task", "_score_task", "_export_task", "_check_task"):
            task = getattr(self, name)
            if task is not None and not task.running:
                setattr(self, name, None)
        if self._read_task is None and self._score_task is None and self._check_task is None \
                and self.network_prompt is None:
            self.mapping_panel.set_busy(False)
            self.mapping_panel.score_button.setEnabled(self.table is not None)

    # -- thresholds ------------------------------------------------------------------------------
    def _thresholds(self) -> dict[str, float | None]:
        if self.result is None:
            return {}
        return {job.id: self.config_model.settings(job.id).threshold for job in self.result.jobs}

    def _on_threshold_moving(self, metric_id: str, value: float) -> None:
        """A line is being dragged: the config model follows it live (every view draws from
        there), all of one drag merged into one undo step."""
        self._dragging = metric_id
        self.config_model.set_threshold(metric_id, value,
                                        merge_key=("drag", metric_id, self._drag_serial))

    def _on_threshold_committed(self, metric_id: str, value: float) -> None:
        self.config_model.set_threshold(metric_id, value,
                                        merge_key=("drag", metric_id, self._drag_serial))
        self._drag_serial += 1
        self._dragging = None
        self.model.set_thresholds(self._thresholds())  # the filter and sort follow on release

    def _on_best_threshold(self, metric_id: str, value: float) -> None:
        spec = get_metric(metric_id)
        self.config_model.set_threshold(
            metric_id, value, text=f"Best threshold: {spec.label} "
                                   f"{threshold_text(spec.direction, value)}")

    def _normalise_all(self, value: str) -> None:
        """The mapping's Normalise box: one normalisation for every text metric, one undo."""
        error = normalise_every_text_metric(self.config_model, value)
        if error:
            self._say(error, error=True)
            self._show_normalisation()

    def _show_normalisation(self) -> None:
        self.mapping_panel.show_normalisation(text_metric_normalisations(self.config_model))

    def _on_config_changed(self, metric_id: str) -> None:
        self._show_normalisation()
        if self.result is None:
            return
        thresholds = self._thresholds()
        for job_id, value in thresholds.items():
            if metric_id in ("", job_id):
                self.histograms.set_threshold(job_id, value)
                self.calibration.set_threshold(job_id, value)
        if self._dragging is not None and metric_id == self._dragging:
            # While dragging only the visible verdicts repaint; filter and sort wait for the drop.
            self.model.preview_threshold(metric_id, thresholds.get(metric_id))
        else:
            self.model.set_thresholds(thresholds)
        stale = [job.spec.label for job in self.result.jobs
                 if self.config_model.settings(job.id).options != dict(job.options)]
        if stale:
            self._say(f"The options of {', '.join(stale)} changed since scoring; press Score "
                      "to apply them.")

    def _on_variant(self, variant: str) -> None:
        if variant and self.result is not None and variant in self.result.variants:
            self.model.set_variant(variant)
            self.calibration.set_variant(variant)

    # -- helpers ---------------------------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        text = scrub(text)  # a key never reaches the screen, whatever a sentence quotes
        self.message.setVisible(bool(text))
        self.message.setText(text)
        self.message.setProperty("error", error)
        self.message.setStyleSheet("font-weight: 600;" if error else "")

    def _said(self, sentence: str) -> None:
        self._say(sentence)
        self.sig_status.emit(sentence)

    def _show_idle(self) -> None:
        self.progress.idle()
        self.mapping_panel.set_busy(False)
        self.mapping_panel.score_button.setEnabled(self.table is not None)
        self.top.set_exports_enabled(self.result is not None)

    def _stop_work(self) -> None:
        self._rank_pending = False
        self._child.kill()
        self._network_note = ""
        self._done_sentence = ""
        self._scoring_requested = False
        self.histograms.cancel_prepare()
        for name in ("_read_task", "_score_task", "_check_task"):
            task = getattr(self, name)
            if task is not None:
                task.cancel()
                setattr(self, name, None)

    def _clear_session(self) -> None:
        """Forget the current dataset; its big lists are emptied on a worker, in slices."""
        old = []
        if self.prepared is not None:
            old += [self.prepared.expected, *self.prepared.actuals.values()]
            if self.prepared.ids is not None:
                old.append(self.prepared.ids)
        if self.table is not None:
            old += [self.table.rows, self.table.lines]
        self.model.clear()
        self.labelling.stop()
        self.table = self.prepared = self.result = self.final = self.mapping = None
        self.mapping_panel.set_columns([], None)
        if old:
            Task(release, old, owner=self).start()

    def shutdown(self) -> None:
        """Stop every thread this tab started (idempotent); the main window calls it on close."""
        self._stop_work()
        stop_tasks(self)
