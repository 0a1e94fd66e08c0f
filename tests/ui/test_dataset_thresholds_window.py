"""Thresholds belong to a dataset (issue 24, item 4): tuning one dataset never changes another's
verdicts, a dataset opens with its own, a new one starts from the user's defaults, the status
bar names the file in effect, and a window started with --config never follows a dataset."""

from __future__ import annotations

import shutil

import pytest

from matchlens.core.config import load_config
from matchlens.core.dataset_thresholds import beside_path, kept_away_path
from matchlens.ui.config_model import ConfigModel, default_config_path
from matchlens.ui.main_window import MainWindow
from tests.read_only import read_only
from tests.ui.batch_support import load, small_dataset

METRIC = "jaccard"


def _window(qtbot, config: ConfigModel) -> MainWindow:
    window = MainWindow(config, restore=False)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_each_dataset_keeps_its_own_and_a_new_one_starts_from_the_defaults(qtbot, tmp_path):
    default_config_path().unlink(missing_ok=True)
    first = small_dataset(tmp_path / "first.csv")
    second = tmp_path / "second.csv"
    shutil.copy(first, second)
    window = _window(qtbot, ConfigModel.from_disk())
    config, tab = window.config, window.batch_tab
    config.set_threshold(METRIC, 0.25)  # no dataset yet: the user's defaults
    load(qtbot, tab, first)
    assert config.settings(METRIC).threshold == 0.25  # a new dataset starts from the defaults
    assert window.thresholds_label.text() == "Thresholds: your defaults (new dataset)"
    config.set_threshold(METRIC, 0.39)
    config.flush()
    assert load_config(beside_path(first)).thresholds[METRIC] == 0.39
    assert window.thresholds_label.text() == "Thresholds: first.csv.thresholds.toml"
    assert str(beside_path(first)) in window.thresholds_label.toolTip()
    assert tab.model.view_data().thresholds[METRIC] == 0.39  # the table judges with it

    load(qtbot, tab, second)  # tuning `first` did not touch `second`
    assert config.settings(METRIC).threshold == 0.25
    assert not beside_path(second).exists()
    assert tab.model.view_data().thresholds[METRIC] == 0.25
    assert not window.action_undo.isEnabled()  # a step on `first` never applies here

    load(qtbot, tab, first)  # back: its own again
    assert config.settings(METRIC).threshold == 0.39
    window.close()
    assert load_config(default_config_path()).thresholds[METRIC] == 0.25  # defaults unchanged


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_a_read_only_dataset_keeps_them_in_the_data_folder(qtbot, tmp_path):
    (tmp_path / "shipped").mkdir()
    data = small_dataset(tmp_path / "shipped" / "qa.csv")
    window = _window(qtbot, ConfigModel.from_disk())
    with read_only(data.parent):
        load(qtbot, window.batch_tab, data)
        window.config.set_threshold(METRIC, 0.33)
        window.config.flush()
        assert not beside_path(data).exists()
    assert load_config(kept_away_path(data)).thresholds[METRIC] == 0.33
    assert "your data folder" in window.thresholds_label.toolTip()


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_given_config_always_wins(qtbot, tmp_path):
    data = small_dataset(tmp_path / "qa.csv")
    beside_path(data).write_text(f"[metrics.{METRIC}]\nthreshold = 0.9\n", encoding="utf-8")
    given = tmp_path / "given.toml"
    given.write_text(f"[metrics.{METRIC}]\nthreshold = 0.2\n", encoding="utf-8")
    config = ConfigModel(load_config(given))
    config.given_path = given
    window = _window(qtbot, config)
    load(qtbot, window.batch_tab, data)
    assert config.settings(METRIC).threshold == 0.2
    assert window.thresholds_label.text() == "Thresholds: given.toml (--config)"
