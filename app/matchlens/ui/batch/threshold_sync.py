"""The batch tab's thresholds: the config model is their one source of truth, and the
histograms, the calibration tab and the table follow it.

`ThresholdSync` turns a dragged histogram line (one undo step a drag), the calibration's best
threshold and the mapping's Normalise box into config-model changes, and every config change
into the views of the scored session: while a line is dragged only the visible verdicts
repaint; the table's filter and sort follow on release.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from matchlens.core.metrics.registry import get_metric
from matchlens.core.results import threshold_text
from matchlens.ui.normalise_box import normalise_every_text_metric, text_metric_normalisations


class ThresholdSync(QObject):
    """Thresholds and normalisation between the batch tab `tab`'s views and its config model."""

    def __init__(self, tab: QWidget) -> None:
        super().__init__(tab)
        self.tab = tab
        self._drag_serial = 0  # one undo step per drag of a histogram line
        self._dragging: str | None = None
        tab.histograms.sig_moving.connect(self._on_threshold_moving)
        tab.histograms.sig_committed.connect(self._on_threshold_committed)
        tab.calibration.sig_set_threshold.connect(self._on_best_threshold)
        tab.mapping_panel.sig_normalise.connect(self._normalise_all)
        tab.config_model.sig_changed.connect(self._on_config_changed)
        self.show_normalisation()

    def _on_threshold_moving(self, metric_id: str, value: float) -> None:
        """A line is being dragged: the config model follows it live (every view draws from
        there), all of one drag merged into one undo step."""
        self._dragging = metric_id
        self.tab.config_model.set_threshold(metric_id, value,
                                            merge_key=("drag", metric_id, self._drag_serial))

    def _on_threshold_committed(self, metric_id: str, value: float) -> None:
        self.tab.config_model.set_threshold(metric_id, value,
                                            merge_key=("drag", metric_id, self._drag_serial))
        self._drag_serial += 1
        self._dragging = None
        # the filter and sort follow on release
        self.tab.model.set_thresholds(self.tab.thresholds())

    def _on_best_threshold(self, metric_id: str, value: float) -> None:
        spec = get_metric(metric_id)
        self.tab.config_model.set_threshold(
            metric_id, value, text=f"Best threshold: {spec.label} "
                                   f"{threshold_text(spec.direction, value)}")

    def _normalise_all(self, value: str) -> None:
        """The mapping's Normalise box: one normalisation for every text metric, one undo."""
        error = normalise_every_text_metric(self.tab.config_model, value)
        if error:
            self.tab.say(error, error=True)
            self.show_normalisation()

    def show_normalisation(self) -> None:
        self.tab.mapping_panel.show_normalisation(
            text_metric_normalisations(self.tab.config_model))

    def _on_config_changed(self, metric_id: str) -> None:
        self.show_normalisation()
        tab = self.tab
        if tab.result is None:
            return
        thresholds = tab.thresholds()
        for job_id, value in thresholds.items():
            if metric_id in ("", job_id):
                tab.histograms.set_threshold(job_id, value)
                tab.calibration.set_threshold(job_id, value)
        if self._dragging is not None and metric_id == self._dragging:
            # While dragging only the visible verdicts repaint; filter and sort wait for the drop.
            tab.model.preview_threshold(metric_id, thresholds.get(metric_id))
        else:
            tab.model.set_thresholds(thresholds)
        stale = [job.spec.label for job in tab.result.jobs
                 if tab.config_model.settings(job.id).options != dict(job.options)]
        if stale:
            tab.say(f"The options of {', '.join(stale)} changed since scoring; press Score "
                    "to apply them.")
