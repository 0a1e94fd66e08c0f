"""Histogram panels: dragged thresholds at the shown precision, count axes that fit, a header
that wraps between legend entries, and a "no threshold" hint nothing draws over."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QTextDocument

from matchlens.core.metrics.registry import get_metric
from matchlens.core.results import Direction, threshold_text
from matchlens.ui.batch.histograms import MetricHistogram
from tests.ui.batch_support import drag_line, wait_idle


@pytest.fixture
def tab(sample_tab):
    return sample_tab


def _plain(html_text: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html_text)
    return doc.toPlainText().replace("\xa0", " ")


def test_a_dragged_threshold_is_stored_as_it_is_shown(qtbot, tab, config):
    panel = tab.histograms.panels["jaccard"]
    drag_line(panel, 0.3, 0.402, release=False)  # where a drag lets go, between two pixels
    # While dragging the label reads "≥ 0.40": the 2 decimals every threshold is shown with.
    assert panel.line.label.toPlainText() == "≥ 0.40"
    drag_line(panel, 0.402)
    stored = config.settings("jaccard").threshold
    assert stored == 0.4  # not 0.402: the stored value is the one the label showed
    assert threshold_text(Direction.MAX, stored) == "≥ 0.40"
    assert "≥ 0.40" in _plain(panel.title.text())
    # The sample has 3 output_a rows with Jaccard exactly 0.4: they pass at the stored 0.40
    # (they would fail at 0.402 while the panel said "≥ 0.40"). The panel counts them.
    scores = tab.result.scores[("output_a", "jaccard")]
    passed = int(np.sum(scores >= 0.4))
    assert int(np.sum((scores >= 0.4) & (scores < 0.402))) == 3
    assert f"pass {passed / 200:.1%} ({passed}/200)" in _plain(panel.stats.text())
    wait_idle(qtbot, tab)


def test_an_integer_metric_snaps_to_whole_numbers(qtbot, tab, config):
    panel = tab.histograms.panels["levenshtein_distance"]
    # An edit distance of 3.4 does not exist: the line stops on a whole number while dragged
    # (the pixel nearest 3.4 spans ~0.4 here, so which one is read back from the line), and
    # that number is shown and stored.
    drag_line(panel, 6.0, 3.4, release=False)
    where = panel.line.value()
    assert where == round(where) and abs(where - 3.4) < 1
    assert panel.line.label.toPlainText() == f"≤ {round(where)}"
    assert config.settings("levenshtein_distance").threshold == where
    drag_line(panel, 3.4)
    assert config.settings("levenshtein_distance").threshold == where
    wait_idle(qtbot, tab)


@pytest.fixture
def panel(qtbot):
    panel = MetricHistogram(get_metric("levenshtein_distance"))
    qtbot.addWidget(panel)
    panel.resize(330, 260)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_variants(["output_a", "output_b"])
    return panel


@pytest.mark.parametrize("rows", [95, 12_345, 1_000_000, 25_000_000])
def test_count_labels_fit_the_axis_at_any_size(qtbot, panel, rows):
    edges = np.arange(0, 52) - 0.5
    counts = np.zeros(51)
    counts[0] = rows
    panel.set_bars("output_a", edges, counts)
    panel.set_range(0, 50)
    panel.reset_y()
    panel.fit_y(rows)  # y from 0 to rows x 1.1
    qtbot.wait(20)
    axis = panel.plot.getPlotItem().getAxis("left")
    lo, hi = axis.range
    assert hi == pytest.approx(rows * 1.1)
    strings = []
    for spacing, values in axis.tickValues(lo, hi, axis.height()):
        strings += axis.tickStrings(values, axis.scale, spacing)
    # The room for a tick label is the axis width less the "rows" title (drawn rotated, its
    # height x 0.8 as AxisItem counts it), the gap to the text and the tick marks.
    metrics = QFontMetricsF(panel.plot.font())
    room = (axis.width() - axis.label.boundingRect().height() * 0.8
            - axis.style["tickTextOffset"][0] - max(0, axis.style["tickLength"]))
    widest = max(metrics.horizontalAdvance(s) for s in strings)
    assert widest <= room, (strings, widest, room)
    # No label sits so near the top that the plot's edge cuts it (95 rows: a "100" tick at
    # 104.5 used to be drawn half outside).
    half_text = metrics.height() / 2
    for _, values in axis.tickValues(lo, hi, axis.height()):
        for value in values:
            assert (hi - value) / (hi - lo) * axis.height() >= half_text, value
    if rows == 1_000_000:
        assert "1M" in strings  # SI-style: 1,000,000 reads "1M", not "1000000"
    if rows == 12_345:
        assert "10k" in strings


def test_the_legend_wraps_between_entries_never_inside_one(qtbot, panel):
    panel.set_mean("output_a", 14.0909)
    panel.set_mean("output_b", 8.2121)
    panel.set_threshold(None, 11.0)
    entries = ["■ output_a mean 14.09", "■ output_b mean 8.21"]
    plain = _plain(panel.title.text())
    assert all(entry in plain for entry in entries)
    # Lay the header out as the label does, at every width where an entry fits on a line: each
    # legend entry must sit whole on one line (before: "■" ended a line, "output_a mean 14.09"
    # began the next).
    metrics = QFontMetricsF(panel.title.font())
    narrowest = int(max(metrics.horizontalAdvance(entry) for entry in entries)) + 4
    doc = QTextDocument()
    doc.setDefaultFont(panel.title.font())
    doc.setDocumentMargin(0)
    doc.setHtml(panel.title.text())
    for width in range(narrowest, 720, 3):
        doc.setTextWidth(width)
        doc.documentLayout().documentSize()  # lays the text out now
        lines = []
        block = doc.begin()
        while block.isValid():
            layout = block.layout()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                lines.append(block.text()[line.textStart():line.textStart() + line.textLength()]
                             .replace("\xa0", " ").replace("\u2028", "").strip())
            block = block.next()
        for entry in entries:
            assert any(entry in line for line in lines), (width, lines)
        assert not any(line.endswith("■") for line in lines), (width, lines)


def test_no_threshold_is_said_where_nothing_draws_over_it(qtbot, panel):
    panel.set_mean("output_a", 14.09)
    panel.set_mean("output_b", 8.21)
    panel.set_threshold(None, 11.0)  # the dashed mean lines sit at 8.21 and 14.09, near 11
    # The hint is in the header (a label of its own), not a text item on the plot.
    assert "no threshold: drag the line to set one" in _plain(panel.title.text())
    assert not panel.line.label.isVisible()
    texts = [item for item in panel.plot.getPlotItem().getViewBox().allChildren()
             if hasattr(item, "toPlainText") and item.isVisible()]
    assert not [t.toPlainText() for t in texts if t.toPlainText()]
    # Once set, the value's label has the plot background behind it (mean lines pass under).
    panel.set_threshold(3.0, 11.0)
    assert panel.line.label.isVisible() and panel.line.label.toPlainText() == "≤ 3"
    assert panel.line.label.fill.style() != Qt.BrushStyle.NoBrush
    assert "≤ 3" in _plain(panel.title.text())
