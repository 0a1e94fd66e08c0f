"""The batch tab: open a dataset, map its columns, score every row off the GUI thread, and look
at the table, the distributions, the calibration against labels and the variant comparison
(several actual columns are variants: one table row per dataset row, a variant selector above).

The tab holds the session on screen (table, prepared values, result, final statistics,
mapping), what the window asks of it and the thresholds. Its widgets are laid out by
`tab_layout.TabLayout` and told of a session by `session_views`; work is done by helpers that
own their own state: reading (`loading.DatasetReader`), the network check
(`network_consent.NetworkConsent`), the scoring run (`scoring_run.ScoringRun`), the exports
(`export_actions.BatchExports`) and the labels (`labelling.BatchLabelling`), each telling the
tab what happened through its `sig_*` signals.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QMessageBox,
    QWidget,
)

from matchlens.core.datasets import Cancelled, Table
from matchlens.core.datasets.readers import OPEN_FILTER
from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import ColumnMapping, Prepared
from matchlens.core.scoring.run_table import JoinedRun
from matchlens.core.scoring.stats import Final
from matchlens.core.scoring.view_order import (
    bin_filter,
)
from matchlens.embeddings.redact import scrub
from matchlens.ui.batch.export_actions import BatchExports
from matchlens.ui.batch.fields_view import show_wrong_rows
from matchlens.ui.batch.labelling import BatchLabelling
from matchlens.ui.batch.loading import (
    DatasetReader,
    ReadRequest,
    dropped_dataset,
    for_the_window,
    opening_metrics,
    reading_options,
)
from matchlens.ui.batch.network_consent import NetworkConsent
from matchlens.ui.batch.read_choices import RowsChoices
from matchlens.ui.batch.row_queries import neighbour_row, pair_for_row, references_for_row
from matchlens.ui.batch.run_actions import RunsActions
from matchlens.ui.batch.run_joins import opening_mapping, runs_order
from matchlens.ui.batch.scoring_run import ScoringRun
from matchlens.ui.batch.session_views import big_lists, finish_views, start_views
from matchlens.ui.batch.tab_layout import TabLayout
from matchlens.ui.batch.threshold_sync import ThresholdSync
from matchlens.ui.batch.worker import Task, release, stop_tasks
from matchlens.ui.config_model import ConfigModel


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
        self.mapping: ColumnMapping | None = None
        self.joined: JoinedRun | None = None  # the files joined by id into `table`, if any
        self.memory: QSettings | None = None  # the window's settings: the metrics last scored
        self._build()
        self.reader = DatasetReader(self)
        self.reader.sig_read.connect(self._on_table)
        self.consent = NetworkConsent(config_model, self.mapping_panel, self)
        self.consent.sig_consented.connect(
            lambda prepared, note: self.score(consented=True, prepared=prepared, note=note))
        self.consent.sig_asking.connect(self._show_idle)
        self.consent.sig_declined.connect(self._after_stop)
        self.run = ScoringRun(self)
        self.run.sig_started.connect(self._start_session)
        self.run.sig_final.connect(self._on_final)
        self.run.sig_finished.connect(self._on_run_finished)
        self.exports = BatchExports(self)
        self.exports.sig_done.connect(self._on_task_done)
        self.top.sig_export_table.connect(self.exports.export_table_dialog)
        self.top.sig_export_report.connect(self.exports.export_report_dialog)
        self.top.sig_export_thresholds.connect(self.exports.export_thresholds_dialog)
        self.top.sig_export_plot.connect(self.exports.export_plot_dialog)
        self.top.plot_names = self.exports.plot_names
        for helper in (self.reader, self.consent, self.run):
            helper.sig_errored.connect(self._on_error)
            helper.sig_done.connect(self._on_task_done)
        self.threshold_sync = ThresholdSync(self)
        self.runs_actions = RunsActions(self)  # the Runs menu, files joined by id, Runs view

    @property
    def network_prompt(self) -> QMessageBox | None:
        """The open "no key" / "cost" question before a network run, if any."""
        return self.consent.prompt

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        self.layout_keeper = TabLayout(self)  # names the widgets on the tab
        self.top.open_button.clicked.connect(self.open_dialog)
        self.top.sig_encoding.connect(self._reload_as)
        self.top.sig_rows_from.connect(self._reload_from)
        self.progress.cancel_button.clicked.connect(self.cancel)
        self.mapping_panel.sig_score.connect(self.score)
        self.model.sig_error.connect(self.fail)
        self.table_bar.variant.currentTextChanged.connect(self._on_variant)
        self.view.doubleClicked.connect(
            lambda index: self.sig_open_row.emit(self.model.source_row(index.row())))
        self.histograms.sig_bar.connect(self.show_bar)
        self.fields.sig_show_rows.connect(lambda *shown: show_wrong_rows(self, *shown))
        self.labelling = BatchLabelling(self)  # the human column, Label actions, live calibration
        self.choices = RowsChoices(self.top, self)  # the Rows from / Sheet chooser
        self._show_idle()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.layout_keeper.first_show()

    def show_mapping(self, on: bool) -> None:
        """View ▸ Batch mapping panel: fold the column mapping away (the table gets its room)."""
        self.mapping_panel.setVisible(on)

    def layout_state(self) -> dict[str, object]:
        """The splitters' sizes (kept in QSettings)."""
        return self.layout_keeper.state()

    def restore_layout(self, state: dict[str, object]) -> None:
        self.layout_keeper.restore(state)

    # -- the agreed interface --------------------------------------------------------------------
    def pair_for_row(self, row: int) -> tuple[str, str, str] | None:
        return pair_for_row(self.prepared, self.model, row, self.labelling.row_words(row)
                            if self.prepared is not None else [])

    def references_for_row(self, row: int) -> tuple[list[str], int, str] | None:
        return references_for_row(self.prepared, self.result, self.model.variant(), row)

    def neighbour_row(self, row: int, step: int, failing_only: bool = False) -> int | None:
        return neighbour_row(self.model, row, step, failing_only)

    def show_bar(self, metric_id: str, index: int, lo: float, hi: float, last: bool) -> None:
        """A histogram bar was clicked: the table shows the rows it counts (selected variant)."""
        if self.result is None or metric_id not in {job.id for job in self.result.jobs}:
            return
        self.table_bar.show_bar(get_metric(metric_id).label, lo, hi, last,
                                bin_filter(metric_id, index, lo, hi, last))

    def focus_search(self) -> None:
        """Edit ▸ Find (Ctrl+F) on this tab: the table's text search."""
        self.table_bar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.table_bar.search.selectAll()

    def is_busy(self) -> bool:
        return self.reader.is_reading() or self.consent.is_checking() or self.run.is_busy() \
            or self.exports.is_busy() or self.model.is_busy() or self.labelling.live.is_busy() \
            or self.variants.is_busy() or self.histograms.is_drawing() \
            or self.choices.is_busy()

    # -- reading a dataset -----------------------------------------------------------------------
    def load(self, path: Path, expected: str | None = None, actuals: list[str] | None = None,
             label: str | None = None, score: bool = True, encoding: str | None = None,
             **reading: str | None) -> None:
        """Read `path` off the GUI thread (in `encoding`, else UTF-8 or what its BOM says;
        `reading`: records, sheet, format, delimiter as `score` takes them), map its columns
        (given names win over guesses), and score it unless `score` is False. Ends with
        sig_finished whatever happens."""
        path = Path(path)
        self.top.set_encoding(encoding)
        self._stop_work()
        # The dataset on screen stays, whole, until the new file is read: a file that fails
        # to open never leaves the table of one file under the plots of another.
        self.top.set_file(path, "reading…")
        joined = ", ".join(join.path.name for join in reading.get("joins") or ())
        self.progress.start(f"Reading {path.name}{f' and joining {joined}' if joined else ''}…",
                            busy=True)
        self.say("")
        self.reader.read(ReadRequest(path, encoding or "", expected, actuals, label, score,
                                     **reading))
        self.choices.look(self.reader.request)
        self.mapping_panel.set_busy(True)

    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open a dataset", "", OPEN_FILTER)
        if name:
            self.load(Path(name))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if dropped_dataset(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        name = dropped_dataset(event)
        if name is not None:
            event.acceptProposedAction()
            self.load(Path(name))

    def _reload_as(self, encoding: str) -> None:
        """The user chose another encoding: read the same file again with it."""
        self._read_again(self.reader.reload_request(encoding, self.table))

    def _reload_from(self, kind: str, name: str) -> None:
        """The user chose a sheet or an array of objects: read the same file from there."""
        self._read_again(self.reader.request_from(kind, name))

    def _read_again(self, request: ReadRequest | None) -> None:
        if request is not None:
            self.load(request.path, request.expected, request.actuals, request.label,
                      score=request.score, encoding=request.encoding, **reading_options(request))

    def _on_table(self, table: Table, request: ReadRequest, score: bool) -> None:
        self._clear_session()
        self.table, self.joined = table, self.reader.joined
        problem = self.config_model.use_dataset(table.path)  # this dataset's own thresholds
        if problem:
            self.sig_status.emit(problem)
        self.mapping = opening_mapping(table, self.joined, self.chosen_metrics(),
                                       request.expected, request.actuals, request.label)
        self.mapping_panel.set_columns(table.columns, self.mapping)
        self._show_table_file(table)
        self.sig_status.emit(f"Loaded {table.path.name}: {len(table):,} rows.")
        if score:
            self.score()
        else:
            self._show_idle()
            self.sig_finished.emit()

    def chosen_metrics(self) -> tuple[str, ...]:
        """The metrics a dataset opens with (loading.opening_metrics)."""
        return opening_metrics(self.memory, self.config_model.config())

    def _show_table_file(self, table: Table) -> None:
        self.top.set_file(table.path, f"{len(table):,} rows · {table.kind.upper()} · "
                          f"{table.encoding}")

    # -- scoring ---------------------------------------------------------------------------------
    def score(self, consented: bool = False, prepared: Prepared | None = None,
              note: str = "") -> None:
        """Score the loaded table with the mapping panel's choices (off the GUI thread).

        A network metric first gets a key check and a cost estimate the user agrees to, unless
        `consented` says that was done; `prepared` is what that check resolved for the mapping,
        `note` what it found to say with the result.
        """
        if self.table is None:
            self.say("Open a dataset first (Open…, drop a file here, or File ▸ Open dataset).")
            return
        mapping = runs_order(self.mapping_panel.mapping(), self.joined)
        problems = mapping.problems()
        if problems:
            self.fail(" ".join(problems))
            return
        self._stop_work()
        network = {m: dict(self.config_model.settings(m).options) for m in mapping.metrics
                   if get_metric(m).network}
        self.say("")
        self.mapping_panel.set_busy(True)
        if network and not consented:
            labels = ", ".join(get_metric(m).label for m in network)
            self.progress.start(f"Checking the API key and what {labels} would send…", busy=True)
            self.consent.check(self.table, mapping, network)
            return
        self.mapping = mapping
        if self.memory is not None:  # the next dataset opens with these metrics ticked
            self.memory.setValue("batch/metrics", ",".join(mapping.metrics))
        self.run.start(self.table, mapping, prepared, note)

    def cancel(self) -> None:
        """Stop reading or scoring; the rows scored so far stay in the table and plots."""
        if self.run.requested:
            self._stop_work()
            self._after_stop("Scoring cancelled.")
        if self.reader.cancel():
            if self.table is not None:  # the previous dataset is still the one shown
                self._show_table_file(self.table)
            self._after_stop("Reading cancelled.")
        if self.consent.cancel():
            self._after_stop("Scoring cancelled before anything was sent.")
        sentence = self.run.cancel()
        if sentence:
            self._after_stop(sentence)

    def _after_stop(self, sentence: str) -> None:
        self._show_idle()
        self.say(sentence)
        self.sig_status.emit(sentence)
        self.sig_finished.emit()

    def _start_session(self, prepared: Prepared, result: BatchResult) -> None:
        self.prepared, self.result = prepared, result
        start_views(self, prepared, result)

    def _on_final(self, final: Final) -> None:
        self.final = final
        finish_views(self, final)
        self._show_idle()

    def _on_run_finished(self, sentence: str) -> None:
        """The final plots are drawn: now the run is finished (--screenshot waits for this)."""
        self.sig_status.emit(sentence)
        self.sig_finished.emit()

    def _on_error(self, error: object) -> None:
        if isinstance(error, Cancelled):
            return
        if isinstance(error, MatchLensError):
            self.fail(for_the_window(str(error)))
        else:  # a bug, not bad input: still a sentence, never a silent hang
            self.fail(f"Unexpected error while working on the dataset: "
                       f"{type(error).__name__}: {error}")

    def fail(self, sentence: str) -> None:
        """Say what went wrong (in red, and on the status bar); the run, if any, is over."""
        self.reader.keep_unscored()
        path = self.reader.path
        if path is not None and (self.table is None or self.table.path != path):
            if self.table is None:  # "reading…" is no longer true
                self.top.set_file(path, "not loaded (see below)")
            else:  # the previous dataset is still the one shown: say so, and name it again
                self._show_table_file(self.table)
                sentence = (f"{sentence} {self.table.path.name} is still shown, as it was.")
        self._show_idle()
        self.progress.finish("")
        self.say(sentence, error=True)
        self.sig_status.emit(sentence)
        self.sig_finished.emit()

    def _on_task_done(self) -> None:
        if not (self.reader.is_reading() or self.run.task is not None
                or self.consent.is_checking() or self.consent.prompt is not None):
            self.mapping_panel.set_busy(False)
            self.mapping_panel.score_button.setEnabled(self.table is not None)

    # -- thresholds ------------------------------------------------------------------------------
    def thresholds(self) -> dict[str, float | None]:
        """Each scored metric's threshold now (None: no threshold)."""
        if self.result is None:
            return {}
        return {job.id: self.config_model.settings(job.id).threshold for job in self.result.jobs}

    def _on_variant(self, variant: str) -> None:
        if variant and self.result is not None and variant in self.result.variants:
            self.model.set_variant(variant)
            self.calibration.set_variant(variant)

    # -- helpers ---------------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """The sentence under the bars ("" hides it)."""
        text = scrub(text)  # a key never reaches the screen, whatever a sentence quotes
        self.message.setVisible(bool(text))
        self.message.setText(text)
        self.message.setProperty("error", error)
        self.message.setStyleSheet("font-weight: 600;" if error else "")

    def said(self, sentence: str) -> None:
        """A sentence under the bars and on the status bar."""
        self.say(sentence)
        self.sig_status.emit(sentence)

    def _show_idle(self) -> None:
        self.progress.idle()
        self.mapping_panel.set_busy(False)
        self.mapping_panel.score_button.setEnabled(self.table is not None)
        self.top.set_exports_enabled(self.result is not None)

    def _stop_work(self) -> None:
        self.run.stop()
        self.reader.cancel()
        self.consent.cancel()

    def _clear_session(self) -> None:
        """Forget the current dataset; its big lists are emptied on a worker, in slices."""
        old = big_lists(self.prepared, self.table)
        self.model.clear()
        self.labelling.stop()
        self.table = self.prepared = self.result = self.final = self.mapping = None
        self.joined = None
        self.run.forget_result()
        self.mapping_panel.set_columns([], None)
        if old:
            Task(release, old, owner=self).start()

    def shutdown(self) -> None:
        """Stop every thread this tab started (idempotent); the main window calls it on close."""
        self._stop_work()
        stop_tasks(self)
