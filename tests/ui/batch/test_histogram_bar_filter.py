"""Click a histogram bar: the table shows the rows that bar counts, the Show box names them, and
one click clears it (issue 24, item 8). The bar is clicked with the mouse on the real plot; the
rows expected are those core's Histogram counts in that bar."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from matchlens.core.paths import sample_dataset
from matchlens.core.scoring.stats import Histogram
from matchlens.ui.config_model import ConfigModel
from tests.ui.batch_support import load, make_tab, wait_idle


def _click_bar(qtbot, tab, metric_id: str, x: float) -> None:
    tab.tabs.setCurrentWidget(tab.histograms)
    panel = tab.histograms.panels[metric_id]
    tab.histograms.ensureWidgetVisible(panel)
    view = panel.plot.getPlotItem().vb
    (_x0, _x1), (y0, y1) = view.viewRange()
    scene = view.mapViewToScene(QPointF(x, y0 + 0.05 * (y1 - y0)))  # low in the bar
    point = panel.plot.mapFromScene(scene)
    QTest.mouseClick(panel.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    wait_idle(qtbot, tab)


@pytest.mark.qt_log_ignore("propagateSizeHints")
@pytest.mark.parametrize("metric_id", ["jaccard", "levenshtein_distance"])
def test_a_bar_clicked_shows_its_rows_and_one_click_clears_it(qtbot, metric_id):
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, sample_dataset())
    variant = tab.model.variant()
    scores = tab.result.scores[(variant, metric_id)]
    core = Histogram(tab.result.jobs[[j.id for j in tab.result.jobs].index(metric_id)].spec)
    core.add(scores)
    edges, counts = core.bars()
    index = int(np.argmax(counts))  # the tallest bar of the selected variant
    _click_bar(qtbot, tab, metric_id, (edges[index] + edges[index + 1]) / 2)
    bar = tab.table_bar
    assert tab.model.rowCount() == counts[index]  # every row that bar counts, and no other
    assert "(chart bar)" in bar.filter.currentText()
    assert f"{edges[index]:.3g}" in bar.filter.currentText()
    assert not bar.clear_filter.isHidden()
    bar.clear_filter.click()
    wait_idle(qtbot, tab)
    assert tab.model.rowCount() == len(scores) and bar.filter.currentText() == "All rows"
    assert bar.clear_filter.isHidden()
    assert all("(chart bar)" not in bar.filter.itemText(i) for i in range(bar.filter.count()))
