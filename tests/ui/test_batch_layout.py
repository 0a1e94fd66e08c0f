"""At 1280×720 the Batch tab shows at least 8 table rows with the plots visible; neither can be
dragged away; the mapping panel folds away; the splitters' sizes survive a restart (issue 24,
item 6)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from matchlens.core.paths import sample_dataset
from matchlens.ui.batch.tab_layout import MIN_PLOTS_HEIGHT
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import load


def _window(qtbot, restore: bool, settings=None) -> MainWindow:
    window = MainWindow(ConfigModel(), settings=settings, restore=restore)
    qtbot.addWidget(window)
    window.fit_screen = False
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    window.tabs.setCurrentWidget(window.batch_tab)
    return window


def _full_rows(tab) -> int:
    view = tab.view
    return view.viewport().height() // view.verticalHeader().defaultSectionSize()


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_eight_rows_and_the_plots_at_1280x720_and_nothing_vanishes(qtbot):
    window = _window(qtbot, restore=False)
    tab = window.batch_tab
    load(qtbot, tab, sample_dataset())
    QApplication.processEvents()
    assert _full_rows(tab) >= 8
    assert tab.tabs.height() >= MIN_PLOTS_HEIGHT
    assert tab.histograms.isVisible()
    total = sum(tab.right_split.sizes())
    tab.right_split.setSizes([total, 0])  # as a drag to the bottom edge
    assert tab.right_split.sizes()[1] >= MIN_PLOTS_HEIGHT  # plots shrink, never vanish
    tab.right_split.setSizes([0, total])
    assert tab.right_split.sizes()[0] > 0
    width = tab.view.width()
    window.action_mapping.trigger()  # fold the mapping panel away: the table gets its width
    QApplication.processEvents()
    assert tab.mapping_panel.isHidden() and tab.view.width() > width
    window.close()


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_the_splitter_sizes_and_the_folded_panel_survive_a_restart(qtbot):
    window = _window(qtbot, restore=True)
    tab = window.batch_tab
    total = sum(tab.right_split.sizes())
    tab.right_split.setSizes([total - 300, 300])
    chosen = tab.right_split.sizes()
    window.action_mapping.trigger()
    window.close()
    again = _window(qtbot, restore=True, settings=window.settings)
    QApplication.processEvents()
    assert again.batch_tab.right_split.sizes() == chosen
    assert again.batch_tab.mapping_panel.isHidden()
    assert not again.action_mapping.isChecked()
    again.close()
