"""Start-up: the window paints before what its first paint does not need (timings: benchmarks/)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from PySide6.QtCore import QEvent, QObject

from matchlens.ui import app as app_module
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow


class _PaintSpy(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.batch_made_at_first_paint: bool | None = None
        self.window = None

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint and self.batch_made_at_first_paint is None:
            self.batch_made_at_first_paint = self.window._batch_made
        return False


def test_sample_dataset_loads_after_the_window_has_painted(qtbot) -> None:
    args = argparse.Namespace(command=None, screenshot=None, config=None)
    window, errors, _wait = app_module.build_window(args, screenshot=False)
    qtbot.addWidget(window)
    assert errors == []
    spy = _PaintSpy()
    spy.window = window
    window.compare_tab.editor("expected").viewport().installEventFilter(spy)
    try:
        assert not window._batch_made  # not even made yet: pyqtgraph & co come later
        window.show()
        qtbot.waitUntil(lambda: spy.batch_made_at_first_paint is not None, timeout=20000)
        assert spy.batch_made_at_first_paint is False
        # Then, without anyone asking, the Batch tab is made and scores the sample dataset,
        # and the Compare tab stays in front.
        qtbot.waitUntil(lambda: window._batch_made, timeout=30000)
        qtbot.waitUntil(lambda: window.batch_finished, timeout=60000)
        assert window.tabs.currentWidget() is window.compare_tab
        assert window.tabs.tabText(1) == "Batch" and window.tabs.widget(1) is window.batch_tab
    finally:
        window.compare_tab.editor("expected").viewport().removeEventFilter(spy)
        window.shutdown()


def test_batch_tab_is_made_when_its_tab_is_chosen(qtbot) -> None:
    window = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(window)
    try:
        assert not window._batch_made
        window.tabs.setCurrentIndex(1)  # the user clicks "Batch"
        assert window._batch_made and window.tabs.currentWidget() is window.batch_tab
        assert window.tabs.count() == 2
    finally:
        window.shutdown()


def test_compare_tab_opens_without_superqt_or_pyqtgraph() -> None:
    # A fresh interpreter: whatever this test process imported before does not count.
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "import matchlens.embeddings.metric\n"
        "from matchlens.ui.compare.compare_tab import CompareTab\n"
        "from matchlens.ui.config_model import ConfigModel\n"
        "tab = CompareTab(ConfigModel())\n"
        "tab.show()\n"
        "app.processEvents()\n"
        "tab.shutdown()\n"
        "print(sorted(m for m in ('superqt', 'pyqtgraph') if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
