"""The main window: menus, files, persistence, batch-row wiring, --screenshot."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDropEvent, QImage, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from matchlens.core.config import load_config
from matchlens.core.paths import sample_dataset
from matchlens.ui import app as app_module
from matchlens.ui import main_window as main_window_module
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import BATCH_PLACEHOLDER, MainWindow
from tests.ui.conftest import wait_done


@pytest.fixture
def window(qtbot):
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


def _actions(win: MainWindow) -> dict[str, str]:
    out = {}
    for menu_action in win.menuBar().actions():
        for action in menu_action.menu().actions():
            out[action.text().replace("&", "")] = action.shortcut().toString()
    return out


def test_tabs_and_menus(window) -> None:
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Compare", "Batch"]
    if window.batch_tab is None:
        placeholder = window.tabs.widget(1)
        assert isinstance(placeholder, QLabel) and placeholder.text() == BATCH_PLACEHOLDER
    actions = _actions(window)
    assert actions["Open expected…"] == QKeySequence(QKeySequence.StandardKey.Open).toString()
    assert actions["Open actual…"] == "Ctrl+Shift+O"
    assert actions["Next difference"] == "F7"
    assert actions["Previous difference"] == "Shift+F7"
    assert actions["Next row"] == "Alt+Down"
    assert actions["Previous row"] == "Alt+Up"
    assert actions["Next failing row"] == "Ctrl+F7"
    for name in ("Open dataset…", "Save thresholds…", "Quit", "Wrap lines", "Monospace font",
                 "Show whitespace (· → ¶)", "Lock scrolling", "About MatchLens"):
        assert name in actions


def test_missing_file_is_a_sentence_naming_it(window, tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    good = tmp_path / "good.txt"
    good.write_text("hello", encoding="utf-8")
    errors = window.load_pair(missing, good)
    assert errors == [f"Could not open {missing}: there is no such file."]
    assert window.statusBar().currentMessage() == errors[0]
    assert window.compare_tab.texts() == ("", "hello")


def test_undecodable_file_is_a_sentence(window, tmp_path: Path) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("café".encode("latin-1"))
    errors = window.load_pair(bad, bad)
    assert errors[0] == f"Could not open {bad}: it is not UTF-8 text (byte 0xe9 at position 4)."


def test_files_load_with_bom_and_crlf(qtbot, window, tmp_path: Path) -> None:
    exp, act = tmp_path / "e.txt", tmp_path / "a.txt"
    exp.write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    act.write_text("one\ntwo\n", encoding="utf-8")
    assert window.load_pair(exp, act) == []
    wait_done(qtbot, window.compare_tab)
    assert window.compare_tab.texts() == ("one\ntwo\n", "one\ntwo\n")
    assert window.compare_tab.panels["exact_match"].result().score == 1.0
    assert [k for k, _ in window.recent_files()] == ["actual", "expected"]


def test_drop_a_file_on_an_editor(qtbot, window, tmp_path: Path) -> None:
    path = tmp_path / "dropped.txt"
    path.write_text("dropped text", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    editor = window.compare_tab.editor("actual")
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    editor.dropEvent(event)
    assert window.compare_tab.texts()[1] == "dropped text"
    assert "dropped.txt" in window.compare_tab.panes["actual"].header.text()


def test_swap_sides(qtbot, window) -> None:
    window.compare_tab.set_texts("left", "right")
    window.compare_tab.swap_sides()
    assert window.compare_tab.texts() == ("right", "left")


def test_save_thresholds_writes_the_toml_score_reads(qtbot, window, tmp_path: Path) -> None:
    window.config.set_threshold("levenshtein_similarity", 0.85)
    window.config.set_option("exact_match", "case_sensitive", False)
    path = tmp_path / "thresholds.toml"
    assert window.save_thresholds(path)
    loaded = load_config(path)
    assert loaded.settings("levenshtein_similarity").threshold == 0.85
    assert loaded.settings("exact_match").options["case_sensitive"] is False
    assert tomllib.loads(path.read_text(encoding="utf-8"))["metrics"]["jaccard"]["threshold"] == 0.5


def test_view_options_and_geometry_survive_a_restart(qtbot) -> None:
    first = MainWindow(ConfigModel())
    qtbot.addWidget(first)
    first.action_wrap.setChecked(False)
    first.action_whitespace.setChecked(True)
    first.compare_tab.set_granularity("word")
    first.compare_tab.set_scroll_locked(False)
    first.resize(700, 500)  # inside the 800 × 600 offscreen screen
    first.add_recent("dataset", Path("/tmp/data.csv"))
    first.save_settings()
    first.shutdown()

    second = MainWindow(ConfigModel())
    qtbot.addWidget(second)
    try:
        assert not second.action_wrap.isChecked()
        assert second.compare_tab.editor("expected").lineWrapMode().name == "NoWrap"
        assert second.action_whitespace.isChecked()
        assert second.compare_tab.granularity == "word"
        assert not second.compare_tab.action_lock.isChecked()
        assert (second.width(), second.height()) == (700, 500)
        assert second.recent_files()[0] == ("dataset", str(Path("/tmp/data.csv").resolve()))
    finally:
        second.shutdown()


class FakeBatchTab(QWidget):
    """The agreed BatchTab interface (signals and methods), standing in for the real tab."""

    sig_open_row = Signal(int)
    sig_status = Signal(str)
    sig_finished = Signal()

    def __init__(self, config: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = [("a", "a", "pass"), ("b", "c", "fail"), ("d", "d", "pass"), ("e", "f", "fail")]
        self.loads: list[tuple] = []

    def load(self, path, expected=None, actuals=None, label=None, score=True, encoding=None,
             **reading) -> None:
        self.loads.append((path, expected, actuals, label))
        QTimer.singleShot(300, self.sig_finished.emit)  # scoring and plots take a moment

    def is_busy(self) -> bool:
        return False

    memory = None  # the window's settings (the metrics last scored)

    def layout_state(self) -> dict:
        return {}

    def restore_layout(self, state: dict) -> None:
        pass

    def show_mapping(self, on: bool) -> None:
        pass

    def pair_for_row(self, row: int):
        expected, actual, verdict = self.rows[row]
        return expected, actual, f"row {row + 1} of {len(self.rows)} · output_a · {verdict}"

    def references_for_row(self, row: int):
        return None  # one reference a row here (test_batch_references covers several)

    def neighbour_row(self, row: int, step: int, failing_only: bool = False):
        row += step
        while 0 <= row < len(self.rows):
            if not failing_only or self.rows[row][2] == "fail":
                return row
            row += step
        return None


@pytest.fixture
def fake_batch(monkeypatch):
    monkeypatch.setattr(main_window_module, "_make_batch_tab",
                        lambda config, parent: FakeBatchTab(config, parent))


def test_rows_from_the_batch_tab(qtbot, fake_batch) -> None:
    window = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(window)
    try:
        assert isinstance(window.batch_tab, FakeBatchTab)
        assert not window.action_next_row.isEnabled()
        row_bar = window.compare_tab.row_bar
        buttons = {b.text(): b for b in row_bar.actions()
                   if b.text() in ("◀ Row", "Row ▶", "Next failing ▶")}
        assert len(buttons) == 3 and row_bar.isHidden()
        window.batch_tab.sig_open_row.emit(0)  # the user double-clicked row 1
        assert not row_bar.isHidden()  # row stepping on the row's own bar
        buttons["Row ▶"].trigger()
        assert window.compare_tab.texts() == ("b", "c")
        window.action_previous_row.trigger()
        assert window.tabs.currentWidget() is window.compare_tab
        assert window.compare_tab.context_label.text() == "row 1 of 4 · output_a · pass"
        assert window.action_next_row.isEnabled()
        window.action_next_row.trigger()
        assert window.compare_tab.texts() == ("b", "c")
        window.action_next_failing.trigger()
        assert window.compare_tab.context_label.text() == "row 4 of 4 · output_a · fail"
        window.action_next_failing.trigger()
        assert window.statusBar().currentMessage() == "There is no failing row after this one."
        window.action_previous_row.trigger()
        assert window.compare_tab.texts() == ("d", "d")
        window.batch_tab.sig_status.emit("Scored 4 rows.")
        assert window.statusBar().currentMessage() == "Scored 4 rows."
    finally:
        window.shutdown()


def test_screenshot_without_arguments_waits_for_the_batch_tab(qtbot, fake_batch,
                                                             tmp_path: Path) -> None:
    png = tmp_path / "start.png"
    code = app_module.run_app(_args(command=None, screenshot=png))
    assert code == 0 and png.exists()
    window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)
                  and isinstance(w.batch_tab, FakeBatchTab) and w.batch_tab.loads)
    assert window.batch_finished
    path, expected, actuals, label = window.batch_tab.loads[0]
    assert (expected, actuals, label) == ("expected", ["output_a", "output_b"], "label")
    assert path == sample_dataset()
    assert window.compare_tab.texts()[0].startswith("Photosynthesis")
    window.deleteLater()


def _args(**kwargs) -> argparse.Namespace:
    base = {"command": "compare", "screenshot": None, "config": None, "json": False}
    return argparse.Namespace(**{**base, **kwargs})


def test_screenshot_of_a_compare(qtbot, tmp_path: Path) -> None:
    exp, act = tmp_path / "e.json", tmp_path / "a.json"
    exp.write_text('{"a": 1, "b": [1, 2]}', encoding="utf-8")
    act.write_text('{"a": 2, "b": [1, 2]}', encoding="utf-8")
    png = tmp_path / "shot.png"
    code = app_module.run_app(_args(expected_file=exp, actual_file=act, screenshot=png,
                                    json=True))
    assert code == 0
    image = QImage(str(png))
    assert (image.width(), image.height()) == app_module.SCREENSHOT_SIZE
    assert QApplication.applicationName() == "MatchLens"


def test_screenshot_of_a_missing_file_exits_2_with_a_sentence(qtbot, tmp_path: Path,
                                                                capsys) -> None:
    missing = tmp_path / "missing.txt"
    code = app_module.run_app(_args(expected_file=missing, actual_file=missing,
                                    screenshot=tmp_path / "x.png"))
    assert code == 2
    assert f"matchlens: Could not open {missing}: there is no such file." in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_sample_pair_falls_back_to_a_built_in_pair(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MATCHLENS_RESOURCES", str(tmp_path))
    expected, actual, sources = app_module.sample_texts()
    assert (expected, actual) == app_module.BUILTIN_PAIR
    assert sources == ("built-in sample", "built-in sample")


def test_pyside_leaks_cannot_exhaust_none_or_true() -> None:
    import sys

    from matchlens.ui import pyside_fixes

    # PySide6 6.12.0 takes a reference from None per void call and from True per emit (see
    # pyside_fixes); once applied, a long session cannot bring their counts to zero.
    active = pyside_fixes.apply()
    if any(pyside_fixes.leaks().values()):
        assert active
        assert sys.getrefcount(None) > 1 << 39 and sys.getrefcount(True) > 1 << 39


def test_batch_screenshot_saves_once_scored_and_drawn(tmp_path: Path) -> None:
    """`matchlens batch DATA --screenshot` as a user runs it: the window finishes, never times out."""
    import os
    import subprocess
    import sys

    data = tmp_path / "d.csv"
    data.write_text("expected,actual\nParis,Paris\nRome,Roma\n", encoding="utf-8")
    png = tmp_path / "batch.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MATCHLENS_SCREENSHOT_TIMEOUT": "25",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-m", "matchlens", "batch", str(data),
                           "--screenshot", str(png)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "still working" not in done.stderr  # it waited for the work, not for the deadline
    image = QImage(str(png))
    assert (image.width(), image.height()) == app_module.SCREENSHOT_SIZE


def test_a_screenshot_waits_with_a_still_busy_bar(window, tmp_path: Path) -> None:
    bar = window.compare_tab.metrics.busy_bar
    assert bar.maximum() == 0  # in the window a user watches: the moving "computing" bar
    job = app_module.ScreenshotJob(window, tmp_path / "shot.png", wait_for_batch=False)
    assert bar.maximum() > 0  # nobody watches a screenshot's wait: it stands still
    job.deleteLater()
