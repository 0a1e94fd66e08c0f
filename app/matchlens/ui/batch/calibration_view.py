"""Thresholds against human labels: the numbers at the current threshold, the ROC curve with the
current point, and a "Best threshold" button (core.calibration does the arithmetic)."""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from matchlens.core.labels.calibration import Confusion, Labelled, Sweep
from matchlens.core.labels.calibration_report import rate_text
from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import threshold_text
from matchlens.core.scoring.stats import Final
from matchlens.ui.batch.colours import variant_colour
from matchlens.ui.batch.export import Figure, Swatch
from matchlens.ui.batch.plot_style import decimals, style_plot

MARKER_SIZE = 11  # px, the current point's circle
MARKER_PEN = 2
ROC_PADDING = 0.02

BEST_TIP = "Move the threshold to the one with the highest F1 (the strictest of ties)"
# The same rule as `matchlens calibrate -o`, which keeps such a metric's threshold as it is.
NO_USE_TIP = ("No threshold on this metric beats passing every row (by F1): it is no useful "
              "gate, so there is nothing to set")

NO_LABELS = ("Map a label column (a human's pass/fail per row) to see precision, recall and F1 "
             "at each threshold, the ROC curve, and a suggested threshold.")


def confusion_text(c: Confusion) -> str:
    return (f"precision {rate_text(c.precision)} · recall {rate_text(c.recall)} · "
            f"F1 {rate_text(c.f1)} · "
            f"accuracy {rate_text(c.accuracy)}<br>TP {c.tp:,} · FP {c.fp:,} · TN {c.tn:,} · "
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
        self.best_button.setToolTip(BEST_TIP)
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
        item.setAspectLocked(False)
        # The range leaves room for the whole marker at the corners (TPR or FPR 0 or 1); a
        # padding in data units clipped half of it, so it is set in pixels on every resize.
        item.getViewBox().sigResized.connect(self._fit_range)
        self._fit_range()
        mid = self.palette().color(QPalette.ColorRole.Mid)
        item.addItem(pg.PlotDataItem([0, 1], [0, 1], pen=pg.mkPen(mid, style=Qt.PenStyle.DashLine)))
        self.curve = pg.PlotDataItem([], [], pen=pg.mkPen(variant_colour(0, self.palette()),
                                                          width=2))
        item.addItem(self.curve)
        text = self.palette().color(QPalette.ColorRole.Text)
        self.point = pg.ScatterPlotItem(size=MARKER_SIZE, pen=pg.mkPen(text, width=MARKER_PEN),
                                        brush=None)
        item.addItem(self.point)
        layout.addWidget(self.plot, 1)
        self._specs: dict[str, MetricSpec] = {}
        self._final: Final | None = None
        self._variant = ""
        self._thresholds: dict[str, float | None] = {}
        self._has_labels = False
        self.refresh()

    def _fit_range(self) -> None:
        """0..1 on both axes plus the marker's radius (and a pixel) in pixels."""
        box = self.plot.getPlotItem().getViewBox()
        width, height = box.width(), box.height()
        margin = MARKER_SIZE / 2 + MARKER_PEN + 1
        # pixels -> data units on a span of 1 + 2m shown over `size` pixels: m = p / (size - 2p);
        # never under 2 % (the tick label at 1 needs room too).
        mx = max(ROC_PADDING, margin / max(width - 2 * margin, 1.0))
        my = max(ROC_PADDING, margin / max(height - 2 * margin, 1.0))
        box.setRange(xRange=(-mx, 1 + mx), yRange=(-my, 1 + my), padding=0)

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
        self.best_button.setText("Best threshold")
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
        best = sw.best(decimals(spec))
        self.best_button.setToolTip(BEST_TIP)
        if best is not None:
            sentence = html.escape(best.sentence(spec.direction, spec.label))
            if not best.useful:  # "No useful threshold: …" in bold
                head, _, rest = sentence.partition(":")
                sentence = f"<b>{head}:</b>{rest}"
                self.best_button.setToolTip(NO_USE_TIP)
            lines.append(sentence)
            # The button says what it will set before it is pressed (and Ctrl+Z takes it back).
            target = threshold_text(spec.direction, best.threshold)
            in_use = threshold == best.threshold
            self.best_button.setText(f"Best threshold: {target}" + (" (in use)" if in_use
                                                                   else ""))
            if best.useful:
                self.best_button.setToolTip(
                    f"Set the {spec.label} threshold to {target}. "
                    f"{self.best_button.toolTip()} (Edit ▸ Undo takes it back)")
            else:
                self.best_button.setText("No useful threshold")
            self.best_button.setEnabled(best.useful and not in_use)
        warning = labelled.warning()
        if warning:
            lines.append(f"<b>Note:</b> {html.escape(warning)}")
        self.numbers.setText("<br>".join(lines))
        if threshold is not None and sw.negatives and sw.positives:
            at = sw.at(threshold)
            self.point.setData([at.fp / sw.negatives], [at.tp / sw.positives])
        else:
            self.point.setData([], [])

    def export_figure(self) -> Figure:
        """What an exported PNG of the ROC curve says around the plot (export.save_plot_png)."""
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        chance = Swatch(palette.color(QPalette.ColorRole.Mid), "dash",
                        "the diagonal: a metric no better than chance (AUC 0.5)")
        data, metric_id = self.current(), self.metric_id()
        if data is None or metric_id is None:
            return Figure(title="ROC curve", legend=(chance,), x_label=self._axis("bottom"),
                          y_label=self._axis("left"))
        labelled, sw = data
        spec = self._specs[metric_id]
        lines = [f"{labelled.n:,} labelled rows (a human passed {labelled.positives:,} and "
                 f"failed {labelled.negatives:,}); {labelled.excluded_text()}. A row is a true "
                 "positive when a human passed it and the metric passes it too."]
        best = sw.best(decimals(spec))
        if best is not None:
            lines.append(best.sentence(spec.direction, spec.label))
        auc = sw.auc()
        legend = [Swatch(variant_colour(0, palette), "line",
                         "ROC curve: every threshold" + ("" if auc is None
                                                         else f", AUC {auc:.3f}"))]
        threshold = self._thresholds.get(metric_id)
        if threshold is not None and sw.negatives and sw.positives:
            at = sw.at(threshold)
            legend.append(Swatch(text, "circle",
                                 f"the current threshold {threshold_text(spec.direction, threshold)}"
                                 f": true positive rate {at.tp / sw.positives:.3f}, false "
                                 f"positive rate {at.fp / sw.negatives:.3f}, F1 {rate_text(at.f1)}"))
        legend.append(chance)
        room = (-0.025, 1.025)  # the whole marker at a corner, at the figure's size
        return Figure(title=f"ROC curve: {spec.label} on {self._variant} against the human labels",
                      lines=tuple(lines), legend=tuple(legend), x_label=self._axis("bottom"),
                      y_label=self._axis("left"), view_range=(room, room))

    def _axis(self, name: str) -> str:
        return self.plot.getPlotItem().getAxis(name).labelText

    def best_threshold(self) -> float | None:
        data = self.current()
        if data is None:
            return None
        metric_id = self.metric_id()
        best = data[1].best(decimals(self._specs[metric_id]))
        return None if best is None else best.threshold

    def _apply_best(self) -> None:
        value = self.best_threshold()
        metric_id = self.metric_id()
        if value is not None and metric_id is not None:
            self.sig_set_threshold.emit(metric_id, value)
