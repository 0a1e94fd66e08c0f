"""The Calibration tab follows the labels: every change re-sweeps the variant it touched.

Up to `SYNC_ROWS` rows the sweep is done at once (a few ms for every metric); above, in a
worker, the newest change winning (a person labels faster than a million-row sort). The sweeps
replace the scoring run's in `Final`, so the ROC detail and the per-metric summary read the
same numbers; the summary's "Apply this threshold" goes through the config model (one undoable
step on the window's undo stack).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QTimer

from matchlens.core.labels.calibration_report import MetricReport, report
from matchlens.core.scoring.stats import Final, label_sweeps
from matchlens.ui.batch.worker import Task, TaskSlot

SYNC_ROWS = 50_000


def _sweep_job(result, codes, cancel):  # noqa: ANN001 - worker body
    return label_sweeps(result, codes, cancel)


class LiveCalibration(QObject):
    def __init__(self, tab, session, summary) -> None:  # noqa: ANN001 - BatchTab & co.
        super().__init__(tab)
        self.tab, self.session, self.summary = tab, session, summary
        self.final: Final | None = None
        self._slot = TaskSlot()
        self._generation = 0
        summary.sig_selected.connect(self._select_metric)
        summary.sig_apply.connect(self._apply)
        tab.calibration.metric.currentIndexChanged.connect(lambda _i: self.show())
        tab.config_model.sig_changed.connect(lambda _m: self.show())
        # One redraw for a burst of changes (undo of many steps, a variant switch).
        self._show_timer = QTimer(self, singleShot=True, interval=0)
        self._show_timer.timeout.connect(self._show_now)

    def set_final(self, final: Final | None) -> None:
        self.final = final
        self.labels_changed("")

    def clear(self) -> None:
        self.final = None
        self._slot.cancel()
        self.summary.set_reports([], "", None)

    def is_busy(self) -> bool:
        return self._slot.busy

    def labels_changed(self, variant: str) -> None:
        result, labels = self.tab.result, self.session.labels
        if self.final is None or result is None or labels is None:
            self.show()
            return
        variants = [variant] if variant else list(result.variants)
        codes = {v: np.array(labels.codes(v)) for v in variants}  # a copy: the worker's own
        self._generation += 1
        if result.rows <= SYNC_ROWS:
            self._take(self._generation, label_sweeps(result, codes))
            return
        generation = self._generation
        task = Task(_sweep_job, result, codes, owner=self.tab)
        task.sig_returned.connect(lambda out: self._take(generation, out))
        self._slot.start(task)

    def _take(self, generation: int, out) -> None:  # noqa: ANN001 - (labelled, sweeps)
        if generation != self._generation or self.final is None or out is None:
            return  # a newer change is on its way
        kept, sweeps = out
        self.final.labelled.update(kept)
        self.final.sweeps.update(sweeps)
        self.tab.calibration.set_final(self.final)
        self.show()

    def reports(self) -> list[MetricReport]:
        """Every metric of the variant shown, at the config model's thresholds now."""
        result, final = self.tab.result, self.final
        if result is None or final is None:
            return []
        variant = self.tab.model.variant()
        out = []
        for job in result.jobs:
            key = (variant, job.id)
            if key in final.sweeps:
                threshold = self.tab.config_model.settings(job.id).threshold
                out.append(report(job.spec, final.labelled[key], final.sweeps[key], threshold))
        return out

    def show(self) -> None:
        self._show_timer.start()

    def _show_now(self) -> None:
        labels = self.session.labels
        variant = self.tab.model.variant()
        counter = ""
        if labels is not None and variant in labels.variants:
            counter = labels.counter_text(variant)
            if self.tab.result is not None and len(self.tab.result.variants) > 1:
                counter += f" ({variant})"
        if self.final is None and labels is not None:
            counter += " · the numbers appear once every row is scored"
        self.summary.set_reports(self.reports(), counter, self.tab.calibration.metric_id())

    def _select_metric(self, metric_id: str) -> None:
        combo = self.tab.calibration.metric
        index = combo.findData(metric_id)
        if index >= 0 and index != combo.currentIndex():
            combo.setCurrentIndex(index)

    def _apply(self, metric_id: str, value: float) -> None:
        self.tab.config_model.set_threshold(metric_id, value)
        spec = next(j.spec for j in self.tab.result.jobs if j.id == metric_id)
        from matchlens.core.results import threshold_text

        self.tab.said(f"{spec.label} threshold set to {threshold_text(spec.direction, value)} "
                       "from your labels (Ctrl+Z undoes it).")
