"""The batch tab's scoring run: start it (plots first, then the worker), the key check and cost
consent a network metric needs first, the chunks as they arrive, the end of the run, and Cancel.

A mixin of BatchTab: it works on the tab's own state (`_score_task`, `_child`, `result`).
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.batch import BatchResult, Chunk, MetricJob, Progress
from matchlens.core.scoring.mapping import Mapping, Prepared
from matchlens.core.scoring.stats import Final
from matchlens.embeddings.preflight import Preflight, preflight
from matchlens.ui.batch import table_model
from matchlens.ui.batch.worker import ChildRun, Started, Task, score_dataset

CHUNK_ROWS = 25_000  # one chunk per metric call: cancel answers within a chunk's metric call
# A network metric's chunk is a few API requests: small, so Cancel stops the spending quickly.
NETWORK_CHUNK_ROWS = 1_000


class ScoringRun:
    """Score the loaded table, ask before a network metric spends, show it arrive, cancel it."""

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
