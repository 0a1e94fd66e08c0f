"""The batch tab's scoring run: start it (plots first, then the worker), the chunks as they
arrive, the end of the run, the text-column ranks after it, and Cancel.

`ScoringRun` owns the run's task, its scoring process and its bookkeeping; it feeds the
progress row, the histograms and the table as chunks arrive, and tells the tab when the run's
session starts (`sig_started`), when every row is scored (`sig_final`) and when the plots of
the finished run are drawn (`sig_finished`). It reads the tab's widgets, never its state.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from matchlens.core.datasets import Table
from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.batch import BatchResult, Chunk, MetricJob, Progress
from matchlens.core.scoring.mapping import ColumnMapping, Prepared
from matchlens.core.scoring.stats import Final
from matchlens.ui.batch import table_model
from matchlens.ui.batch.dataset_scoring import ChildRun, Started, score_dataset
from matchlens.ui.batch.worker import Task

CHUNK_ROWS = 25_000  # one chunk per metric call: cancel answers within a chunk's metric call
# A network metric's chunk is a few API requests: small, so Cancel stops the spending quickly.
NETWORK_CHUNK_ROWS = 1_000


class ScoringRun(QObject):
    """Score a table, show it arrive, cancel it. `tab` is the batch tab whose widgets it feeds
    (progress, histograms, model, variants) and whose config gives thresholds and options."""

    sig_started = Signal(object, object)  # (Prepared, BatchResult): the run's rows, none scored
    sig_final = Signal(object)  # Final: every row is scored
    sig_finished = Signal(str)  # the finished run's plots are drawn: that sentence again
    sig_errored = Signal(object)  # the worker's exception
    sig_done = Signal()  # the run's task ended

    def __init__(self, tab: QWidget) -> None:
        super().__init__(tab)
        self.tab = tab
        self.task: Task | None = None
        self.child = ChildRun()  # the scoring process of the current run (big datasets)
        self.result: BatchResult | None = None  # the run's own view: `done` = chunks seen
        self.requested = False  # Score pressed; the task starts once the plots are built
        self._table: Table | None = None
        self._mapping: ColumnMapping | None = None
        self._prepared: Prepared | None = None  # columns resolved by the network check
        self._network_note = ""  # "All 120 texts are cached: nothing will be sent."
        self._done_sentence = ""  # set when scores are in, said once the plots are drawn
        self._started_at = 0.0
        self._rank_pending = False  # text columns to rank once the run's other work is done
        tab.histograms.sig_drawn.connect(self.on_drawn)

    def is_busy(self) -> bool:
        return self.task is not None or self.requested or bool(self._done_sentence) \
            or self._rank_pending

    def start(self, table: Table, mapping: ColumnMapping, prepared: Prepared | None = None,
              note: str = "") -> None:
        """Score `table` as `mapping` says; `prepared` is what a network check resolved for it,
        `note` a sentence said with the result."""
        self._table, self._mapping, self._prepared = table, mapping, prepared
        self._network_note = note
        self._started_at = time.perf_counter()
        self.tab.progress.start(f"Scoring {table.path.name}…", busy=True)
        self.requested = True
        # The plots are built first, while no worker competes for the GIL.
        self.tab.histograms.prepare([get_metric(m) for m in mapping.metrics],
                                    list(dict.fromkeys(mapping.actuals)), self._start_scoring)

    def _start_scoring(self) -> None:
        if self._table is None or self._mapping is None or not self.requested:
            return
        self.requested = False
        jobs = []
        for metric_id in self._mapping.metrics:
            settings = self.tab.config_model.settings(metric_id)
            jobs.append(MetricJob(get_metric(metric_id), settings.threshold, settings.options))
        self.child = ChildRun()
        network = any(job.spec.network for job in jobs)
        task = Task(score_dataset, self._table, self._mapping, jobs,
                    NETWORK_CHUNK_ROWS if network else CHUNK_ROWS, self.child,
                    prepared=self._prepared, rank_from=table_model.RANK_ROWS, owner=self)
        self._prepared = None
        task.sig_yielded.connect(self.on_item)
        task.sig_returned.connect(self._on_final)
        task.sig_errored.connect(self.sig_errored)
        task.sig_done.connect(self._on_done)
        self.task = task.start()

    def stop(self) -> None:
        """Forget the run: its task, its process, what was still to say or rank."""
        self._rank_pending = False
        self.child.kill()
        self._network_note = ""
        self._done_sentence = ""
        self.requested = False
        self._table = self._mapping = None
        self.tab.histograms.cancel_prepare()
        if self.task is not None:
            self.task.cancel()
            self.task = None

    def cancel(self) -> str:
        """Cancel the scoring in flight: the sentence that says how far it got ("" if none)."""
        if self.task is None:
            return ""
        self.task.cancel()
        self.task = None
        self.child.kill()
        done = self.result.done if self.result is not None else 0
        total = self.result.rows if self.result is not None else 0
        self.tab.model.scoring_finished()
        return (f"Scoring cancelled after {done:,} of {total:,} rows; the table and plots show "
                "the rows scored so far.")

    def forget_result(self) -> None:
        self.result = None

    def _on_done(self) -> None:
        if self.task is not None and not self.task.running:
            self.task = None
        self.sig_done.emit()

    def on_item(self, item: object) -> None:
        if isinstance(item, Chunk):
            self.result.done = max(self.result.done, item.stop)
            self.tab.histograms.add_chunk(item)
            self.tab.model.rows_scored(item.stop)
        elif isinstance(item, Progress):
            self.tab.progress.update(item)
        elif isinstance(item, Started):
            worker_result = item.result
            # Our own view of the result: the worker's `done` runs ahead of the chunks we saw.
            self.result = BatchResult(worker_result.rows, worker_result.variants,
                                      worker_result.jobs, worker_result.scores,
                                      worker_result.status, worker_result.messages, 0,
                                      refs=worker_result.refs)
            self.sig_started.emit(item.prepared, self.result)

    def _on_final(self, final: Final | None) -> None:
        if final is None or self.result is None:
            return
        self.result.done = self.result.rows
        self.sig_final.emit(final)
        seconds = time.perf_counter() - self._started_at
        rows, metrics = self.result.rows, len(self.result.jobs)
        variants = len(self.result.variants)
        what = f"{rows:,} rows × {metrics} metric{'s' if metrics != 1 else ''}"
        if variants > 1:
            what += f" × {variants} variants"
        sentence = f"Scored {what} in {seconds:.1f} s."
        if self._network_note:
            sentence += " " + self._network_note
        self._done_sentence = sentence
        self.tab.progress.finish(sentence)
        if not self.tab.histograms.is_drawing():
            self.on_drawn()

    def on_drawn(self) -> None:
        """The final plots are drawn: now the run is finished (--screenshot waits for this)."""
        if self._done_sentence:
            sentence, self._done_sentence = self._done_sentence, ""
            self.sig_finished.emit(sentence)
            self._rank_pending = True
            self._rank_when_idle()

    def _rank_when_idle(self) -> None:
        """Text-column ranks (instant text sorts) are background work: started once the rest
        of the run (sorting, calibration, the variant test, plots) is done."""
        if not self._rank_pending:
            return
        model = self.tab.model
        if self.child.ranking:  # ranked in the scoring process: only a pipe to read
            self._rank_pending = False
            model.rank_text_columns(self.child.ranks)
            return
        if model.ordering() or self.tab.variants.is_busy() or self.tab.histograms.is_drawing():
            QTimer.singleShot(100, self._rank_when_idle)
            return
        self._rank_pending = False
        model.rank_text_columns()
