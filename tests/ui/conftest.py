"""Qt fixtures for the window tests: real widgets, offscreen, and no thread left behind."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QThreadPool

from matchlens.ui import gui_collector, pyside_fixes
from matchlens.ui.compare.compare_tab import CompareTab
from matchlens.ui.config_model import ConfigModel

# PySide6 6.12.0 drops a reference to None on every void call and to True on every emit();
# without this a long test run aborts in none_dealloc / bool_dealloc (see pyside_fixes).
pyside_fixes.apply()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Qt warnings are failures here, except the offscreen plugin's note about window hints.
    for item in items:
        if "tests/ui/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore("propagateSizeHints"))


@pytest.fixture(autouse=True)
def collect_on_gui_thread(qapp):
    """As the app does (make_application): collections run on the GUI thread only, so a
    test's widgets left in a cycle are never destroyed by a worker's allocation."""
    gui_collector.install(qapp)  # for the rest of the session (tests/conftest.py ticks it)


@pytest.fixture(autouse=True)
def no_thread_left():
    """Every test must stop what it started: lanes, workers, thread pools."""
    before = {t.ident for t in threading.enumerate()}
    yield
    QThreadPool.globalInstance().waitForDone(5000)
    left = [t.name for t in threading.enumerate() if t.ident not in before and t.is_alive()]
    assert not left, f"threads still running after the test: {left}"


@pytest.fixture
def config() -> ConfigModel:
    """A ConfigModel with the registry defaults and no autosave file."""
    return ConfigModel()


@pytest.fixture
def compare_tab(qtbot, config: ConfigModel):
    tab = CompareTab(config)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    tab.show()
    qtbot.waitExposed(tab)
    yield tab
    tab.shutdown()


@pytest.fixture
def sample_tab(qtbot, config: ConfigModel):
    """A batch tab with the shipped sample dataset loaded and scored."""
    from matchlens.core.paths import sample_dataset
    from tests.ui.batch_support import load, make_tab

    tab = make_tab(qtbot, config)
    load(qtbot, tab, sample_dataset())
    yield tab
    tab.shutdown()


def wait_done(qtbot, tab: CompareTab, timeout: int = 120_000) -> None:
    """Until the tab has answered for its current texts (the timeout only catches a hang: a
    12,000-character line took 30 s on a machine at load 18)."""
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=timeout)


def set_pair(qtbot, tab: CompareTab, expected: str, actual: str) -> None:
    tab.set_texts(expected, actual)
    wait_done(qtbot, tab)
