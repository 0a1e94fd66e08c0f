"""The main window: Compare and Batch tabs, menus, status bar.

The dataset row open in the compare view, and stepping from it, is `batch_rows.BatchRows`
(`window.rows`); the Label menu is installed with the Batch tab (`label_menu`); what survives a
restart is `window_settings` and `recent_files`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.datasets.readers import OPEN_FILTER
from matchlens.embeddings.redact import scrub
from matchlens.ui.batch_rows import BatchRows
from matchlens.ui.compare.compare_tab import CompareTab
from matchlens.ui.config_model import ConfigModel, ask_thresholds_path
from matchlens.ui.dialogs.about import show_about
from matchlens.ui.dialogs.shortcuts import ShortcutsDialog
from matchlens.ui.label_menu import install_label_menu
from matchlens.ui.notice_bar import NoticeBar
from matchlens.ui.recent_files import RecentFiles
from matchlens.ui.undo_actions import add_undo_actions
from matchlens.ui.wheel_guard import install_wheel_guard
from matchlens.ui.window_fit import fit_to_screen, keep_on_screen
from matchlens.ui.window_settings import (
    make_settings,
    restore_geometry,
    restore_view_options,
    save_window,
)

BATCH_PLACEHOLDER = ("Batch scoring arrives here: load a CSV/JSONL dataset, score every row, "
                     "tune thresholds.")
def _make_batch_tab(config: ConfigModel, parent: QWidget) -> QWidget | None:
    try:
        from matchlens.ui.batch.tab import BatchTab
    except ImportError:
        return None
    return BatchTab(config, parent)


class MainWindow(QMainWindow):
    def __init__(self, config: ConfigModel, settings: QSettings | None = None,
                 restore: bool = True) -> None:
        super().__init__()
        install_wheel_guard()  # no wheel changes a setting it is not focused on
        self.config = config
        self.settings = settings or make_settings()
        self.setWindowTitle("MatchLens")
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.compare_tab = CompareTab(config, self.tabs)
        self.tabs.addTab(self.compare_tab, "Compare")
        # The Batch tab is made on first use (see `batch_tab`): until then an empty page.
        self._batch_tab: QWidget | None = None
        self._batch_made = False
        self._batch_slot = QWidget(self.tabs)
        self.tabs.addTab(self._batch_slot, "Batch")
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.notice = NoticeBar(self)
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.notice)
        column.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.batch_finished = True  # False from a dataset load until the tab says it is done
        self._build_menus()
        # Labelling from the table or the compare view: installed with the Batch tab, which
        # owns the labels (labels need a dataset, and a dataset makes the tab).
        self.label_menu: QMenu | None = None
        self.compare_tab.sig_status.connect(self.show_status)
        self.config.sig_error.connect(self.show_status)
        self.statusBar().showMessage("Ready.")
        # Which thresholds file is in effect (a dataset's own, the defaults, or --config).
        self.thresholds_label = QLabel(self)
        self.thresholds_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse)
        self.statusBar().addPermanentWidget(self.thresholds_label)
        # the compare view's colour legend while it shows (no room beside three panes' headers)
        self.statusBar().insertPermanentWidget(0, self.compare_tab.toolbar.legend)
        self.config.sig_source.connect(self._show_thresholds_source)
        self._show_thresholds_source()
        self._shown_once = False
        self.fit_screen = True  # --screenshot sets its own size, whatever the screen
        fit_to_screen(self)
        restore_view_options(self)
        if restore:
            restore_geometry(self)

    def _show_mapping(self, on: bool) -> None:
        if self._batch_made and self._batch_tab is not None:
            self._batch_tab.show_mapping(on)

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def _show_thresholds_source(self) -> None:
        text, tip = self.config.source_text()
        self.thresholds_label.setText(text)
        self.thresholds_label.setToolTip(tip)

    def save_defaults(self) -> None:
        self.show_status(self.config.save_as_defaults()[1])

    def export_report_dialog(self) -> None:
        """File ▸ Export ▸ Report: the batch tab's report (it says so when nothing is scored)."""
        tab = self.batch_tab
        if tab is not None:
            self.tabs.setCurrentWidget(tab)
            tab.exports.export_report_dialog()

    # -- the batch tab, made when first needed --------------------------------------------------
    @property
    def batch_tab(self) -> QWidget | None:
        """The Batch tab (None when this build has none), made on first use: its plots and workers
        import pyqtgraph and superqt (~0.3-0.5 s), which the window's first paint does not need."""
        if not self._batch_made:
            self._make_batch()
        return self._batch_tab

    def _make_batch(self) -> None:
        self._batch_made = True
        tab = _make_batch_tab(self.config, self.tabs)
        if tab is None:
            page: QWidget = QLabel(BATCH_PLACEHOLDER, self.tabs)
            page.setAlignment(Qt.AlignmentFlag.AlignCenter)
            page.setWordWrap(True)
        else:
            page = tab
            tab.sig_open_row.connect(self.open_batch_row)
            tab.sig_status.connect(self.show_status)
            tab.sig_finished.connect(self._on_batch_finished)
        self._batch_tab = tab
        if tab is not None:
            tab.memory = self.settings  # the metrics last scored are ticked for the next file
            tab.restore_layout({key: self.settings.value(f"batch/{key}")
                                for key in ("split", "right")})
            tab.show_mapping(self.action_mapping.isChecked())
        self.label_menu = install_label_menu(self)
        index = self.tabs.indexOf(self._batch_slot)
        current = self.tabs.currentIndex()
        self.tabs.blockSignals(True)  # the same page stays current: not a tab change
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, page, "Batch")
        self.tabs.setCurrentIndex(current)
        self.tabs.blockSignals(False)
        self._batch_slot.deleteLater()

    def _on_tab_changed(self, index: int) -> None:
        self.compare_tab.toolbar.legend.setVisible(self.tabs.widget(index) is self.compare_tab)
        if not self._batch_made and self.tabs.widget(index) is self._batch_slot:
            self._make_batch()

    # -- menus ----------------------------------------------------------------------------------
    def _action(self, menu: QMenu, text: str, slot: Any, shortcut: str | QKeySequence | None = None,
                tip: str = "", checkable: bool = False) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.setCheckable(checkable)
        (action.toggled if checkable else action.triggered).connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._action(file_menu, "Open &expected…", lambda: self.open_side("expected"),
                     QKeySequence.StandardKey.Open, "Load a text file as the expected text")
        self._action(file_menu, "Open &actual…", lambda: self.open_side("actual"),
                     "Ctrl+Shift+O", "Load a text file as the actual text")
        self._action(file_menu, "Open &dataset…", self.open_dataset_dialog, None,
                     "Load a CSV / TSV / JSONL / JSON dataset into the Batch tab")
        self.recent = RecentFiles(self.settings, file_menu.addMenu("Open &recent"),
                                  self._open_recent, self)
        self.recent_menu = self.recent.menu
        file_menu.addSeparator()
        self._action(file_menu, "&Save thresholds…", self.save_thresholds_dialog, None,
                     "Write thresholds and options as TOML for `matchlens score --config`")
        self._action(file_menu, "Make these thresholds my &defaults",
                     self.save_defaults, None,
                     "A dataset without thresholds of its own starts from your defaults")
        export = file_menu.addMenu("&Export")
        self._action(export, "&Report (HTML)…", self.export_report_dialog, None,
                     "The batch run on screen as one HTML file (as `matchlens score --html`)")
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        self._build_edit_menu(bar.addMenu("&Edit"))

        view = bar.addMenu("&View")
        tab = self.compare_tab
        self.action_wrap = self._action(view, "&Wrap lines", tab.set_wrap, checkable=True)
        self.action_mono = self._action(view, "&Monospace font", tab.set_monospace,
                                        checkable=True)
        self.action_whitespace = self._action(
            view, "Show &whitespace (· → ¶)", tab.set_whitespace_markers, checkable=True,
            tip="Draw spaces, tabs and line ends")
        view.addAction(tab.action_lock)
        self.action_mapping = self._action(
            view, "Batch &mapping panel", self._show_mapping, "Ctrl+Shift+B", checkable=True,
            tip="Show or fold away the Batch tab's column mapping (more room for the table)")
        granularity = view.addMenu("Highlight &granularity")
        self.granularity_group = QActionGroup(self)
        self.granularity_actions: dict[str, QAction] = {}
        for value, text in (("char", "&Characters"), ("word", "W&ords")):
            action = QAction(text, self, checkable=True)
            action.triggered.connect(lambda _c=False, v=value: tab.set_granularity(v))
            self.granularity_group.addAction(action)
            granularity.addAction(action)
            self.granularity_actions[value] = action
        tab.granularity_box.currentIndexChanged.connect(
            lambda _i: self.granularity_actions[tab.granularity].setChecked(True))

        nav = bar.addMenu("&Navigate")
        self._action(nav, "&Next difference", self._next_difference, "F7")
        self._action(nav, "&Previous difference", self._previous_difference, "Shift+F7")
        nav.addSeparator()
        self.rows = BatchRows(self, nav, self._action)
        self.action_next_row = self.rows.action_next_row
        self.action_previous_row = self.rows.action_previous_row
        self.action_next_failing = self.rows.action_next_failing

        tools = bar.addMenu("&Tools")
        self.action_settings = self._action(
            tools, "&Settings…", self.open_settings, "Ctrl+,",
            "API key (system keyring), embeddings base URL and model, Test connection")
        self.action_settings.setMenuRole(QAction.MenuRole.PreferencesRole)

        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&Keyboard shortcuts", self.show_shortcuts,
                     QKeySequence.StandardKey.HelpContents, "Every shortcut of the window")
        self._action(help_menu, "&About MatchLens", lambda: show_about(self))
        self.recent.rebuild()

    def _build_edit_menu(self, edit: QMenu) -> None:
        """Undo/redo of every threshold and option change (the config model's QUndoStack)."""
        self.action_undo, self.action_redo = add_undo_actions(self.config.undo_stack, edit, self)
        edit.addSeparator()
        self.action_find = self._action(edit, "&Find…", self.find, QKeySequence.StandardKey.Find,
                                        "Find text in the compared texts, or search the table")

    def find(self) -> None:
        """Ctrl+F: the compare view's find bar, or the batch table's search on that tab."""
        tab = self._batch_tab  # (never made just to be searched)
        if tab is not None and self.tabs.currentWidget() is tab:
            tab.focus_search()
        else:
            self.tabs.setCurrentWidget(self.compare_tab)
            self.compare_tab.find_bar.open_bar()

    def _next_difference(self) -> None:
        self.tabs.setCurrentWidget(self.compare_tab)
        self.compare_tab.next_difference()

    def _previous_difference(self) -> None:
        self.tabs.setCurrentWidget(self.compare_tab)
        self.compare_tab.previous_difference()

    def open_settings(self):  # noqa: ANN201 - SettingsDialog
        """Open (or raise) the Settings dialog; it is not modal, the window stays usable."""
        from matchlens.ui.dialogs.settings import show_settings

        return show_settings(self.config, self)

    def show_status(self, text: str) -> None:
        # Every sentence of the window passes here or show_notice: a key never reaches the
        # screen (scrub masks anything key-shaped and every key this run has seen).
        self.statusBar().showMessage(scrub(text), 15000)

    def show_notice(self, text: str) -> None:
        """A sentence that stays above the tabs until the user dismisses it."""
        self.notice.show_notice(scrub(text))

    # -- files ----------------------------------------------------------------------------------
    def open_side(self, side: str) -> None:
        path = self.compare_tab.open_file_dialog(side)
        if path is not None:  # (the row, if one was open, is left: sig_file_loaded)
            self.add_recent(side, path)

    def load_pair(self, expected: Path, actual: Path) -> list[str]:
        """Load two files into the compare tab; returns the error sentences (empty if fine)."""
        errors = []
        for side, path in (("expected", expected), ("actual", actual)):
            statuses: list[str] = []
            self.compare_tab.sig_status.connect(statuses.append)
            ok = self.compare_tab.load_file(side, path)
            self.compare_tab.sig_status.disconnect(statuses.append)
            if ok:
                self.add_recent(side, path)
            else:
                errors.extend(statuses)
        if errors:
            self.show_status(" ".join(errors))
        else:
            self.show_status(f"Comparing {expected.name} with {actual.name}.")
        return errors

    def open_dataset_dialog(self) -> None:
        if self.batch_tab is None:
            self.show_status("The Batch tab is not available in this build.")
            return
        name, _ = QFileDialog.getOpenFileName(
            self, "Open a dataset", "", OPEN_FILTER)
        if name:
            self.load_dataset(Path(name))

    def load_dataset(self, path: Path, expected: str | None = None,
                     actuals: list[str] | None = None, label: str | None = None,
                     encoding: str | None = None, **reading: str | None) -> bool:
        """Open `path` in the Batch tab (`reading`: records, sheet, format, delimiter)."""
        if self.batch_tab is None:
            return False
        self.tabs.setCurrentWidget(self.batch_tab)
        self.batch_finished = False
        self.batch_tab.load(path, expected=expected, actuals=actuals, label=label,
                            encoding=encoding, **reading)
        self.add_recent("dataset", path)
        return True

    def save_thresholds_dialog(self) -> None:
        path = ask_thresholds_path(self)
        if path is not None:
            self.save_thresholds(path)

    def save_thresholds(self, path: Path) -> bool:
        saved, sentence = self.config.save_thresholds(path)
        self.show_status(sentence)
        return saved

    # -- recent files (recent_files.py) --------------------------------------------------------
    def recent_files(self) -> list[tuple[str, str]]:
        return self.recent.entries()

    def add_recent(self, kind: str, path: Path) -> None:
        self.recent.add(kind, path)

    def _open_recent(self, kind: str, path: str) -> None:
        if kind == "dataset":
            self.load_dataset(Path(path))
        elif self.compare_tab.load_file(kind, Path(path)):
            self.tabs.setCurrentWidget(self.compare_tab)
            self.add_recent(kind, Path(path))

    # -- rows from the batch tab ---------------------------------------------------------------
    def open_batch_row(self, row: int) -> None:
        """Show dataset row `row` of the Batch tab in the compare view."""
        self.rows.open(row)

    def _on_batch_finished(self) -> None:
        self.batch_finished = True

    # -- persistence (window_settings.py) -------------------------------------------------------
    def save_settings(self) -> None:
        save_window(self)

    def made_batch_tab(self) -> QWidget | None:
        """The Batch tab if it was made (never made just to be asked)."""
        return self._batch_tab

    def shutdown(self) -> None:
        """Stop every worker the window started (idempotent)."""
        self.compare_tab.shutdown()
        stop = getattr(self._batch_tab, "shutdown", None)  # never made just to be stopped
        if callable(stop):
            stop()
        self.config.flush()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._shown_once:  # the frame's width is known only now
            self._shown_once = True
            if self.fit_screen:
                keep_on_screen(self)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.save_settings()
        self.shutdown()
        super().closeEvent(event)
