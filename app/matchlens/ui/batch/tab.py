"""The batch tab: open a dataset, map its columns, score every row off the GUI thread, and look
at the table, the distributions, the calibration against labels and the variant comparison.

Several actual columns (variants) are shown as one table row per dataset row with a variant
selector above the table (the table shows the selected variant's text and scores); the
histograms overlay every variant, and the Variants tab compares two of them row by row.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.batch import BatchResult, Chunk, MetricJob, Progress
from matchlens.core.datasets import Cancelled, Table
from matchlens.core.datasets.readers import OPEN_FILTER, is_dataset_name
from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import DEFAULT_METRICS, all_metrics, get_metric
from matchlens.core.results import threshold_text
from matchlens.embeddings.redact import scrub
from matchlens.ui.batch import table_model
from matchlens.ui.batch.bars import ProgressRow, TableBar, TopBar
from matchlens.ui.batch.calibration_view import CalibrationView
from matchlens.ui.batch.export import save_plot_png, with_thresholds, write_table
from matchlens.ui.batch.histograms import HistogramGrid
from matchlens.ui.batch.labelling import BatchLabelling
from matchlens.ui.batch.mapping_panel import MappingPanel
from matchlens.ui.batch.network_check import Preflight, preflight
from matchlens.ui.batch.session import Mapping, Prepared, guess_mapping
from matchlens.ui.batch.stats import Final
from matchlens.ui.batch.table_model import BatchTableModel
from matchlens.ui.batch.table_view import BatchTableView
from matchlens.ui.batch.variants_view import VariantsView
from matchlens.ui.batch.view_order import ROW_FAIL, ROW_PASS, ROW_PROBLEM, failing_mask
from matchlens.ui.batch.worker import (
    ChildRun,
    Started,
    Task,
    read_dataset,
    release,
    score_dataset,
    stop_tasks,
)
from matchlens.ui.config_model import ConfigModel, ask_thresholds_path
from matchlens.ui.normalise_box import normalise_every_text_metric, text_metric_normalisations

CHUNK_ROWS = 25_000  # one chunk per metric call: cancel answers within a chunk's metric call
# A network metric's chunk is a few API requests: small, so Cancel stops the spending quickly.
NETWORK_CHUNK_ROWS = 1_000
_VERDICT_WORDS = {ROW_PASS: "pass", ROW_FAIL: "fail", ROW_PROBLEM: "no score"}


def for_the_window(sentence: str) -> str:
    """The reader's advice names the CLI's --encoding; here the choice is the Encoding box."""
    sentence = re.sub(r"--encoding (\S+) was given", r"Encoding \1 was chosen", sentence)
    return sentence.replace("pass --encoding ", "choose Encoding ▸ ").replace(
        "given with --encoding", "chosen under Encoding")


class BatchTab(QWidget):
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
    def load(self, path: Path, expected: str | None = None, actuals: list[str] | None = None,
             label: str | None = None, score: bool = True, encoding: str | None = None) -> None:
        """Read `path` off the GUI thread (in `encoding`, else UTF-8 or what its BOM says), map
        its columns (given names win over guesses), and score it unless `score` is False. Ends
        with sig_finished whatever happens."""
        path = Path(path)
        self._path = path
        self._loading_encoding = encoding or ""
        self.top.set_encoding(encoding)
        self._stop_work()
        # The dataset on screen stays, whole, until the new file is read: a file that fails
        # to open never leaves the table of one file under the plots of another.
        self._score_after_read = score
        self._score_on_load = score  # kept for a reload in another encoding
        self._pending = (expected, actuals, label)
        self.top.set_file(path, "reading…")
        self.progress.start(f"Reading {path.name}…", busy=True)
        self._say("")
        task = Task(read_dataset, path, encoding=encoding or None, owner=self)
        task.sig_returned.connect(self._on_table)
        task.sig_errored.connect(self._on_error)
        task.sig_done.connect(self._on_task_done)
        self._read_task = task.start()
        self.mapping_panel.set_busy(True)

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

    # -- reading ---------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open a dataset", "", OPEN_FILTER)
        if name:
            self.load(Path(name))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if _dropped_dataset(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        name = _dropped_dataset(event)
        if name is not None:
            event.acceptProposedAction()
            self.load(Path(name))

    def _reload_as(self, encoding: str) -> None:
        """The user chose another encoding: read the same file again with it (once: an
        editable combo box reports one Return through several signals)."""
        shown = self.table is not None and self.table.path == self._path
        current = self.table.encoding if shown else None  # not that of a file still shown
        if self._read_task is not None and encoding == self._loading_encoding:
            return
        if self._read_task is None and current is not None and encoding == current:
            return
        if self._path is not None:
            expected, actuals, label = self._pending
            self.load(self._path, expected, actuals, label, score=self._score_on_load,
                      encoding=encoding)

    def _on_table(self, table: Table) -> None:
        self._clear_session()
        self.table = table
        expected, actuals, label = self._pending
        self.mapping = guess_mapping(table, self._default_metrics(), expected, actuals, label)
        self.mapping_panel.set_columns(table.columns, self.mapping)
        self._show_table_file(table)
        self.sig_status.emit(f"Loaded {table.path.name}: {len(table):,} rows.")
        if self._score_after_read:
            self._score_after_read = False
            self.score()
        else:
            self._show_idle()
            self.sig_finished.emit()

    def _show_table_file(self, table: Table) -> None:
        self.top.set_file(table.path, f"{len(table):,} rows · {table.kind.upper()} · "
                          f"{table.encoding}")

    def _default_metrics(self) -> tuple[str, ...]:
        """The CLI's default: the five text metrics, plus local metrics the config gates."""
        config = self.config_model.config()
        chosen = list(DEFAULT_METRICS)
        for spec in all_metrics():
            if not spec.network and config.thresholds.get(spec.id) is not None \
                    and spec.id not in chosen:
                chosen.append(spec.id)
        return tuple(chosen)

    # -- scoring ---------------------------------------------------------------------------------
    def score(self, consented: bool = False, prepared: Prepared | None = None) -> None:
        """Score the loaded table with the mapping panel's choices (off the GUI thread).

        A network metric first gets a key check and a cost estimate the user agrees to, unless
        `consented` says that was done; `prepared` is what that check resolved for `mapping`.
        """
        if self.table is None:
            self._say("Open a dataset first (Open…, drop a file here, or File ▸ Open dataset).")
            return
        mapping = self.mapping_panel.mapping()
        problems = mapping.problems()
        if problems:
            self._fail(" ".join(problems))
            return
        self._stop_work()
        network = {m: dict(self.config_model.settings(m).options) for m in mapping.metrics
                   if get_metric(m).network}
        if network and not consented:
            self._check_network(mapping, network)
            return
        self.mapping = mapping
        self._prepared_run = prepared
        self._started_at = time.perf_counter()
        self.progress.start(f"Scoring {self.table.path.name}…", busy=True)
        self._say("")
        self.mapping_panel.set_busy(True)
        self._scoring_requested = True
        # The plots are built first, while no worker competes for the GIL.
        self.histograms.prepare([get_metric(m) for m in mapping.metrics],
                                list(dict.fromkeys(mapping.actuals)), self._start_scoring)

    def _start_scoring(self) -> None:
        if self.table is None or self.mapping is None or not self._scoring_requested:
            return
        self._scoring_requested = False
        jobs = []
        for metric_id in self.mapping.metrics:
            settings = self.config_model.settings(metric_id)
            jobs.append(MetricJob(get_metric(metric_id), settings.threshold, settings.options))
        self._child = ChildRun()
        network = any(job.spec.network for job in jobs)
        task = Task(score_dataset, self.table, self.mapping, jobs,
                    NETWORK_CHUNK_ROWS if network else CHUNK_ROWS, self._child,
                    prepared=self._prepared_run, rank_from=table_model.RANK_ROWS, owner=self)
        self._prepared_run = None
        task.sig_yielded.connect(self._on_item)
        task.sig_returned.connect(self._on_final)
        task.sig_errored.connect(self._on_error)
        task.sig_done.connect(self._on_task_done)
        self._score_task = task.start()

    # -- network metrics: a key, and the user's consent to what it costs -------------------------
    def _check_network(self, mapping: Mapping, network: dict[str, dict]) -> None:
        self._asked_mapping = mapping
        labels = ", ".join(get_metric(m).label for m in network)
        self.progress.start(f"Checking the API key and what {labels} would send…", busy=True)
        self._say("")
        self.mapping_panel.set_busy(True)
        task = Task(preflight, self.table, mapping, network, owner=self)
        task.sig_returned.connect(self._on_preflight)
        task.sig_errored.connect(self._on_error)
        task.sig_done.connect(self._on_task_done)
        self._check_task = task.start()

    def _on_preflight(self, check: Preflight) -> None:
        labels = ", ".join(get_metric(m).label for m in check.metric_ids)
        if check.no_key is None and not check.needs_consent:
            self.score(consented=True, prepared=check.prepared)
            if check.estimate is not None:  # said again with the run's result
                self._network_note = check.estimate.cached_sentence()
            return
        self._show_idle()
        self.mapping_panel.set_busy(True)  # the mapping stays as asked while the question is open
        box = QMessageBox(self)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        if check.no_key is not None:
            box.setIcon(QMessageBox.Icon.Warning)
            box.setWindowTitle("No API key")
            box.setText(f"{labels} calls an embeddings API, and there is no key to call it with.")
            box.setInformativeText(check.no_key + ".")
            box.addButton("Set API key…", QMessageBox.ButtonRole.ActionRole).setObjectName("key")
            if len(check.metric_ids) < len(self.mapping_panel.mapping().metrics):
                box.addButton(f"Score without {labels}",
                              QMessageBox.ButtonRole.AcceptRole).setObjectName("without")
        else:
            box.setIcon(QMessageBox.Icon.Question)
            box.setWindowTitle("Send texts to the embeddings API?")
            box.setText(check.estimate.sentence())
            box.setInformativeText("Embeddings are cached on disk: a second run of these texts "
                                   "sends nothing.")
            box.addButton("Send and score", QMessageBox.ButtonRole.AcceptRole).setObjectName("send")
        box.addButton(QMessageBox.StandardButton.Cancel).setObjectName("cancel")
        box.finished.connect(lambda _code: self._on_network_answer(box, check))
        self.network_prompt = box
        box.open()

    def _on_network_answer(self, box: QMessageBox, check: Preflight) -> None:
        self.network_prompt = None
        box.deleteLater()
        clicked = box.clickedButton()
        answer = clicked.objectName() if clicked is not None else "cancel"
        self.mapping_panel.set_busy(False)
        if answer == "send":
            same = self.mapping_panel.mapping() == self._asked_mapping
            self.score(consented=True, prepared=check.prepared if same else None)
        elif answer == "without":
            local = [m for m in self.mapping_panel.mapping().metrics if m not in check.metric_ids]
            self.mapping_panel.set_metrics(local)
            self.score(consented=True)
        else:
            if answer == "key":
                from matchlens.ui.dialogs.settings import show_settings

                show_settings(self.config_model, self)
            self._after_stop("Nothing was scored and nothing was sent.")

    def cancel(self) -> None:
        """Stop reading or scoring; the rows scored so far stay in the table and plots."""
        if self._scoring_requested:
            self._stop_work()
            self._after_stop("Scoring cancelled.")
        if self._read_task is not None:
            self._read_task.cancel()
            self._read_task = None
            if self.table is not None:  # the previous dataset is still the one shown
                self._show_table_file(self.table)
            self._after_stop("Reading cancelled.")
        if self._check_task is not None:
            self._check_task.cancel()
            self._check_task = None
            self._after_stop("Scoring cancelled before anything was sent.")
        if self._score_task is not None:
            self._score_task.cancel()
            self._score_task = None
            self._child.kill()
            done = self.result.done if self.result is not None else 0
            total = self.result.rows if self.result is not None else 0
            self.model.scoring_finished()
            self._after_stop(f"Scoring cancelled after {done:,} of {total:,} rows; the table "
                             "and plots show the rows scored so far.")

    def _after_stop(self, sentence: str) -> None:
        self._show_idle()
        self._say(sentence)
        self.sig_status.emit(sentence)
        self.sig_finished.emit()

    def _on_item(self, item: object) -> None:
        if isinstance(item, Chunk):
            self.result.done = max(self.result.done, item.stop)
            self.histograms.add_chunk(item)
            self.model.rows_scored(item.stop)
        elif isinstance(item, Progress):
            self.progress.update(item)
        elif isinstance(item, Started):
            self._start_session(item.prepared, item.result)

    def _start_session(self, prepared: Prepared, worker_result: BatchResult) -> None:
        self.prepared = prepared
        # Our own view of the result: the worker's `done` runs ahead of the chunks we have seen.
        self.result = BatchResult(worker_result.rows, worker_result.variants, worker_result.jobs,
                                  worker_result.scores, worker_result.status,
                                  worker_result.messages, 0, refs=worker_result.refs)
        specs = {job.id: job.spec for job in self.result.jobs}
        thresholds = self._thresholds()
        self.model.set_session(prepared, self.result, specs, thresholds)
        self.table_bar.set_session(self.result.variants, specs)
        self.histograms.reset(self.result, thresholds)
        # Calibration always has labels to show: a person can label rows without a column.
        self.calibration.reset(specs, self.result.variants[0], True, thresholds)
        self.labelling.start(prepared, self.result.variants)
        self.variants.reset(self.result, specs)
        self.view.fit_columns()
        if prepared.notes:
            self._say(" ".join(prepared.notes[:3]))

    def _on_final(self, final: Final | None) -> None:
        if final is None or self.result is None:
            return
        self.final = final
        self.result.done = self.result.rows
        self.histograms.finish(final)
        self.model.scoring_finished()
        self.calibration.set_final(final)
        self.labelling.live.set_final(final)  # the sweeps again, with the labels of now
        self.variants.set_complete()
        seconds = time.perf_counter() - self._started_at
        rows, metrics = self.result.rows, len(self.result.jobs)
        variants = len(self.result.variants)
        what = f"{rows:,} rows × {metrics} metric{'s' if metrics != 1 else ''}"
        if variants > 1:
            what += f" × {variants} variants"
        self._done_sentence = f"Scored {what} in {seconds:.1f} s."
        if self._network_note:
            self._done_sentence += " " + self._network_note
        self._show_idle()
        self.progress.finish(self._done_sentence)
        if not self.histograms.is_drawing():
            self._on_drawn()

    def _on_drawn(self) -> None:
        """The final plots are drawn: now the run is finished (--screenshot waits for this)."""
        if self._done_sentence:
            sentence, self._done_sentence = self._done_sentence, ""
            self.sig_status.emit(sentence)
            self.sig_finished.emit()
            self._rank_pending = True
            self._rank_when_idle()

    def _rank_when_idle(self) -> None:
        """Text-column ranks (instant text sorts) are background work: started once the rest
        of the run (sorting, calibration, the variant test, plots) is done."""
        if not self._rank_pending:
            return
        if self._child.ranking:  # ranked in the scoring process: only a pipe to read
            self._rank_pending = False
            self.model.rank_text_columns(self._child.ranks)
            return
        if self.model.ordering() or self.variants.is_busy() or self.histograms.is_drawing():
            QTimer.singleShot(100, self._rank_when_idle)
            return
        self._rank_pending = False
        self.model.rank_text_columns()

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

    # -- exports ---------------------------------------------------------------------------------
    def export_table_dialog(self) -> None:
        if self.result is None or self.table is None:
            self._say("Score a dataset first.")
            return
        name, _ = QFileDialog.getSaveFileName(
            self, "Export the scored table", str(self.table.path.with_suffix("")) + ".scored.csv",
            "CSV (*.csv);;JSON Lines (*.jsonl)")
        if name:
            self.export_table(Path(name))

    def export_table(self, path: Path) -> None:
        """Write the scored table (current thresholds) and its sidecar, off the GUI thread."""
        if self.result is None or self.table is None or self.mapping is None:
            return
        result = with_thresholds(self.result, self._thresholds())
        expected = (f"literal:{self.mapping.expected}" if self.mapping.expected_literal
                    else self.mapping.expected)
        partial = self.result.done < self.result.rows
        task = Task(write_table, path, self.table, result, self.config_model.config(), expected,
                    owner=self)
        task.sig_returned.connect(lambda sidecar: self._said(
            f"Wrote {path} ({'partial: ' if partial else ''}{self.result.rows:,} rows) and "
            f"{Path(sidecar).name} (the thresholds and options that made it)."))
        task.sig_errored.connect(lambda err: self._fail(str(err)))
        task.sig_done.connect(self._on_task_done)
        self._export_task = task.start()

    def export_thresholds_dialog(self) -> None:
        path = ask_thresholds_path(self)
        if path is not None:
            self.export_thresholds(path)

    def export_thresholds(self, path: Path) -> bool:
        saved, sentence = self.config_model.save_thresholds(path)
        (self._said if saved else self._fail)(sentence)
        return saved

    def _plot_names(self) -> list[tuple[str, str]]:
        """(key, menu text) of every plot that can be exported now."""
        out = [(f"hist:{m}", f"{p.spec.label} histogram") for m, p in self.histograms.panels.items()]
        if self.calibration.current() is not None:
            out.append(("roc", "ROC curve"))
        if self.variants.comparison is not None:
            out.append(("delta", "B − A difference"))
        return out

    def plot_item(self, key: str):
        if key.startswith("hist:"):
            return self.histograms.panels[key[5:]].plot.getPlotItem()
        return (self.calibration.plot if key == "roc" else self.variants.plot).getPlotItem()

    def export_plot_dialog(self, key: str) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Save the plot as PNG",
                                              f"{key.replace(':', '-')}.png", "PNG (*.png)")
        if name:
            self.export_plot(key, Path(name))

    def export_plot(self, key: str, path: Path) -> bool:
        try:
            save_plot_png(self.plot_item(key), path)
        except MatchLensError as err:
            self._fail(str(err))
            return False
        self._said(f"Saved the plot to {path}.")
        return True

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


def _dropped_dataset(event) -> str | None:
    """The local file being dragged when it is in a format the tab reads (the Open dialog's
    formats: CSV, TSV, JSON Lines, JSON, Parquet, spreadsheets, or no extension)."""
    urls = event.mimeData().urls()
    if urls and urls[0].isLocalFile() and is_dataset_name(urls[0].toLocalFile()):
        return urls[0].toLocalFile()
    return None
