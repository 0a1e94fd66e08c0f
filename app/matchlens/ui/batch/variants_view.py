"""B versus A, row by row: a histogram of B − A for one metric and the paired test in words.

With a baseline run joined (run_joins.py) it is the Runs view: A is the baseline, B this run
(or another run), and the runs panel (runs_view.py) adds the change counts, each a filter of
the table, and the scatter of the two scores; the paired test stays on top."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.run_table import JoinedRun
from matchlens.core.scoring.variants import PairedComparison, paired_comparison
from matchlens.core.text.elide import elide
from matchlens.ui.batch.colours import variant_colour, with_alpha
from matchlens.ui.batch.plot_style import style_plot
from matchlens.ui.batch.runs_view import RunsPanel
from matchlens.ui.batch.worker import Task, TaskSlot

ONE_VARIANT = ("Tick two or more actual columns (prompt variants) in the mapping to compare "
               "them row by row here.")
DELTA_BINS = 41


def delta_histogram(d: np.ndarray, spec: MetricSpec) -> tuple[np.ndarray, np.ndarray]:
    """Bins symmetric around 0 (so 'no change' is one bar); integer metrics get integer bins."""
    top = float(np.abs(d).max()) if d.size else 1.0
    if spec.integer:
        top = max(1.0, np.ceil(top))
        width = max(1.0, np.ceil((2 * top + 1) / 61))
        half = np.ceil((top + 0.5) / width) * width
        edges = np.arange(-half - width / 2, half + width, width)
    else:
        lo, hi = spec.score_range
        top = top if top > 0 else (1.0 if hi is None else (hi - lo) / 10)
        edges = np.linspace(-top, top, DELTA_BINS + 1)
    counts, edges = np.histogram(d, bins=edges)
    return edges, counts


def compare(a: np.ndarray, b: np.ndarray, spec: MetricSpec, names: tuple[str, str],
            cancel: Callable[[], bool]) -> tuple[PairedComparison, np.ndarray, np.ndarray]:
    """Worker body: the paired test and the B − A histogram."""
    result = paired_comparison(a, b, spec.direction, names=names)
    both = ~np.isnan(a) & ~np.isnan(b)
    edges, counts = delta_histogram(b[both] - a[both], spec)
    return result, edges, counts


class VariantsView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.metric = QComboBox(self)
        self.metric.setToolTip("The metric to compare the two variants on")
        self.a = QComboBox(self)
        self.a.setToolTip("Variant A (the baseline)")
        self.b = QComboBox(self)
        self.b.setToolTip("Variant B (the challenger): the histogram shows B − A per row")
        for label, combo in (("Metric", self.metric), ("A", self.a), ("B", self.b)):
            # a long variant name elides instead of widening the row past the window
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
            top.addWidget(QLabel(label, self))
            top.addWidget(combo)
            combo.currentIndexChanged.connect(self.refresh)
        top.addStretch(1)
        layout.addLayout(top)
        self.sentence = QLabel(ONE_VARIANT, self)
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.sentence)
        self.plot = pg.PlotWidget(self)
        style_plot(self.plot)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "B − A per row")
        item.setLabel("left", "rows")
        colour = variant_colour(1, self.palette())
        self.curve = pg.PlotDataItem([0, 1], [0], stepMode="center", fillLevel=0,
                                     pen=pg.mkPen(colour), brush=with_alpha(colour, 110))
        item.addItem(self.curve)
        text = self.palette().color(QPalette.ColorRole.Text)
        item.addItem(pg.InfiniteLine(0, angle=90, pen=pg.mkPen(text, style=Qt.PenStyle.DashLine)))
        body = QHBoxLayout()
        self.runs = RunsPanel(self)
        self.runs.hide()
        body.addWidget(self.runs, 6)
        body.addWidget(self.plot, 2)
        layout.addLayout(body, 1)
        self.joined: JoinedRun | None = None  # with a baseline among the variants: Runs view
        self.thresholds: Callable[[], dict[str, float | None]] = dict  # the tab's, now
        self._result: BatchResult | None = None
        self._specs: dict[str, MetricSpec] = {}
        self._complete = False
        self._slot = TaskSlot()
        self.comparison: PairedComparison | None = None

    def reset(self, result: BatchResult, specs: dict[str, MetricSpec],
              joined: JoinedRun | None = None) -> None:
        self._slot.cancel()
        self._result, self._specs, self._complete = result, dict(specs), False
        runs = joined is not None and joined.baseline in result.variants
        self.joined = joined if runs else None
        self.runs.reset(self.joined, result, specs)
        if runs == self.runs.isHidden():  # only a change: a relayout resizes the splitter
            self.runs.setVisible(runs)
            self.plot.setVisible(not runs)  # the scatter and the sentence say what it showed
            self._retitle("Runs" if runs else "Variants")
        self.comparison = None
        for combo in (self.metric, self.a, self.b):
            combo.blockSignals(True)
            combo.clear()
        for metric_id, spec in specs.items():
            self.metric.addItem(spec.label, metric_id)
        base = self.joined.baseline if self.joined is not None else None
        for combo in (self.a, self.b):  # the whole name on hover; the box keeps its width
            names = result.variants if base is None else \
                [base] if combo is self.a else [v for v in result.variants if v != base]
            combo.addItems(names)
            for i, variant in enumerate(names):
                combo.setItemData(i, variant, Qt.ItemDataRole.ToolTipRole)
        self.a.setEnabled(base is None)  # the Runs view compares with the baseline
        if len(result.variants) > 1 and base is None:
            self.b.setCurrentIndex(1)
        for combo in (self.metric, self.a, self.b):
            combo.blockSignals(False)
        self.curve.setData([0, 1], [0])
        self.sentence.setText(ONE_VARIANT if len(result.variants) < 2
                              else "The comparison appears when every row is scored.")

    def set_complete(self) -> None:
        self._complete = True
        self.refresh()

    def is_busy(self) -> bool:
        return self._slot.busy or self.runs.is_busy()

    def _retitle(self, title: str) -> None:
        """The page's tab reads "Runs" with a baseline joined, else "Variants"."""
        node = self.parentWidget()
        while node is not None and not isinstance(node, QTabWidget):
            node = node.parentWidget()
        if node is not None and node.indexOf(self) >= 0:
            node.setTabText(node.indexOf(self), title)

    def recount(self) -> None:
        """The thresholds changed: the change counts follow (the paired test does not move)."""
        if self.joined is not None and self._complete:
            self.runs.show_variant(self.b.currentText(), self.metric.currentData(),
                                   self.thresholds())

    def refresh(self) -> None:
        if self._result is None or len(self._result.variants) < 2 or not self._complete:
            return
        metric_id = self.metric.currentData()
        va, vb = self.a.currentText(), self.b.currentText()
        if va == vb:
            self.sentence.setText("Choose two different variants for A and B.")
            self.curve.setData([0, 1], [0])
            return
        spec = self._specs[metric_id]
        self.sentence.setText("Comparing…")
        if self.joined is not None:
            self.runs.show_variant(vb, metric_id, self.thresholds())
        # the sentence names them short (a promptfoo prompt label runs to a paragraph); the
        # tooltip names them whole
        self.sentence.setToolTip(f"A: {va}\nB: {vb}")
        task = Task(compare, self._result.scores[(va, metric_id)],
                    self._result.scores[(vb, metric_id)], spec,
                    (elide(va), elide(vb)), owner=self)
        task.sig_returned.connect(self._show)
        task.sig_errored.connect(lambda err: self.sentence.setText(str(err)))
        self._slot.start(task)  # cancels the comparison in flight

    def _show(self, value: tuple[PairedComparison, np.ndarray, np.ndarray]) -> None:
        comparison, edges, counts = value
        self.comparison = comparison
        self.curve.setData(edges, counts)
        label = self.metric.currentText()
        self.sentence.setText(comparison.sentence(label))

    def shutdown(self) -> None:
        task = self._slot.cancel()
        if task is not None:
            task.wait()
        self.runs.shutdown()
