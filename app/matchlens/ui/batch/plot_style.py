"""What every batch plot shares: the count axis, the plot style, threshold decimals and
snapping, and a label whose height does not jump as its text changes.
"""

from __future__ import annotations

import html
import math

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QPalette, QResizeEvent, QShowEvent, QTextDocument
from PySide6.QtWidgets import QLabel, QWidget

from matchlens.core.labels.calibration import shown_decimals
from matchlens.core.metrics.registry import MetricSpec


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


def nowrap(text: str) -> str:
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
