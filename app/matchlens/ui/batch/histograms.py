"""The grid of histograms: one panel per metric (histogram_panel.py), variants overlaid.

Plot items are created once per scoring run and updated with setData. Dragging the line
(`sigPositionChanged`) only recounts with a binary search over sorted scores and rewrites a
label; letting go (`sigPositionChangeFinished`) is what pushes the threshold into ConfigModel.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QScrollArea, QWidget

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.scoring.batch import BatchResult, Chunk
from matchlens.core.scoring.stats import Final, KeyStats
from matchlens.ui.batch.colours import variant_colour
from matchlens.ui.batch.histogram_panel import MetricHistogram
from matchlens.ui.batch.plot_style import nowrap, snap

REDRAW_MS = 400  # while rows arrive, plots are redrawn at most this often


class HistogramGrid(QScrollArea):
    """Every metric's histogram, with the live counts under each.

    A pyqtgraph panel costs ~15 ms to build (much more while another thread wants the GIL),
    so panels are cached per metric and built ahead, one per event-loop turn (`prepare`),
    while the dataset is still being read.
    """

    sig_moving = Signal(str, float)
    sig_committed = Signal(str, float)
    sig_drawn = Signal()  # every panel shows the latest counts
    sig_bar = Signal(str, int, float, float, bool)  # a bar clicked (MetricHistogram.sig_bar)

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
        panel.sig_bar.connect(self.sig_bar)
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
            text = " · ".join(nowrap(part) for part in summary.split(" · "))
            if several:
                colour = variant_colour(i, panel.palette()).name()
                text = f"<span style='color:{colour}'>■</span>&nbsp;{text}"
            lines.append(text)
        panel.stats.set_steady_text("<br>".join(lines))

    def pass_rate(self, variant: str, metric_id: str, threshold: float) -> float | None:
        st = self.stats[(variant, metric_id)]
        return st.passed(threshold) / st.done if st.done else None

