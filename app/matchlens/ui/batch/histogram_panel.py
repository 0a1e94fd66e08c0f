"""One metric's histogram panel: a bar series per variant, each variant's mean as a dashed
line, the threshold as a line the user drags, the title (legend) and the live counts under it.

Dragging the line (`sigPositionChanged`) only rewrites labels; letting go
(`sigPositionChangeFinished`) is what the grid turns into a threshold in ConfigModel.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import Direction, threshold_text
from matchlens.core.text.elide import elide
from matchlens.ui.batch.colours import variant_colour, with_alpha
from matchlens.ui.batch.export import Figure, Swatch
from matchlens.ui.batch.plot_style import CountAxis, SteadyLabel, nowrap, snap, style_plot


class MetricHistogram(QFrame):
    sig_moving = Signal(str, float)  # metric_id, snapped threshold while dragging
    sig_committed = Signal(str, float)  # metric_id, threshold when released
    sig_bar = Signal(str, int, float, float, bool)  # a bar clicked: metric, index, lo, hi, last

    def __init__(self, spec: MetricSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(2)
        self.title = SteadyLabel(self)  # a long legend wraps instead of widening the grid
        self.title.setToolTip(spec.definition)
        self.stats = SteadyLabel(self)
        self.stats.setTextFormat(Qt.TextFormat.RichText)
        small = self.stats.font()
        small.setPointSizeF(small.pointSizeF() * 0.9)
        self.stats.setFont(small)
        self.plot = pg.PlotWidget(self, axisItems={"left": CountAxis("left")})
        self.plot.setMinimumHeight(100)  # shrinks at 1280x720 rather than push the table
        style_plot(self.plot)
        item = self.plot.getPlotItem()
        item.setLabel("left", "rows")
        # Fixed axis width and a y range that only grows in steps: auto-ranging every redraw
        # changed the tick labels' width, and each change relaid out every plot (~100 ms).
        axis = item.getAxis("left")
        axis.setStyle(tickFont=self.plot.font())
        axis.fit_width()
        item.enableAutoRange(x=False, y=False)
        self._y_top = 0.0
        self._x_range: tuple[float, float] | None = None
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.stats)
        text = self.palette().color(QPalette.ColorRole.Text)
        # The label has the plot's background behind it: dashed mean lines pass under it.
        behind = with_alpha(self.palette().color(QPalette.ColorRole.Base), 235)
        self.line = pg.InfiniteLine(
            angle=90, movable=True, pen=pg.mkPen(text, width=2),
            hoverPen=pg.mkPen(self.palette().color(QPalette.ColorRole.Highlight), width=3),
            label="", labelOpts={"position": 0.92, "color": text, "movable": False,
                                 "fill": behind})
        self.line.setZValue(10)
        self.line.setToolTip("Drag to change the threshold; the counts update as you drag")
        self.plot.addItem(self.line)
        # sigDragged / sigPositionChangeFinished come only from the user's mouse; the line's
        # own motion (setValue, clamped by setBounds to a new range) says sigPositionChanged
        # only, and must never write a threshold (it painted phantom verdicts once).
        self.line.sigDragged.connect(self._on_moving)
        self.line.sigPositionChangeFinished.connect(self._on_finished)
        self._variants: list[str] = []
        self._curves: dict[str, pg.PlotDataItem] = {}
        self._means: dict[str, pg.InfiniteLine] = {}  # dashed, in the variant's colour
        self._mean_values: dict[str, float | None] = {}
        self._threshold: float | None = None
        self.summaries: list[str] = []  # each variant's counts line, as written under the plot
        self._placed: tuple[float | None, float] | None = None
        self._setting = False
        self._edges: np.ndarray | None = None  # the bars' edges (every variant shares them)
        self.plot.scene().sigMouseClicked.connect(self._on_click)
        self.plot.setToolTip("Click a bar: the table shows its rows")

    def set_variants(self, variants: list[str]) -> None:
        """One curve and one mean line per variant (a reused panel drops the previous run's)."""
        item = self.plot.getPlotItem()
        for old in [*self._curves.values(), *self._means.values()]:
            item.removeItem(old)
        self._curves, self._means, self._mean_values = {}, {}, {}
        # Room for what the run will write: a header of two lines, two lines of counts per
        # variant (they wrap once the numbers grow); text needing more grows them once.
        self.title.reserve(2)
        self.stats.reserve(2 * len(variants))
        self._variants = list(variants)
        for i, variant in enumerate(variants):
            colour = variant_colour(i, self.palette())
            curve = pg.PlotDataItem([0, 1], [0], stepMode="center", fillLevel=0,
                                    pen=pg.mkPen(colour, width=1.5),
                                    brush=with_alpha(colour, 70 if len(variants) > 1 else 110))
            item.addItem(curve)
            self._curves[variant] = curve
            mean = pg.InfiniteLine(angle=90, pen=pg.mkPen(colour, width=1,
                                                          style=Qt.PenStyle.DashLine))
            mean.setVisible(False)
            item.addItem(mean)
            self._means[variant] = mean
            self._mean_values[variant] = None

    def set_bars(self, variant: str, edges: np.ndarray, counts: np.ndarray) -> None:
        self._curves[variant].setData(edges, counts)
        self._edges = np.asarray(edges, dtype=float)

    def bar_at(self, x: float) -> tuple[int, float, float, bool] | None:
        """(index, lo, hi, last) of the bar under plot coordinate `x`, if any."""
        edges = self._edges
        if edges is None or edges.size < 2 or not edges[0] <= x <= edges[-1]:
            return None
        index = int(min(np.searchsorted(edges, x, side="right") - 1, edges.size - 2))
        return index, float(edges[index]), float(edges[index + 1]), index == edges.size - 2

    def _on_click(self, event) -> None:  # noqa: ANN001 - pyqtgraph's MouseClickEvent
        if event.button() != Qt.MouseButton.LeftButton or self.line.mouseHovering:
            return  # the threshold line is dragged, not clicked through
        view = self.plot.getPlotItem().vb
        if not view.sceneBoundingRect().contains(event.scenePos()):
            return
        bar = self.bar_at(view.mapSceneToView(event.scenePos()).x())
        if bar is not None:
            self.sig_bar.emit(self.spec.id, *bar)

    def fit_y(self, top: float) -> None:
        """Grow (or, after a new run, shrink) the y range in steps of 1.5x, with headroom."""
        if top <= 0:
            top = 1.0
        if top > self._y_top or top < self._y_top / 4:
            self._y_top = float(top) * 1.5 if self._y_top else float(top) * 1.1
            self.plot.getPlotItem().setYRange(0, self._y_top, padding=0)

    def reset_y(self) -> None:
        self._y_top = 0.0

    def set_mean(self, variant: str, mean: float | None) -> None:
        line = self._means[variant]
        line.setVisible(mean is not None)
        if mean is not None:
            line.setValue(mean)
            line.setToolTip(f"{variant}: mean {mean:.3f}")
        self._mean_values[variant] = mean
        self._update_title(self._threshold)

    def set_range(self, lo: float, hi: float) -> None:
        if self._x_range == (lo, hi):
            return
        self._x_range = (lo, hi)
        pad = (hi - lo) * 0.02
        self.plot.getPlotItem().setXRange(lo - pad, hi + pad, padding=0)
        self._setting = True
        try:
            self.line.setBounds((lo, hi))  # may clamp the line: its motion, not a threshold
        finally:
            self._setting = False
        self._placed = None  # a clamped line is placed again from the config on the next draw

    def threshold(self) -> float | None:
        return self._threshold

    def set_threshold(self, value: float | None, where_unset: float) -> None:
        """Place the line from the config (no signals out); dashed when there is none."""
        placed = where_unset if value is None else value
        if self._placed == (value, placed) and self.line.value() == placed:
            return  # unchanged: moving a line re-lays its label and repaints the plot
        self._placed = (value, placed)
        self._threshold = value
        self._setting = True
        try:
            self.line.setValue(where_unset if value is None else value)
        finally:
            self._setting = False
        text = self.palette().color(QPalette.ColorRole.Text)
        if value is None:
            # "drag to set" is said in the header, where no mean line can cross it.
            self.line.setPen(pg.mkPen(text, width=1.5, style=Qt.PenStyle.DashLine))
            self.line.label.setVisible(False)
            self.line.label.setFormat("")
        else:
            self.line.setPen(pg.mkPen(text, width=2))
            self.line.label.setFormat(threshold_text(self.spec.direction, value))
            self.line.label.setVisible(True)
        self._update_title(value)

    def _update_title(self, value: float | None) -> None:
        """Name, threshold, and the legend: each variant's colour, name and mean (dashed line).

        The legend lives in this header rather than inside the plot, where it would cover bars
        at either end of the range or the threshold's label; it also says how to set a
        missing threshold (on the plot, the dashed mean lines crossed that text). Each legend
        entry (and each phrase) is held together by non-breaking spaces: a long header wraps
        between entries, never between a colour square and its variant.
        """
        legend = []
        for i, variant in enumerate(self._variants):
            colour = variant_colour(i, self.palette()).name()
            # a long name (promptfoo's run to paragraphs) is cut in the middle; the tooltip
            # holds it whole
            legend.append(f"<span style='color:{colour}'>■</span>&nbsp;"
                          f"{nowrap(elide(variant))}&nbsp;mean&nbsp;"
                          f"{self._mean_text(variant)}")
        where = (f"{nowrap('no threshold:')} drag the line to set one" if value is None
                 else nowrap(threshold_text(self.spec.direction, value)))
        # The legend starts its own line: panels side by side keep their plots level.
        text = (f"<b>{nowrap(self.spec.label)}</b> · {where} · {nowrap(self._better())}"
                f"<br>{'&nbsp;&nbsp; '.join(legend)}")
        self.title.set_steady_text(text)
        names = "\n".join(f"■ {variant}: mean {self._mean_text(variant)}"
                           for variant in self._variants)
        self.title.setToolTip(f"{self.spec.definition}\n{names}" if names
                              else self.spec.definition)

    def _better(self) -> str:
        return "higher is better" if self.spec.direction is Direction.MAX else "lower is better"

    def _mean_text(self, variant: str) -> str:
        mean = self._mean_values.get(variant)
        return "–" if mean is None else f"{mean:.2f}" if self.spec.integer else f"{mean:.3f}"

    def export_figure(self) -> Figure:
        """What an exported PNG of this histogram says around the plot (export.save_plot_png)."""
        spec, value = self.spec, self._threshold
        text = self.palette().color(QPalette.ColorRole.Text)
        if value is None:
            rule = f"No threshold set ({self._better()}): rows are scored, not judged."
        else:
            rule = (f"Threshold {threshold_text(spec.direction, value)} (solid line), "
                    f"{self._better()}: a row passes when its score is "
                    f"{threshold_text(spec.direction, value)}.")
        legend = [Swatch(variant_colour(i, self.palette()), "box",
                         f"{variant}: mean {self._mean_text(variant)}"
                         + (f" · {self.summaries[i]}" if i < len(self.summaries) else ""))
                  for i, variant in enumerate(self._variants)]
        legend.append(Swatch(text, "dash", "dashed lines: each variant's mean, in its colour"))
        if value is not None:
            legend.append(Swatch(text, "line",
                                 f"threshold {threshold_text(spec.direction, value)}"))
        lo, hi = spec.score_range
        span = f"{lo:g}–{hi:g}" if hi is not None else f"{lo:g} and up"
        return Figure(title=f"{spec.label}: distribution of scores", lines=(rule,),
                      legend=tuple(legend),
                      x_label=f"{spec.label} score ({span}, {self._better()})", y_label="rows",
                      omit=(self.line,) if value is None else ())  # unset: only a drag handle

    def _on_moving(self) -> None:
        if self._setting:
            return
        value = snap(self.spec, self.line.value())
        self.line.label.setFormat(threshold_text(self.spec.direction, value))
        if not self.line.label.isVisible():  # the first drag of a line that had no threshold
            self.line.label.setVisible(True)
        self._update_title(value)  # the header's "≥ 0.70" follows the line too
        self.sig_moving.emit(self.spec.id, value)

    def _on_finished(self) -> None:
        if self._setting:
            return
        value = snap(self.spec, self.line.value())
        self.sig_committed.emit(self.spec.id, value)
        # The line rests on the threshold it stands for, not on the pixel it was let go at
        # (the stateful test caught it drawn at 0.748 for a stored 0.75).
        if self._threshold is not None and self.line.value() != self._threshold:
            self._setting = True
            try:
                self.line.setValue(self._threshold)
            finally:
                self._setting = False
