"""One histogram per metric, variants overlaid, the threshold as a line the user drags.

Plot items are created once per scoring run and updated with setData. Dragging the line
(`sigPositionChanged`) only recounts with a binary search over sorted scores and rewrites a
label; letting go (`sigPositionChangeFinished`) is what pushes the threshold into ConfigModel.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontMetricsF, QPalette, QResizeEvent, QShowEvent, QTextDocument
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from matchlens.core.batch import BatchResult, Chunk
from matchlens.core.calibration import shown_decimals
from matchlens.core.elide import elide_middle
from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import Direction, threshold_text
from matchlens.ui.batch.colours import variant_colour, with_alpha
from matchlens.ui.batch.export import Figure, Swatch
from matchlens.ui.batch.stats import Final, KeyStats

REDRAW_MS = 400  # while rows arrive, plots are redrawn at most this often


def decimals(spec: MetricSpec) -> int:
    """How many decimals the app shows a threshold of this metric with (`threshold_text`, the
    compare tab's number box): core's rule, which `matchlens calibrate` uses too."""
    return shown_decimals(spec)


def snap(spec: MetricSpec, value: float) -> float:
    """The threshold a dragged line stands for, at the precision it is shown with: what the
    label says while dragging is exactly what is stored on release."""
    lo, hi = spec.score_range
    value = max(lo, value if hi is None else min(hi, value))
    return float(round(value, decimals(spec))) + 0.0  # + 0.0: no -0.0


def count_text(value: float) -> str:
    """A row count as a tick label: 950, 12.5k, 1M (3 significant digits at most)."""
    value = float(f"{value:.3g}")  # rounded first: 999,999 reads 1M, not 1e+03k
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:g}"


# The widest tick labels count_text writes, for an axis width that never changes.
_WIDEST_COUNTS = ("888", "8.88k", "88.8k", "888k", "8.88M", "88.8M", "888M", "8.88G")


class CountAxis(pg.AxisItem):
    """A row-count axis: whole-number ticks with SI suffixes (10k, 1M), so the labels stay
    short at any dataset size, and a width fixed once from the widest possible label (a
    width that followed the labels relaid out every plot while rows arrived)."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803
        levels = [(spacing, offset) for spacing, offset in super().tickSpacing(minVal, maxVal, size)
                  if spacing >= 1]  # no 0.5 rows
        return levels or [(1.0, 0.0)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        return [count_text(v * scale) for v in values]

    def tickValues(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803
        """pyqtgraph's ticks, less one so near the top that its label would be cut in half."""
        levels = super().tickValues(minVal, maxVal, size)
        if size <= 0 or maxVal <= minVal:
            return levels
        half_text = QFontMetricsF(self.style["tickFont"] or self.font()).height() / 2
        top = maxVal - half_text * (maxVal - minVal) / size
        return [(spacing, [v for v in values if v <= top]) for spacing, values in levels]

    def fit_width(self) -> None:
        font = self.style["tickFont"]
        metrics = QFontMetricsF(font)
        widest = max(metrics.horizontalAdvance(text) for text in _WIDEST_COUNTS)
        width = widest + self.style["tickTextOffset"][0] + max(0, self.style["tickLength"])
        if self.label.isVisible():
            width += self.label.boundingRect().height() * 0.8  # as AxisItem counts it
        self.setWidth(math.ceil(width) + 2)


def style_plot(widget: pg.PlotWidget) -> None:
    """System palette colours (pyqtgraph defaults to a black background)."""
    pal = widget.palette()
    widget.setBackground(pal.color(QPalette.ColorRole.Base))
    text = pal.color(QPalette.ColorRole.Text)
    for name in ("left", "bottom"):
        axis = widget.getPlotItem().getAxis(name)
        axis.setPen(pg.mkPen(pal.color(QPalette.ColorRole.Mid)))
        axis.setTextPen(pg.mkPen(text))
    item = widget.getPlotItem()
    item.setMenuEnabled(False)
    item.hideButtons()
    item.setMouseEnabled(x=False, y=False)


def _nowrap(text: str) -> str:
    """HTML-escaped text that a word-wrapping label never breaks (its spaces stay plain)."""
    return f"<span style='white-space:nowrap'>{html.escape(text)}</span>"


class SteadyLabel(QLabel):
    """A word-wrapping label whose height follows its width but not its text: a longer text
    grows it, a shorter one never shrinks it back (until `reserve` starts a run). Each height
    change re-lays out the whole grid and repaints every plot (~30 ms while a worker shares
    the GIL); counts that wrapped, unwrapped and wrapped again as they grew did that on every
    redraw. A new width re-lays out anyway, so then the height fits the text again.

    It measures only on screen, at the width its layout gave it: a label never laid out is
    100 px wide in Qt, and measuring there locked it three times too tall.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        # Room kept for longer text stays below this text, not split above and below it.
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._reserved = 0

    def set_steady_text(self, text: str) -> None:
        if text != self.text():
            self.setText(text)
            self._fit(shrink=False)

    def reserve(self, lines: int) -> None:
        """Start a run: room for `lines` lines, more as the text needs it."""
        self._reserved = lines * self.fontMetrics().lineSpacing()
        self.setMinimumHeight(self._reserved)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit(shrink=True)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._fit(shrink=True)  # laid out while hidden: its first resize came before it showed

    def _text_height(self) -> int:
        """The text's height at this width (QLabel.heightForWidth is never below the minimum
        height, so it cannot say when less would do)."""
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)  # as QLabel lays out its text
        if self.textFormat() == Qt.TextFormat.PlainText:
            doc.setPlainText(self.text())
        else:
            doc.setHtml(self.text())
        doc.setTextWidth(self.contentsRect().width())
        margins = self.contentsMargins()
        return math.ceil(doc.size().height()) + margins.top() + margins.bottom()

    def _fit(self, shrink: bool) -> None:
        if not (self.isVisible() and self.testAttribute(Qt.WidgetAttribute.WA_Resized)):
            return
        need = max(self._reserved, self._text_height())
        if need > self.minimumHeight() or shrink and need < self.minimumHeight():
            self.setMinimumHeight(need)


class MetricHistogram(QFrame):
    sig_moving = Signal(str, float)  # metric_id, snapped threshold while dragging
    sig_committed = Signal(str, float)  # metric_id, threshold when released

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
        self.plot.setMinimumHeight(150)
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
                          f"{_nowrap(elide_middle(variant))}&nbsp;mean&nbsp;"
                          f"{self._mean_text(variant)}")
        where = (f"{_nowrap('no threshold:')} drag the line to set one" if value is None
                 else _nowrap(threshold_text(self.spec.direction, value)))
        # The legend starts its own line: panels side by side keep their plots level.
        text = (f"<b>{_nowrap(self.spec.label)}</b> · {where} · {_nowrap(self._better())}"
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


class HistogramGrid(QScrollArea):
    """Every metric's histogram, with the live counts under each.

    A pyqtgraph panel costs ~15 ms to build (much more while another thread wants the GIL),
    so panels are cached per metric and built ahead, one per event-loop turn (`prepare`),
    while the dataset is still being read.
    """

    sig_moving = Signal(str, float)
    sig_committed = Signal(str, float)
    sig_drawn = Signal()  # every panel shows the latest counts

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # A scroll bar that came and went as panels grew narrowed every plot by its width.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._inner = QWidget(self)
        self._grid = QGridLayout(self._inner)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self.setWidget(self._inner)
        self.panels: dict[str, MetricHistogram] = {}  # the current run's, in metric order
        self._cache: dict[str, MetricHistogram] = {}
        self._to_place: list[MetricSpec] = []
        self._columns = 2
        self.stats: dict[tuple[str, str], KeyStats] = {}
        self._variants: list[str] = []
        self._thresholds: dict[str, float | None] = {}
        self._timer = QTimer(self, singleShot=True, interval=REDRAW_MS)
        self._timer.timeout.connect(self.redraw)
        # One panel per event-loop turn: five plots repainted at once took ~40 ms.
        self._dirty: list[str] = []
        self._drawer = QTimer(self, singleShot=True, interval=0)
        self._drawer.timeout.connect(self._draw_next)
        self._builder = QTimer(self, singleShot=True, interval=0)
        self._builder.timeout.connect(self._build_one)
        self._then: Callable[[], None] | None = None

    def prepare(self, specs: list[MetricSpec], variants: list[str],
                then: Callable[[], None]) -> None:
        """Lay out (building where needed) a panel per metric with a curve per variant, one
        panel per event-loop turn, then call `then`.

        Call it while no worker runs: a build that shares the GIL takes 10x longer; and one
        panel at a time keeps each first paint of a plot in its own short event.
        """
        self._drawer.stop()
        self._dirty = []
        for panel in self.panels.values():
            self._grid.removeWidget(panel)
            panel.hide()
        self.panels, self.stats = {}, {}
        self._variants = list(variants)
        self._to_place = list(specs)
        self._columns = 1 if len(specs) == 1 else 2 if len(specs) in (2, 4) else 3
        self._then = then
        self._builder.start()

    def _build_one(self) -> None:
        if self._to_place:
            spec = self._to_place[0]
            if spec.id not in self._cache:
                self._cache_panel(spec)  # this turn builds; the next one places it
            else:
                self._place(self._to_place.pop(0))
        if self._to_place:
            self._builder.start()
        elif self._then is not None:
            then, self._then = self._then, None
            then()

    def _cache_panel(self, spec: MetricSpec) -> MetricHistogram:
        panel = MetricHistogram(spec, self._inner)
        panel.hide()
        panel.sig_moving.connect(self._on_moving)
        panel.sig_committed.connect(self.sig_committed)
        self._cache[spec.id] = panel
        return panel

    def _place(self, spec: MetricSpec) -> None:
        panel = self._cache.get(spec.id) or self._cache_panel(spec)
        i = len(self.panels)
        panel.set_variants(self._variants)
        panel.reset_y()
        self._grid.addWidget(panel, i // self._columns, i % self._columns)
        panel.show()
        self.panels[spec.id] = panel

    def cancel_prepare(self) -> None:
        self._builder.stop()
        self._to_place, self._then = [], None

    def reset(self, result: BatchResult, thresholds: dict[str, float | None]) -> None:
        """Attach a run's arrays; panels not laid out by prepare() are placed now."""
        self._thresholds = dict(thresholds)
        if list(self.panels) != [job.id for job in result.jobs] \
                or self._variants != list(result.variants):
            self.cancel_prepare()
            self.prepare([job.spec for job in result.jobs], list(result.variants), lambda: None)
            while self._to_place:
                self._place(self._to_place.pop(0))
            self.cancel_prepare()
        self.stats = {}
        for job in result.jobs:
            for variant in self._variants:
                key = (variant, job.id)
                self.stats[key] = KeyStats(job.spec, result.scores[key])
        self.redraw()

    def add_chunk(self, chunk: Chunk) -> None:
        for key, status in chunk.status.items():
            self.stats[key].add(chunk.start, chunk.stop, status)
        if not self._timer.isActive():
            self._timer.start()

    def finish(self, final: Final) -> None:
        for key, values in final.sorted.items():
            if key in self.stats:
                self.stats[key].sorted = values
        self._timer.stop()
        self.redraw()

    def set_threshold(self, metric_id: str, value: float | None) -> None:
        self._thresholds[metric_id] = value
        panel = self.panels.get(metric_id)
        if panel is not None:
            panel.set_threshold(value, self._unset_position(metric_id))
            self._write_stats(metric_id, value)

    def redraw(self) -> None:
        """Schedule every panel for drawing (one per event-loop turn); sig_drawn at the end."""
        self._dirty = list(self.panels)
        self._drawer.start()

    def redraw_now(self) -> None:
        self._drawer.stop()
        self._dirty = []
        for metric_id in self.panels:
            self._draw(metric_id)

    def is_drawing(self) -> bool:
        return bool(self._dirty)

    def _draw_next(self) -> None:
        if self._dirty:
            metric_id = self._dirty.pop(0)
            if metric_id in self.panels:
                self._draw(metric_id)
                # Painted now, alone: left to Qt, the five panels drawn in five quick turns
                # were painted in one go (~20 ms each when a worker shares the GIL).
                self.panels[metric_id].plot.viewport().repaint()
        if self._dirty:
            self._drawer.start()
        else:
            self.sig_drawn.emit()

    def _draw(self, metric_id: str) -> None:
        panel = self.panels[metric_id]
        top, tallest = 0.0, 0
        for variant in self._variants:
            st = self.stats[(variant, metric_id)]
            edges, counts = st.histogram.bars()
            panel.set_bars(variant, edges, counts)
            panel.set_mean(variant, st.mean)
            top = max(top, float(edges[-1]))
            tallest = max(tallest, int(counts.max()) if counts.size else 0)
        panel.fit_y(tallest)
        lo, hi = panel.spec.score_range
        panel.set_range(lo, hi if hi is not None else max(top, lo + 1))
        threshold = self._thresholds.get(metric_id)
        panel.set_threshold(threshold, self._unset_position(metric_id))
        self._write_stats(metric_id, threshold)

    def _unset_position(self, metric_id: str) -> float:
        means = [self.stats[(v, metric_id)].mean for v in self._variants]
        means = [m for m in means if m is not None]
        spec = self.panels[metric_id].spec
        if means:
            return snap(spec, float(np.mean(means)))
        lo, hi = spec.score_range
        return (lo + (hi if hi is not None else lo + 1)) / 2

    def _on_moving(self, metric_id: str, value: float) -> None:
        self._write_stats(metric_id, value)
        self.sig_moving.emit(metric_id, value)

    def _write_stats(self, metric_id: str, threshold: float | None) -> None:
        panel = self.panels[metric_id]
        lines = []
        several = len(self._variants) > 1
        panel.summaries = [self.stats[(variant, metric_id)].summary_text(threshold)
                           for variant in self._variants]
        for i, summary in enumerate(panel.summaries):
            # "invalid 0" stays on one line: the counts wrap only between " · " parts.
            text = " · ".join(_nowrap(part) for part in summary.split(" · "))
            if several:
                colour = variant_colour(i, panel.palette()).name()
                text = f"<span style='color:{colour}'>■</span>&nbsp;{text}"
            lines.append(text)
        panel.stats.set_steady_text("<br>".join(lines))

    def pass_rate(self, variant: str, metric_id: str, threshold: float) -> float | None:
        st = self.stats[(variant, metric_id)]
        return st.passed(threshold) / st.done if st.done else None

