"""Issue 24, item 7's small ones: the metrics ticked are remembered for the next dataset and the
next start; the compare toolbar never says "no differences" before a diff is computed."""

from __future__ import annotations

import pytest

from matchlens.ui.compare.compare_tab import CompareTab
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import load, small_dataset, wait_idle

CHOSEN = ("exact_match", "json_distance", "chrf")


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_the_metrics_scored_last_are_ticked_for_the_next_file_and_start(qtbot, tmp_path):
    data = small_dataset(tmp_path / "small.csv")
    window = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(window)
    tab = window.batch_tab
    load(qtbot, tab, data)
    assert tab.mapping_panel.mapping().metrics != CHOSEN  # the defaults, first
    tab.mapping_panel.set_metrics(CHOSEN)
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        tab.mapping_panel.score_button.click()
    wait_idle(qtbot, tab)
    window.close()
    again = MainWindow(ConfigModel(), settings=window.settings, restore=False)
    qtbot.addWidget(again)
    load(qtbot, again.batch_tab, data)
    assert set(again.batch_tab.mapping_panel.mapping().metrics) == set(CHOSEN)
    assert {job.id for job in again.batch_tab.result.jobs} == set(CHOSEN)
    again.close()


def test_no_differences_is_said_only_once_a_diff_is_computed(qtbot):
    tab = CompareTab(ConfigModel())
    qtbot.addWidget(tab)
    label = tab.difference_label  # before any diff: nothing is claimed
    assert "no differences" not in label.text()
    tab.set_texts("same", "same")
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=20_000)
    assert label.text().strip() == "no differences"
