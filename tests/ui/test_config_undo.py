"""Thresholds survive restarts (read after every metric is registered, a bad file kept aside),
and every threshold or option change is one undoable step (Edit menu, Ctrl+Z, Ctrl+Shift+Z)."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from matchlens.core.metrics import registry
from matchlens.ui import app as app_module
from matchlens.ui.config_model import ConfigModel, default_config_path


def _compare_args(tmp_path: Path) -> argparse.Namespace:
    left, right = tmp_path / "a.txt", tmp_path / "b.txt"
    left.write_text("Paris\n", encoding="utf-8")
    right.write_text("paris\n", encoding="utf-8")
    return argparse.Namespace(command="compare", expected_file=left, actual_file=right,
                              json=False, screenshot=None)


@pytest.fixture
def open_window(qtbot, tmp_path):
    windows = []

    def make():
        window, errors, _ = app_module.build_window(_compare_args(tmp_path), screenshot=False)
        qtbot.addWidget(window)
        windows.append(window)
        assert not errors
        return window

    yield make
    for window in windows:
        window.shutdown()


def test_saved_semantic_threshold_survives_a_restart(qtbot, open_window, monkeypatch):
    # As on a fresh start: semantic_similarity is not registered until the window registers it.
    monkeypatch.delitem(registry.REGISTRY, "semantic_similarity", raising=False)
    monkeypatch.delitem(sys.modules, "matchlens.embeddings.metric", raising=False)
    path = default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[metrics.semantic_similarity]\nthreshold = 0.91\n\n"
                    "[metrics.jaccard]\nthreshold = 0.42\n", encoding="utf-8")
    window = open_window()
    assert window.config.settings("semantic_similarity").threshold == 0.91
    assert window.config.settings("jaccard").threshold == 0.42
    assert window.notice.isHidden()  # nothing to say
    window.config.set_threshold("jaccard", 0.5)
    window.shutdown()  # flushes the autosave
    second = open_window()
    assert second.config.settings("jaccard").threshold == 0.5
    assert second.config.settings("semantic_similarity").threshold == 0.91


def test_unreadable_settings_are_kept_aside_and_said_until_dismissed(qtbot, open_window):
    path = default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    broken = "[metrics.jaccard\nthreshold = 0.42\n"  # not TOML: the table header is not closed
    path.write_text(broken, encoding="utf-8")
    window = open_window()
    kept = path.with_name(f"config.toml.unreadable-{datetime.date.today().isoformat()}")
    assert kept.read_text(encoding="utf-8") == broken  # kept, byte for byte
    assert not path.exists()
    notice = window.notice.text()
    assert "could not be read" in notice and kept.name in notice
    # The status bar moves on (it said "Loaded…" over it before); the notice does not.
    window.show_status("Comparing a.txt with b.txt.")
    window.config.set_threshold("jaccard", 0.3)
    window.config.flush()
    assert window.notice.text() == notice and not window.notice.isHidden()
    assert kept.read_text(encoding="utf-8") == broken  # the autosave wrote config.toml only
    assert path.exists()
    window.notice.dismiss_button.click()
    assert window.notice.isHidden()
    # A second bad file on the same day does not overwrite the first one kept.
    path.write_text("not = [toml", encoding="utf-8")
    open_window()
    assert kept.read_text(encoding="utf-8") == broken
    assert kept.with_name(kept.name + "-2").read_text(encoding="utf-8") == "not = [toml"


def test_edit_menu_undoes_and_redoes_with_the_keys(qtbot, open_window):
    window = open_window()
    with qtbot.waitActive(window):  # shortcuts answer in the active window only
        window.show()
        window.activateWindow()
    config = window.config
    menus = {a.text(): a.menu() for a in window.menuBar().actions()}
    assert window.action_undo in menus["&Edit"].actions()
    assert window.action_undo.shortcut() == QKeySequence("Ctrl+Z")
    assert QKeySequence("Ctrl+Shift+Z") in window.action_redo.shortcuts()
    assert not window.action_undo.isEnabled()
    config.set_threshold("jaccard", 0.4)
    before = config.settings("levenshtein_similarity").options["case_sensitive"]
    config.set_option("levenshtein_similarity", "case_sensitive", not before)
    assert "case sensitive" in window.action_undo.text()
    window.tabs.tabBar().setFocus()  # not an editor: those keep Ctrl+Z for their own text
    QTest.keyClick(window.tabs.tabBar(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert config.settings("levenshtein_similarity").options["case_sensitive"] is before
    assert config.settings("jaccard").threshold == 0.4
    QTest.keyClick(window.tabs.tabBar(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert config.settings("jaccard").threshold == 0.5  # the registry default
    assert "Jaccard" in window.action_redo.text()
    QTest.keyClick(window.tabs.tabBar(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert config.settings("jaccard").threshold == 0.4
    # The compare panel shows what the model holds after each step.
    panel = window.compare_tab.panels["jaccard"]
    assert panel.threshold.spin.value() == pytest.approx(0.4)


def test_a_slider_drag_is_one_step(qtbot, compare_tab, config):
    slider = compare_tab.panels["levenshtein_similarity"].threshold.slider
    steps = config.undo_stack.count()
    slider.setSliderDown(True)
    for position in (72, 75, 81, 85):  # slider 85 of 100 on 0..1 -> 0.85
        slider.setValue(position)
    slider.setSliderDown(False)
    assert config.settings("levenshtein_similarity").threshold == 0.85
    assert config.undo_stack.count() == steps + 1
    config.undo_stack.undo()
    assert config.settings("levenshtein_similarity").threshold == 0.7
    assert slider.value() == 70
    # A second drag is a second step, not merged into the first.
    config.undo_stack.redo()
    slider.setSliderDown(True)
    slider.setValue(90)
    slider.setSliderDown(False)
    assert config.undo_stack.count() == steps + 2
    config.undo_stack.undo()
    assert config.settings("levenshtein_similarity").threshold == 0.85


def test_a_gesture_that_ends_where_it_began_leaves_no_step():
    config = ConfigModel()
    key = ("drag", "jaccard", 0)
    config.set_threshold("jaccard", 0.6, merge_key=key)
    config.set_threshold("jaccard", 0.5, merge_key=key)  # back to the default
    assert config.undo_stack.count() == 0 and not config.undo_stack.canUndo()
