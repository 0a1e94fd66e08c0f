"""Before a network metric spends: the key check and cost estimate (off the GUI thread), then,
when there is no key or the texts would cost something, the question to the user.

`NetworkConsent` owns the check task and the open question. It reads the mapping panel (the
mapping asked about, the metrics to keep without the network ones) and tells the batch tab
the answer through signals; the tab starts the run.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from matchlens.core.datasets import Table
from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.embeddings.preflight import Preflight, preflight
from matchlens.ui.batch.mapping_panel import MappingPanel
from matchlens.ui.batch.worker import Task
from matchlens.ui.config_model import ConfigModel


class NetworkConsent(QObject):
    """Check the key and ask before sending texts; `prompt` is the question while it is open."""

    # Score now: (what the check resolved, None if the mapping changed since; a sentence to say
    # with the run's result, e.g. "All 120 texts are cached: nothing will be sent.").
    sig_consented = Signal(object, str)
    sig_asking = Signal()  # the question opens: the run is not working any more
    sig_declined = Signal(str)  # nothing was scored: the sentence that says so
    sig_errored = Signal(object)  # the check's exception
    sig_done = Signal()  # the check's task ended

    def __init__(self, config_model: ConfigModel, mapping_panel: MappingPanel,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self.config_model = config_model
        self.mapping_panel = mapping_panel
        self.window_parent = parent  # the question is modal over it
        self.task: Task | None = None
        self.prompt: QMessageBox | None = None  # the open "no key" / "cost" question
        self._asked: ColumnMapping | None = None  # the mapping the check resolved

    def is_checking(self) -> bool:
        return self.task is not None

    def check(self, table: Table, mapping: ColumnMapping, network: dict[str, dict]) -> None:
        """Check the key and estimate what `network` (metric id -> options) would send."""
        self.cancel()
        self._asked = mapping
        task = Task(preflight, table, mapping, network, owner=self)
        task.sig_returned.connect(self._on_preflight)
        task.sig_errored.connect(self.sig_errored)
        task.sig_done.connect(self._on_done)
        self.task = task.start()

    def cancel(self) -> bool:
        """Stop the check in flight (an open question stays); True if there was one."""
        task, self.task = self.task, None
        if task is None:
            return False
        task.cancel()
        return True

    def _on_done(self) -> None:
        if self.task is not None and not self.task.running:
            self.task = None
        self.sig_done.emit()

    def _on_preflight(self, check: Preflight) -> None:
        labels = ", ".join(get_metric(m).label for m in check.metric_ids)
        if check.no_key is None and not check.needs_consent:
            # said again with the run's result
            note = check.estimate.cached_sentence() if check.estimate is not None else ""
            self.sig_consented.emit(check.prepared, note)
            return
        self.sig_asking.emit()
        self.mapping_panel.set_busy(True)  # the mapping stays as asked while the question is open
        box = QMessageBox(self.window_parent)
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
        box.finished.connect(lambda _code: self._on_answer(box, check))
        self.prompt = box
        box.open()

    def _on_answer(self, box: QMessageBox, check: Preflight) -> None:
        self.prompt = None
        box.deleteLater()
        clicked = box.clickedButton()
        answer = clicked.objectName() if clicked is not None else "cancel"
        self.mapping_panel.set_busy(False)
        if answer == "send":
            same = self.mapping_panel.mapping() == self._asked
            self.sig_consented.emit(check.prepared if same else None, "")
        elif answer == "without":
            local = [m for m in self.mapping_panel.mapping().metrics if m not in check.metric_ids]
            self.mapping_panel.set_metrics(local)
            self.sig_consented.emit(None, "")
        else:
            if answer == "key":
                from matchlens.ui.dialogs.settings import show_settings

                show_settings(self.config_model, self.window_parent)
            self.sig_declined.emit("Nothing was scored and nothing was sent.")
