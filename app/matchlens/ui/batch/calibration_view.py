"""Thresholds against human labels: the numbers at the current threshold, the ROC curve with the
current point, and a "Best threshold" button (core.calibration does the arithmetic)."""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from matchlens.core.calibration import Confusion, Labelled, Sweep
from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import threshold_text
from matchlens.ui.batch.colours import variant_colour
from matchlens.ui.batch.histograms import style_plot
from matchlens.ui.batch.stats import Final

NO_LABELS = ("Map a label column (a human's pass/fail per row) to see precision, recall and F1 "
             "at each threshold, the ROC curve, and a suggested threshold.")


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def confusion_text(c: Confusion) -> str:
    return (f"precision {_num(c.precision)} · recall {_num(c.recall)} · F1 {_num(c.f1)} · "
            f"accuracy {_num(c.accuracy)}<br>TP {c.tp:,} · FP {c.fp:,} · TN {c.tn:,} · "
            f"FN {c.fn:,} <span style='color:gray'>(positive = a human said pass)</span>")


class CalibrationView(QWidget):
    sig_set_threshold = Signal(str, float)  # "Best threshold" pressed: metric_id, value

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Metric", self))
        self.metric = QComboBox(self)
        self.metric.setToolTip("The metric to calibrate against the label column")
        self.metric.currentIndexChanged.connect(self.refresh)
        top.addWidget(self.metric)
        top.addStretch(1)
        self.best_button = QPushButton("Best threshold", self)
        self.best_button.setToolTip("Move the threshold to the one with the highest F1 (the "
                                    "strictest of ties)")
        self.best_button.clicked.connect(self._apply_best)
        top.addWidget(self.best_button)
        layout.addLayout(top)
        self.numbers = QLabel(NO_LABELS, self)
        self.numbers.setWordWrap(True)
        self.numbers.setTextFormat(Qt.TextFormat.RichText)
        self.numbers.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.numbers)
        self.plot = pg.PlotWidget(self)
        style_plot(self.plot)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "false positive rate (human fail, predicted pass)")
        item.setLabel("left", "true positive rate")
        item.setXRange(0, 1, padding=0.02)
        item.setYRange(0, 1, padding=0.02)
        item.setAspectLocked(False)
        mid = self.palette().color(QPalette.ColorRole.Mid)
        item.addItem(pg.PlotDataItem([0, 1], [0, 1], pen=pg.mkPen(mid, style=Qt.PenStyle.DashLine)))
        self.curve = pg.PlotDataItem([], [], pen=pg.mkPen(variant_colour(0, self.palette()),
                                                          width=2))
        item.addItem(self.curve)
        text = self.palette().color(QPalette.ColorRole.Text)
        self.point = pg.ScatterPlotItem(size=11, pen=pg.mkPen(text, width=2), brush=None)
        item.addItem(self.point)
        layout.addWidget(self.plot, 1)
        self._specs: dict[str, MetricSpec] = {}
        self._final: Final | None = None
        self._variant = ""
        self._thresholds: dict[str, float | None] = {}
        self._has_labels = False
        self.refresh()

    def reset(self, specs: dict[str, MetricSpec], variant: str, has_labels: bool,
              thresholds: dict[str, float | None]) -> None:
        self._specs, self._variant, self._has_labels = dict(specs), variant, has_labels
        self._thresholds = dict(thresholds)
        self._final = None
        current = self.metric.currentData()
        self.metric.blockSignals(True)
        self.metric.clear()
        for metric_id, spec in specs.items():
            self.metric.addItem(spec.label, metric_id)
        index = self.metric.findData(current)
        self.metric.setCurrentIndex(max(index, 0))
        self.metric.blockSignals(False)
        self.refresh()

    def set_final(self, final: Final | None) -> None:
        self._final = final
        self.refresh()

    def set_variant(self, variant: str) -> None:
        self._variant = variant
        self.refresh()

    def set_threshold(self, metric_id: str, value: float | None) -> None:
        self._thresholds[metric_id] = value
        if metric_id == self.metric_id():
            self.refresh()

    def metric_id(self) -> str | None:
        return self.metric.currentData()

    def current(self) -> tuple[Labelled, Sweep] | None:
        metric_id = self.metric_id()
        if self._final is None or metric_id is None:
            return None
        key = (self._variant, metric_id)
        if key not in self._final.sweeps:
            return None
        return self._final.labelled[key], self._final.sweeps[key]

    def refresh(self) -> None:
        data = self.current()
        self.best_button.setEnabled(False)
        if data is None:
            self.curve.setData([], [])
            self.point.setData([], [])
            if not self._has_labels:
                self.numbers.setText(NO_LABELS)
            else:
                self.numbers.setText("Calibration appears when every row is scored.")
            return
        labelled, sw = data
        metric_id = self.metric_id()
        spec = self._specs[metric_id]
        threshold = self._thresholds.get(metric_id)
        lines = [f"<b>{html.escape(spec.label)}</b> on {html.escape(self._variant)}: "
                 f"{labelled.n:,} labelled rows ({labelled.positives:,} pass, "
                 f"{labelled.negatives:,} fail); {labelled.excluded_text()}."]
        if threshold is None:
            lines.append("No threshold set: drag the line in Distributions, or press "
                         "Best threshold.")
        else:
            at = sw.at(threshold)
            lines.append(f"At {threshold_text(spec.direction, threshold)}: {confusion_text(at)}")
        fpr, tpr = sw.roc()
        self.curve.setData(fpr, tpr)
        auc = sw.auc()
        if auc is not None:
            lines.append(f"ROC AUC {auc:.3f} (0.5 = no better than chance)")
        best = sw.best()
        if best is not None:
            lines.append(html.escape(best.sentence(spec.direction)))
            self.best_button.setEnabled(True)
        warning = labelled.warning()
        if warning:
            lines.append(f"<b>Note:</b> {html.escape(warning)}")
        self.numbers.setText("<br>".join(lines))
        if threshold is not None and sw.negatives and sw.positives:
            at = sw.at(threshold)
            self.point.setData([at.fp / sw.negatives], [at.tp / sw.positives])
        else:
            self.point.setData([], [])

    def best_threshold(self) -> float | None:
        data = self.current()
        if data is None:
            return None
        best = data[1].best()
        return None if best is None else best.threshold

    def _apply_best(self) -> None:
        value = self.best_threshold()
        metric_id = self.metric_id()
        if value is not None and metric_id is not None:
            self.sig_set_threshold.emit(metric_id, value)
