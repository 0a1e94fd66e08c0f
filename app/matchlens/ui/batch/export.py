"""Exports from the batch tab: the scored table (+ provenance sidecar), a plot as PNG.

The thresholds file is ConfigModel.save_as (the TOML `matchlens score --config` reads). Every
write goes through atomic_writer, and the scored-table writer refuses to overwrite its input.

An exported plot reads on its own: the plot is redrawn at a fixed figure size (a small panel
scaled up to 1200 px had giant tick labels) under a header with a title, what the lines mean
and a legend, all of which the view that owns the plot describes (`export_figure()`, a
`Figure`). The same words go into the PNG's "Title" and "Description" text chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers ImageExporter under pg.exporters)
from PySide6.QtCore import QBuffer, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QWidget

from matchlens.core.atomic import atomic_writer
from matchlens.core.config import Config, config_to_dict
from matchlens.core.datasets import Table
from matchlens.core.errors import OutputError
from matchlens.core.output.scored_table import provenance, write_scored_table, write_sidecar
from matchlens.core.scoring.batch import BatchResult


def with_thresholds(result: BatchResult, thresholds: Mapping[str, float | None]) -> BatchResult:
    """The same arrays, judged by the thresholds the user has now (they may have dragged)."""
    jobs = [replace(job, threshold=thresholds.get(job.id, job.threshold)) for job in result.jobs]
    return BatchResult(result.rows, list(result.variants), jobs, result.scores, result.status,
                       result.messages, result.done)


def write_table(path: Path, table: Table, result: BatchResult, config: Config,
                expected: str, cancel: Callable[[], bool]) -> Path:
    """Worker body: the scored table, then its sidecar; returns the sidecar's path."""
    write_scored_table(path, table, result)
    data = provenance(result, config_to_dict(config, [job.id for job in result.jobs]),
                      source=Path(table.path), expected=expected, model=config.model or None)
    return write_sidecar(path, data)


FIGURE_WIDTH = 1000  # logical pixels of an exported figure (the PNG is `width` pixels wide)
PLOT_HEIGHT = 480
MARGIN = 18
SWATCH = 26  # width of a legend sample


@dataclass(frozen=True)
class Swatch:
    """One legend entry: a sample of how it is drawn (box, line, dash, circle) and its words."""

    colour: QColor
    kind: str
    text: str


@dataclass(frozen=True)
class Figure:
    """What an exported plot says around itself."""

    title: str
    lines: tuple[str, ...] = ()
    legend: tuple[Swatch, ...] = ()
    x_label: str = ""
    y_label: str = ""
    omit: tuple[object, ...] = ()  # plot items to leave out of the figure (e.g. a drag handle)
    view_range: tuple[tuple[float, float], tuple[float, float]] | None = None  # else the plot's

    def description(self) -> str:
        parts = [*self.lines, *(s.text for s in self.legend)]
        if self.x_label:
            parts.append(f"x axis: {self.x_label}")
        if self.y_label:
            parts.append(f"y axis: {self.y_label}")
        return "\n".join(parts)


def describe(item: pg.PlotItem) -> Figure:
    """The figure text of a plot, from the view that owns it."""
    owner = _owner(item)
    if owner is not None and hasattr(owner, "export_figure"):
        return owner.export_figure()
    from matchlens.ui.batch.variants_view import VariantsView  # imports this module

    if isinstance(owner, VariantsView):
        return _variants_figure(owner)
    title = item.titleLabel.text if item.titleLabel.isVisible() else ""
    return Figure(title=title or "MatchLens plot", x_label=item.getAxis("bottom").labelText,
                  y_label=item.getAxis("left").labelText)


def _owner(item: pg.PlotItem) -> QWidget | None:
    view = item.getViewWidget()
    return view.parentWidget() if view is not None else None


def _variants_figure(view) -> Figure:
    """The B − A histogram of the Variants tab (variants_view.py is not ours to extend)."""
    from matchlens.core.metrics.registry import get_metric
    from matchlens.core.results import Direction
    from matchlens.ui.batch.colours import variant_colour

    label, a, b = view.metric.currentText(), view.a.currentText(), view.b.currentText()
    metric_id = view.metric.currentData()
    better = "higher"
    if metric_id is not None and get_metric(metric_id).direction is Direction.MIN:
        better = "lower"
    side = "right of 0" if better == "higher" else "left of 0"
    lines = [view.comparison.sentence(label) if view.comparison is not None
             else view.sentence.text(),
             f"{label}: {better} is better, so rows {side} are rows where {b} did better."]
    text = view.palette().color(QPalette.ColorRole.Text)
    legend = (Swatch(variant_colour(1, view.palette()), "box",
                     f"rows by their {b} − {a} score difference"),
              Swatch(text, "dash", "0: the same score"))
    return Figure(title=f"{label}: {b} − {a}, row by row", lines=tuple(lines), legend=legend,
                  x_label=f"{b} − {a} per row ({label} score)", y_label="rows")


def save_plot_png(item: pg.PlotItem, path: Path, width: int = 1200) -> None:
    """Render one plot with its title, legend and axis names to a PNG `width` pixels wide."""
    figure = describe(item)
    image = render_figure(item, figure, width)
    image.setText("Title", figure.title)
    image.setText("Description", figure.description())
    image.setText("Software", "MatchLens")
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OutputError(f"{path}: the plot could not be rendered as PNG")
    try:
        with atomic_writer(path, mode="wb") as handle:
            handle.write(bytes(buffer.data()))
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None


def render_figure(item: pg.PlotItem, figure: Figure, width: int = 1200) -> QImage:
    """Header (title, sentences, legend) above the plot redrawn at FIGURE_WIDTH x PLOT_HEIGHT."""
    owner = _owner(item)
    palette = owner.palette() if owner is not None else QApplication.palette()
    background = palette.color(QPalette.ColorRole.Base)
    ink = palette.color(QPalette.ColorRole.Text)
    scale = width / FIGURE_WIDTH
    body = QFont(QApplication.font())
    title_font = QFont(body)
    title_font.setBold(True)
    title_font.setPointSizeF(body.pointSizeF() * 1.3)
    inner = FIGURE_WIDTH - 2 * MARGIN
    flags = int(Qt.TextFlag.TextWordWrap)
    # Measure first: the image's height depends on how the words wrap.
    blocks: list[tuple[QFont, str, Swatch | None]] = [(title_font, figure.title, None)]
    blocks += [(body, line, None) for line in figure.lines]
    blocks += [(body, entry.text, entry) for entry in figure.legend]
    rects = []
    y = float(MARGIN)
    for font, text, entry in blocks:
        indent = SWATCH + 8 if entry is not None else 0
        rect = QFontMetricsF(font).boundingRect(QRectF(0, 0, inner - indent, 10_000), flags, text)
        rects.append(QRectF(MARGIN + indent, y, inner - indent, rect.height()))
        y += rect.height() + (8 if entry is None and font is title_font else 3)
    top = y + 6
    height = top + PLOT_HEIGHT + MARGIN / 2
    image = QImage(width, round(height * scale), QImage.Format.Format_ARGB32)
    image.fill(background)
    plot = _plot_image(item, figure, round(FIGURE_WIDTH * scale), round(PLOT_HEIGHT * scale))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.drawImage(QPointF(0, round(top * scale)), plot)
        painter.scale(scale, scale)
        for (font, text, entry), rect in zip(blocks, rects, strict=True):
            painter.setFont(font)
            painter.setPen(ink)
            painter.drawText(rect, flags, text)
            if entry is not None:
                line_height = QFontMetricsF(font).height()
                _draw_swatch(painter, entry, QRectF(MARGIN, rect.top(), SWATCH, line_height))
    finally:
        painter.end()
    return image


def _draw_swatch(painter: QPainter, entry: Swatch, rect: QRectF) -> None:
    mid = rect.center().y()
    colour = QColor(entry.colour)
    if entry.kind == "box":
        fill = QColor(colour)
        fill.setAlpha(110)
        painter.setPen(QPen(colour, 1.5))
        painter.setBrush(fill)
        painter.drawRect(QRectF(rect.left() + 4, mid - 6, rect.width() - 8, 12))
    elif entry.kind == "circle":
        painter.setPen(QPen(colour, 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(rect.center().x(), mid), 5.5, 5.5)
    else:
        pen = QPen(colour, 2 if entry.kind == "line" else 1.5)
        if entry.kind == "dash":
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(QPointF(rect.left(), mid), QPointF(rect.right(), mid))


def _plot_image(source: pg.PlotItem, figure: Figure, width: int, height: int) -> QImage:
    """The source plot's items and ranges, redrawn in an off-screen plot of a fixed size."""
    view = source.getViewWidget()
    axes = {name: type(source.getAxis(name))(name) for name in ("left", "bottom")}
    widget = pg.PlotWidget(axisItems=axes)
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    try:
        if view is not None:
            widget.setPalette(view.palette())
            widget.setBackground(view.backgroundBrush().color())
        item = widget.getPlotItem()
        item.hideButtons()
        for name, text in (("bottom", figure.x_label), ("left", figure.y_label)):
            theirs = source.getAxis(name)
            axis = item.getAxis(name)
            axis.setPen(theirs.pen())
            axis.setTextPen(theirs.textPen())
            axis.setLabel(text or theirs.labelText, color=theirs.textPen().color())
        for child in source.items:
            if any(child is left_out for left_out in figure.omit):
                continue
            clone = _clone(child)
            if clone is not None:
                clone.setZValue(child.zValue())
                item.addItem(clone)
        (x0, x1), (y0, y1) = figure.view_range or source.viewRange()
        item.enableAutoRange(x=False, y=False)
        item.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
        widget.resize(FIGURE_WIDTH, PLOT_HEIGHT)
        widget.show()  # off screen: lays the plot out at its size
        exporter = pg.exporters.ImageExporter(item)
        exporter.parameters()["width"] = width
        exporter.parameters()["height"] = height
        return exporter.export(toBytes=True)
    finally:
        widget.close()
        widget.deleteLater()


def _clone(child) -> pg.GraphicsObject | None:
    """A copy of a plot item for the figure (the plot kinds the batch tab draws)."""
    if not child.isVisible():
        return None
    if isinstance(child, pg.InfiniteLine):
        label = getattr(child, "label", None)
        words = label.toPlainText() if label is not None and label.isVisible() else ""
        options = {}
        if words:
            options = {"label": words, "labelOpts": {
                "position": label.orthoPos, "color": label.color, "fill": label.fill,
                "movable": False}}
        return pg.InfiniteLine(pos=child.value(), angle=child.angle, pen=child.pen, **options)
    if isinstance(child, pg.PlotDataItem):
        x, y = child.getOriginalDataset()
        if x is None:
            return None
        keep = ("pen", "fillBrush", "fillLevel", "fillOutline", "stepMode", "symbol",
                "symbolSize", "symbolPen", "symbolBrush")
        return pg.PlotDataItem(x, y, **{k: child.opts[k] for k in keep if k in child.opts})
    if isinstance(child, pg.ScatterPlotItem):
        x, y = child.getData()
        return pg.ScatterPlotItem(x=x, y=y, size=child.opts["size"], pen=child.opts["pen"],
                                  brush=child.opts["brush"], symbol=child.opts.get("symbol"))
    return None
