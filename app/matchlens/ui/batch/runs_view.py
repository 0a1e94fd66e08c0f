"""The Runs view's own part (the Variants view grown, when a baseline run is joined): per metric
the regressed / improved / worse / better / same / new / gone counts of this run against the
baseline — each count a click that filters the table — and a scatter of the baseline's score
against this run's, row by row (click a point: that row in the table).

The counts are the core's labels (`run_table.change_codes`: the rules `score --baseline`
writes in `<id>_change` and `change`), under the thresholds in effect now, computed off the GUI
thread; a newer request (another variant, a moved threshold) wins.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.run_summary import LABELS
from matchlens.core.scoring.run_table import JoinedRun, change_codes
from matchlens.core.scoring.view_order import FILTER_ROWS_PREFIX
from matchlens.ui.batch.plot_style import style_plot
from matchlens.ui.batch.worker import Task, TaskSlot

ROW = ""  # the counts' first line: the row's `change` (every thresholded metric)
SCATTER_MAX = 20_000  # points drawn at most; more rows are drawn as a fixed-seed sample
_TIPS = {"regressed": "passed in the baseline, fails now", "improved": "failed in the "
         "baseline, passes now", "worse": "the score moved the bad way, the verdict did not "
         "flip", "better": "the score moved the good way, the verdict did not flip",
         "same": "the same score (or neither run has one)", "new": "the baseline lacks this id",
         "gone": "this run lacks this id"}


def label_codes(joined: JoinedRun, result: BatchResult, variant: str,
                thresholds: dict[str, float | None], cancel: Callable[[], bool]
                ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Worker body: the core's label codes of `variant` (row, and per metric)."""
    return change_codes(joined, result, variant, thresholds)


def change_key(metric_id: str, label: str) -> str:
    """The table filter of one count ("rows:change:<metric or ''>:<label>")."""
    return f"{FILTER_ROWS_PREFIX}change:{metric_id}:{label}"


class RunsPanel(QWidget):
    """Counts and scatter of one variant against the baseline (see the module)."""

    sig_show_rows = Signal(str, str, object)  # (filter key, its name, the rows' bool mask)
    sig_select_row = Signal(int)  # a scatter point was clicked: that source row
    sig_recounted = Signal()  # new counts (a threshold moved): a count's filter follows

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.counts = QTableWidget(0, len(LABELS), self)
        self.counts.setHorizontalHeaderLabels(list(LABELS))
        for i, label in enumerate(LABELS):
            self.counts.horizontalHeaderItem(i).setToolTip(f"{label}: {_TIPS[label]}")
        self.counts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.counts.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.counts.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.counts.horizontalHeader().setStretchLastSection(True)
        self.counts.verticalHeader().setDefaultSectionSize(22)
        self.counts.setToolTip("Rows per change against the baseline, under the thresholds now; "
                               "click a count to show those rows in the table")
        self.counts.cellClicked.connect(self._clicked)
        layout.addWidget(self.counts, 4)
        self.scatter_plot = pg.PlotWidget(self)
        style_plot(self.scatter_plot)
        item = self.scatter_plot.getPlotItem()
        item.setLabel("bottom", "baseline score")
        item.setLabel("left", "this run's score")
        text = self.palette().color(QPalette.ColorRole.Text)
        self.diagonal = pg.PlotDataItem([0, 1], [0, 1], pen=pg.mkPen(text, style=Qt.PenStyle.DotLine))
        item.addItem(self.diagonal)
        self.points = pg.ScatterPlotItem(size=6, pen=None, hoverable=True)
        self.points.sigClicked.connect(self._point_clicked)
        item.addItem(self.points)
        self.scatter_plot.setToolTip("Each point a row: the baseline's score across, this run's "
                                     "up (above the dotted line: higher now). Red regressed, "
                                     "green improved. Click a point to select its row.")
        layout.addWidget(self.scatter_plot, 2)
        self._slot = TaskSlot()
        self._joined: JoinedRun | None = None
        self._result: BatchResult | None = None
        self._specs: dict[str, MetricSpec] = {}
        self._codes: tuple[np.ndarray, dict[str, np.ndarray]] | None = None
        self.variant = ""
        self.metric = ""
        self.shown_counts: dict[str, dict[str, int]] = {}  # metric ("" the row) -> label -> n

    def reset(self, joined: JoinedRun | None, result: BatchResult,
              specs: dict[str, MetricSpec]) -> None:
        self._slot.cancel()
        self._joined, self._result, self._specs = joined, result, dict(specs)
        self._codes = None
        self.shown_counts = {}
        self.counts.setRowCount(0)
        self.points.setData([], [])

    def is_busy(self) -> bool:
        return self._slot.busy

    def show_variant(self, variant: str, metric_id: str,
                     thresholds: dict[str, float | None]) -> None:
        """Count `variant`'s changes (every metric) and draw `metric_id`'s scatter."""
        if self._joined is None or self._result is None or variant == self._joined.baseline:
            return
        self.variant, self.metric = variant, metric_id
        task = Task(label_codes, self._joined, self._result, variant, dict(thresholds),
                    owner=self)
        task.sig_returned.connect(self._show_counts)
        self._slot.start(task)

    def _show_counts(self, codes: tuple[np.ndarray, dict[str, np.ndarray]]) -> None:
        self._codes = codes
        rows, metrics = codes
        lines = [(ROW, "every metric (row)", rows)]
        lines += [(m, self._specs[m].label, c) for m, c in metrics.items() if m in self._specs]
        self.counts.setRowCount(len(lines))
        self.shown_counts = {}
        for r, (metric_id, name, array) in enumerate(lines):
            header = QTableWidgetItem(name)
            header.setData(Qt.ItemDataRole.UserRole, metric_id)
            self.counts.setVerticalHeaderItem(r, header)
            counted = np.bincount(array, minlength=len(LABELS))
            self.shown_counts[metric_id] = {}
            for c, label in enumerate(LABELS):
                n = int(counted[c])
                self.shown_counts[metric_id][label] = n
                cell = QTableWidgetItem(f"{n:,}")
                cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                cell.setToolTip(f"{n:,} rows {label} on {name}: {_TIPS[label]}; click to "
                                "show them in the table")
                if n and label == "regressed":
                    cell.setForeground(QColor.fromHslF(0.0, 0.75, 0.45))
                elif n and label == "improved":
                    cell.setForeground(QColor.fromHslF(130 / 360, 0.7, 0.35))
                self.counts.setItem(r, c, cell)
        self._draw_scatter()
        self.sig_recounted.emit()

    def mask_for(self, key: str) -> np.ndarray | None:
        """The rows of a count's filter key (change_key) under the counts now; None for a key
        that is not one."""
        if self._codes is None:
            return None
        rows, metrics = self._codes
        for metric_id, codes in [(ROW, rows), *metrics.items()]:
            for c, label in enumerate(LABELS):
                if key == change_key(metric_id, label):
                    return codes == c
        return None

    def _clicked(self, r: int, c: int) -> None:
        if self._codes is None:
            return
        header = self.counts.verticalHeaderItem(r)
        metric_id = header.data(Qt.ItemDataRole.UserRole)
        label = LABELS[c]
        array = self._codes[0] if metric_id == ROW else self._codes[1][metric_id]
        mask = array == c
        where = "rows" if metric_id == ROW else self._specs[metric_id].label
        name = f"{label.capitalize()}: {where} (vs the baseline)"
        self.sig_show_rows.emit(change_key(metric_id, label), name, mask)

    def _draw_scatter(self) -> None:
        result, joined, metric_id = self._result, self._joined, self.metric
        if result is None or joined is None or metric_id not in self._specs or \
                self._codes is None:
            return
        x = result.scores[(joined.baseline, metric_id)]
        y = result.scores[(self.variant, metric_id)]
        rows = np.flatnonzero(~np.isnan(x) & ~np.isnan(y))
        total = len(rows)
        if total > SCATTER_MAX:
            rows = np.sort(np.random.default_rng(0).choice(rows, SCATTER_MAX, replace=False))
        codes = self._codes[1][metric_id][rows]
        palette = self.palette()
        other = QColor(palette.color(QPalette.ColorRole.Text))
        other.setAlpha(110)
        brushes = {LABELS.index("regressed"): pg.mkBrush(QColor.fromHslF(0.0, 0.75, 0.5)),
                   LABELS.index("improved"): pg.mkBrush(QColor.fromHslF(130 / 360, 0.7, 0.4))}
        plain = pg.mkBrush(other)
        self.points.setData(x=x[rows], y=y[rows], data=rows,
                            brush=[brushes.get(int(c), plain) for c in codes.tolist()])
        lo = float(min(x[rows].min(), y[rows].min())) if len(rows) else 0.0
        hi = float(max(x[rows].max(), y[rows].max())) if len(rows) else 1.0
        self.diagonal.setData([lo, hi], [lo, hi])
        self.scatter_plot.setRange(xRange=(lo, hi), yRange=(lo, hi), padding=0.08)
        spec = self._specs[metric_id]
        self.scatter_plot.getPlotItem().setTitle(
            f"{spec.label}: {total:,} rows with both scores"
            + (f" (a sample of {SCATTER_MAX:,} drawn)" if total > SCATTER_MAX else ""),
            size="9pt")

    def _point_clicked(self, _item: object, points: list, _event: object = None) -> None:
        if len(points):
            self.sig_select_row.emit(int(points[0].data()))

    def shutdown(self) -> None:
        task = self._slot.cancel()
        if task is not None:
            task.wait()
