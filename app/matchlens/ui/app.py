"""`run_app`: the QApplication, the main window for each command form, and --screenshot."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from matchlens import __version__
from matchlens.core.config import load_config
from matchlens.core.errors import MatchLensError
from matchlens.core.paths import resource_dir, sample_dataset, sample_pair
from matchlens.core.text.textfile import FileReadError, read_text_file
from matchlens.ui import gui_collector, pyside_fixes
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from matchlens.ui.wheel_guard import install_wheel_guard

SCREENSHOT_TIMEOUT_S = float(os.environ.get("MATCHLENS_SCREENSHOT_TIMEOUT", "60"))
SCREENSHOT_SIZE = (1440, 900)

# Shown when the shipped sample pair is missing (e.g. a trimmed install).
BUILTIN_PAIR = (
    "The quick brown fox jumps over the lazy dog.\nParis is the capital of France.\n",
    "The quick brown dog jumps over the lazy fox.\nparis is the capital of  France\n",
)


def make_application() -> QApplication:
    pyside_fixes.apply()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    gui_collector.install(app)  # before any worker: Qt objects are never freed off this thread
    app.setApplicationName("MatchLens")
    app.setOrganizationName("MatchLens")
    app.setApplicationVersion(__version__)
    # The launcher's name (matchlens.desktop): docks and task bars match the window to it.
    app.setDesktopFileName("matchlens")
    install_wheel_guard(app)
    icon = resource_dir() / "icons" / "matchlens.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    return app  # type: ignore[return-value]


def reading_options(args: argparse.Namespace) -> dict[str, str | None]:
    """`matchlens batch`'s reading options besides --encoding, as the batch tab takes them
    (the delimiter as `score` parses it: `\\t` or `tab` is a tab)."""
    from matchlens.cli.score import parse_delimiter  # only `batch` needs the score command

    delimiter = getattr(args, "delimiter", None)
    return {"records": getattr(args, "records", None), "sheet": getattr(args, "sheet", None),
            "format": getattr(args, "format", None),
            "delimiter": parse_delimiter(delimiter) if delimiter else None}


def load_config_model(path: Path | None) -> tuple[ConfigModel, str | None]:
    """The user's thresholds; with --config that file (read, never overwritten by autosave).
    Call register_network_metrics() first."""
    if path is None:
        model = ConfigModel.from_disk()
        return model, model.load_error
    try:
        model = ConfigModel(load_config(path))
        model.given_path = Path(path)
        return model, None
    except MatchLensError as err:
        return ConfigModel(), f"{err}; the default thresholds are in use."


def register_network_metrics() -> None:
    """semantic_similarity lives outside core; without it the app still works."""
    # Any failure (a missing optional dependency, a bug) just means one panel fewer.
    with contextlib.suppress(Exception):
        import matchlens.embeddings.metric  # noqa: F401


def sample_texts() -> tuple[str, str, tuple[str, str]]:
    expected, actual = sample_pair()
    try:
        return read_text_file(expected), read_text_file(actual), (expected.name, actual.name)
    except FileReadError:
        return BUILTIN_PAIR[0], BUILTIN_PAIR[1], ("built-in sample", "built-in sample")


class ScreenshotJob(QObject):
    """Waits until the window's work is done, saves it as PNG, then says sig_done.

    It hides the window rather than closing it and ends only its own event loop: closing the
    last window, or QApplication.exit(), would make every later event loop in this process
    return at once (so a test that ran a screenshot left no timer working after it).
    """

    sig_done = Signal()

    def __init__(self, window: MainWindow, path: Path, wait_for_batch: bool,
                 timeout_s: float | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.path = path
        self.exit_code = 0
        self._wait_for_batch = wait_for_batch
        self._timeout_s = SCREENSHOT_TIMEOUT_S if timeout_s is None else timeout_s
        self._deadline = time.monotonic() + self._timeout_s
        self._settled = 0
        self._timer = QTimer(self, interval=100)
        self._timer.timeout.connect(self._check)
        self._timer.start()
        # Nobody watches the wait: the busy bar stands still, and the ~5% of a core its
        # animation repaints with goes to the lanes (the saved window never shows it).
        window.compare_tab.metrics.busy_bar.setRange(0, 1)

    def _compare_done(self) -> bool:
        tab = self.window.compare_tab
        if not any(tab.texts()):  # `matchlens batch`: nothing to score, the panels stay empty
            return not tab.is_busy()
        return not tab.is_busy() and all(
            p.result() is not None for p in tab.panels.values() if not p.spec.network)

    def _check(self) -> None:
        # The window records the batch tab's sig_finished from the moment it loads, so a
        # dataset that finishes before this job exists is not waited for in vain.
        batch_done = not self._wait_for_batch or self.window.batch_finished
        ready = self._compare_done() and batch_done
        # Two quiet ticks in a row, so the last results have been painted too.
        self._settled = self._settled + 1 if ready else 0
        timed_out = time.monotonic() > self._deadline
        if self._settled < 2 and not timed_out:
            return
        self._timer.stop()
        if timed_out and self._settled < 2:
            print(f"matchlens: the window was still working after {self._timeout_s:.0f} s; "
                  "saving the screenshot as it is", file=sys.stderr)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.window.grab().save(str(self.path)):
            print(f"matchlens: could not write the screenshot to {self.path}", file=sys.stderr)
            self.exit_code = 1
        self.window.hide()
        self.sig_done.emit()


class AfterFirstPaint(QObject):
    """Runs `callback` once the compare tab has painted: what the first paint does not need
    (the Batch tab: pyqtgraph, superqt) is built right after it, on the GUI thread.

    Not imported in a helper thread beforehand: PySide6 types created off the GUI thread while
    the window is being built crashed the process (seen once in the start-up benchmark)."""

    def __init__(self, window: MainWindow, callback: Callable[[], object]) -> None:
        super().__init__(window)
        self._callback = callback
        self._viewport = window.compare_tab.editor("expected").viewport()
        self._viewport.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint and watched is self._viewport:
            self._viewport.removeEventFilter(self)
            # After this paint has been shown: the next turn of the event loop.
            QTimer.singleShot(0, self._run)
        return False

    def _run(self) -> None:
        self._callback()
        self.deleteLater()


def _import_quietly(*modules: str) -> None:
    # Only a head start: a failure shows (or not) when the GUI thread imports it for real.
    for module in modules:
        with contextlib.suppress(Exception):
            importlib.import_module(module)


def build_window(args: argparse.Namespace, screenshot: bool) -> tuple[MainWindow, list[str], bool]:
    """The window for a command form: (window, input-file error sentences, wait for batch)."""
    # Metrics first: a saved [metrics.semantic_similarity] read before its metric is
    # registered was "unknown" and cost the user every threshold they had tuned.
    register_network_metrics()
    config, config_error = load_config_model(getattr(args, "config", None))
    window = MainWindow(config, restore=not screenshot)
    errors: list[str] = []
    wait_for_batch = False
    command = getattr(args, "command", None)
    if command == "compare":
        errors.extend(window.load_pair(args.expected_file, args.actual_file))
        if getattr(args, "json", False):
            window.compare_tab.show_panel("json_distance")
    elif command == "batch":
        # the Batch tab's modules load after the first paint; only `batch` needs this one now
        from matchlens.ui.batch.run_joins import joins_from_args

        try:
            reading = reading_options(args)
        except MatchLensError as err:  # a --delimiter of two characters: one sentence
            errors.append(f"{err}; the file is read with the delimiter detected.")
            reading = reading_options(argparse.Namespace(**{**vars(args), "delimiter": None}))
        wait_for_batch = window.load_dataset(args.data, expected=args.expected,
                                             actuals=args.actual, label=args.label,
                                             encoding=getattr(args, "encoding", None),
                                             **reading, **joins_from_args(args))
        if not wait_for_batch:
            errors.append("The Batch tab is not available in this build; nothing was scored.")
    else:
        expected, actual, sources = sample_texts()
        window.compare_tab.set_texts(expected, actual, sources=sources)
        window.show_status("This is a sample pair: type in either side, or open your own "
                           "texts with Ctrl+O and Ctrl+Shift+O.")
        dataset = sample_dataset()
        if dataset.exists():
            def load_sample() -> bool:
                loaded = window.load_dataset(dataset, expected="expected",
                                             actuals=["output_a", "output_b"], label="label")
                window.tabs.setCurrentWidget(window.compare_tab)
                return loaded

            if screenshot:
                wait_for_batch = load_sample()
            else:  # the window first, the sample dataset (and the Batch tab) right after
                AfterFirstPaint(window, load_sample)
    if config_error:
        window.show_notice(config_error)  # stays until dismissed; the status bar moves on
        if errors:
            window.show_status(" ".join(errors))
        if screenshot:
            print(f"matchlens: {config_error}", file=sys.stderr)
    return window, errors, wait_for_batch


def prefetch(*modules: str) -> threading.Thread:
    """Import `modules` in a background thread (a head start for what the GUI needs soon).
    Only modules that create no Qt types: PySide6 is not safe to extend from two threads."""
    thread = threading.Thread(target=_import_quietly, args=modules, daemon=True,
                              name="matchlens-prefetch")
    thread.start()
    return thread


def run_app(args: argparse.Namespace) -> int:
    screenshot: Path | None = getattr(args, "screenshot", None)
    early: threading.Thread | None = None
    if screenshot is None:
        # The first scores (right after the first paint) need sacrebleu: import it while the
        # window is being built.
        early = prefetch("sacrebleu.metrics")
    app = make_application()
    if os.environ.get("MATCHLENS_STARTUP_PROBE"):  # benchmarks/bench_frozen_startup.py
        from matchlens.ui import startup_probe

        startup_probe.install(app)
    window, errors, wait_for_batch = build_window(args, screenshot is not None)
    if screenshot is not None:
        if errors:
            print("\n".join(f"matchlens: {e}" for e in errors), file=sys.stderr)
            window.shutdown()
            return 2
        window.fit_screen = False
        window.resize(*(getattr(args, "screenshot_size", None) or SCREENSHOT_SIZE))
        if any(window.compare_tab.texts()):  # no typing to wait for: start while it paints
            window.compare_tab.recompute()
        job = ScreenshotJob(window, screenshot, wait_for_batch)
        loop = QEventLoop()
        job.sig_done.connect(loop.quit)
        window.show()
        loop.exec()
        window.shutdown()
        return job.exit_code
    window.show()
    # Start the compute processes once the window is up, so the first long text is quick.
    QTimer.singleShot(500, window.compare_tab.scheduler.prewarm)
    code = app.exec()
    window.shutdown()
    if early is not None:
        early.join(10)  # never end the interpreter under a thread still importing
    return code
