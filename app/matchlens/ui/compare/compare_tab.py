"""The compare tab: two editors, the edit highlight, navigation, and a panel per metric.

Here are the layout, the texts, the scoring and the state. Its widgets are the toolbar
(toolbar.py), the dataset row's bar (row_bar.py), the two editor panes and the metric column
(metric_column.py); the stepping through differences and JSON paths is the object it owns,
`navigation` (navigation.py), which reads the highlight on screen (`current_table()`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from matchlens.core.diff.span_table import ALIGN_TASK, SpanTable
from matchlens.core.text.textfile import FileReadError, read_text_file
from matchlens.ui.compare.baseline_pane import BASELINE, BaselinePane
from matchlens.ui.compare.collapse import CollapseControl
from matchlens.ui.compare.diff_actions import install as install_diff_actions
from matchlens.ui.compare.find_bar import FindBar
from matchlens.ui.compare.inline_pane import InlinePane
from matchlens.ui.compare.json_mode import JsonMode
from matchlens.ui.compare.metric_column import MetricColumn
from matchlens.ui.compare.move_link import MoveLink
from matchlens.ui.compare.navigation import DifferenceNavigation
from matchlens.ui.compare.pane import EditorPane
from matchlens.ui.compare.row_bar import RowBar
from matchlens.ui.compare.scheduler import ScoreScheduler
from matchlens.ui.compare.sync import ScrollLock
from matchlens.ui.compare.text_scoring import TextScoring
from matchlens.ui.compare.toolbar import CompareToolbar
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.normalise_box import normalise_every_text_metric, text_metric_normalisations
from matchlens.ui.palette import diff_colours

SIDES = ("expected", "actual")
# From this many characters a side, setting both texts at once would stall the window in one
# piece (~40 ms a side for a million characters in lines, ~0.1 s in one line, which Qt lays out
# at once): the actual side then follows on the next event-loop turn.
_STAGGER_CHARS = 250_000


class CompareTab(QWidget):
    sig_status = Signal(str)
    sig_finished = Signal()  # every panel and the highlight reflect the current texts
    sig_difference_changed = Signal(str)  # "difference 3 of 12"
    sig_file_loaded = Signal(str)  # a side ("expected"/"actual") now shows a file's text

    def __init__(self, config: ConfigModel, parent: QWidget | None = None,
                 scheduler: ScoreScheduler | None = None) -> None:
        super().__init__(parent)
        self.config = config
        self.scheduler = scheduler or ScoreScheduler(self)
        self.granularity = "char"
        self.view = "readable"  # or "exact": the minimal edit script the distance counts
        self._table: SpanTable | None = None

        self.panes = {"expected": EditorPane("expected", "Expected", self),
                      "actual": EditorPane("actual", "Actual", self)}
        self.scroll_lock = ScrollLock(self.panes["expected"].editor, self.panes["actual"].editor,
                                      self)
        for pane in self.panes.values():
            pane.decorator.texts = self.texts
        self.navigation = DifferenceNavigation(self)
        self.move_link = MoveLink(self.panes, lambda: self._table,
                                  lambda: self.navigation.last_side,
                                  self.sig_status.emit, self)
        self.addAction(self.move_link.action_jump)
        self._build_ui()
        self.diff_actions = install_diff_actions(self)  # right-click: Copy diff, Save as HTML

        for side, pane in self.panes.items():
            pane.editor.sig_file_dropped.connect(lambda path, s=side: self.load_file(s, path))
            pane.editor.sig_wrap_forced.connect(lambda n, s=side: self._wrap_forced(s, n))
        self.scoring = TextScoring(self)  # what is computed for the texts, and when
        self.metrics.sig_compute_requested.connect(self.scoring.compute_network)
        self.metrics.sig_auto_changed.connect(self.scoring.set_auto_network)
        self.config.sig_changed.connect(
            lambda _m: self.normalise_box.show_values(text_metric_normalisations(self.config)))
        self.normalise_box.show_values(text_metric_normalisations(self.config))
        self.baseline_pane = BaselinePane(self)  # a run's baseline output, for a row that has one

    def _build_ui(self) -> None:
        bar = self.toolbar = CompareToolbar(self)
        bar.action_open_expected.triggered.connect(lambda: self.open_file_dialog("expected"))
        bar.action_open_actual.triggered.connect(lambda: self.open_file_dialog("actual"))
        bar.action_swap.triggered.connect(self.swap_sides)
        bar.action_previous.triggered.connect(self.previous_difference)
        bar.action_next.triggered.connect(self.next_difference)
        bar.action_lock.toggled.connect(self.scroll_lock.set_locked)
        bar.action_exact.toggled.connect(lambda on: self.set_view("exact" if on else "readable"))
        bar.granularity_box.currentIndexChanged.connect(
            lambda _i: self.set_granularity(bar.granularity_box.currentData()))
        bar.normalise_box.sig_chosen.connect(self._normalise_all)
        # The toolbar's parts the navigation, the window's menus and the tests use by name.
        self.difference_label = bar.difference_label
        self.action_previous, self.action_next = bar.action_previous, bar.action_next
        self.action_lock, self.action_exact = bar.action_lock, bar.action_exact
        self.granularity_box, self.normalise_box = bar.granularity_box, bar.normalise_box
        # What a dataset row needs (its buttons, references, description) is a second bar,
        # shown only while a row is open here: one bar for both did not fit 1280 px.
        self.row_bar = RowBar(self)
        self.context_label = self.row_bar.context_label
        self.references = self.row_bar.references
        self.references.sig_reference.connect(
            lambda text: self.panes["expected"].set_text(text, "dataset"))
        self.references_action = self.row_bar.references_action

        self.editor_splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.editor_splitter.addWidget(self.panes["expected"])
        self.editor_splitter.addWidget(self.panes["actual"])
        self.editor_splitter.setChildrenCollapsible(False)
        # The colour legend (bar.legend) sits on the main window's status bar: the toolbar is
        # full at 1280 px, and beside a pane's header it cut the header off with three panes.
        for pane in self.panes.values():  # long file names shrink; the panes stay equal
            pane.header.setMinimumWidth(0)
            pane.header.setSizePolicy(QSizePolicy.Policy.Ignored,
                                      QSizePolicy.Policy.Preferred)
        self.editor_splitter.setSizes([1000, 1000])
        self.inline_pane = InlinePane(self)
        self.inline_pane.hide()
        self.editor_splitter.addWidget(self.inline_pane)
        self.action_inline = bar.action_inline
        self.action_inline.toggled.connect(self.set_inline)
        self.action_collapse = bar.action_collapse
        self.collapse = CollapseControl(bar.action_collapse, self)
        for side, pane in self.panes.items():
            self.collapse.add_pane(side, pane, lambda: self._table)
        # the inline view folds while it shows (set_inline refreshes when it opens)
        self.collapse.add_inline("inline", self.inline_pane.view, lambda: (
            self.inline_pane.layout_ if self.inline_pane.isVisible() else None))
        self.metrics = MetricColumn(self.config, self)
        self.metrics.sig_detail_activated.connect(self.navigation.select_json_path)
        self.metrics.sig_settings_requested.connect(self.open_settings)
        self.metrics.sig_status.connect(self.sig_status)
        self.panels = self.metrics.panels
        self.busy_indicator = self.metrics.busy_indicator

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.editor_splitter)
        self.splitter.addWidget(self.metrics)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)

        self.find_bar = FindBar(self.editor, self._find_start, self, self._find_order)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 6)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.row_bar)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.splitter, 1)
        self.json_mode = JsonMode(self)  # both sides JSON: its panel first, Format JSON

    def set_inline(self, inline: bool) -> None:
        """One inline pane instead of the two editors (which stay, hidden, and editable)."""
        for pane in self.panes.values():
            pane.setVisible(not inline)
        self.inline_pane.setVisible(inline)
        if inline:
            self.inline_pane.show_table(self._table, *self.texts())
            self.collapse.refresh()
        if self.action_inline.isChecked() != inline:
            self.action_inline.setChecked(inline)
        self.baseline_pane.place()  # a run's baseline: its pane, or its inline view

    # -- navigation (navigation.py) -------------------------------------------------------------
    def next_difference(self) -> None:
        self.navigation.next_difference()

    def previous_difference(self) -> None:
        self.navigation.previous_difference()

    def go_to_difference(self, index: int) -> None:
        self.navigation.go_to_difference(index)

    def difference_count(self) -> int:
        return self.navigation.difference_count()

    def current_difference(self) -> int | None:
        return self.navigation.current_difference()

    # -- the editors ----------------------------------------------------------------------------
    def editor(self, side: str):  # noqa: ANN201 - DiffEditor
        """The editor named `side`: "expected", "actual" or a run's "baseline" output."""
        return self.scroll_lock.editors[side]

    def _find_order(self) -> list[str]:
        """The editors Ctrl+F searches, in their order on screen."""
        if self.baseline_pane.is_shown() and not self.action_inline.isChecked():
            return ["expected", BASELINE, "actual"]
        return list(SIDES)

    def _find_start(self) -> str:
        """The pane whose caret the user moved last."""
        return BASELINE if self.baseline_pane.caret_here else self.navigation.last_side

    # -- content --------------------------------------------------------------------------------
    def set_texts(self, expected: str, actual: str, *, context: str = "",
                  sources: tuple[str, str] = ("", "")) -> None:
        self.context_label.setText(context)
        self.set_references([])
        later = min(len(expected), len(actual)) >= _STAGGER_CHARS
        self.panes["expected"].set_text(expected, sources[0])
        self.panes["actual"].set_text(actual, sources[1], later=later)

    def set_references(self, references: list[str], current: int = 0, why: str = "") -> None:
        """A row's several references: the expected side shows `references[current]` and the
        toolbar steps through the others (nothing shown for fewer than one)."""
        self.references.set_references(references, current, why)
        self.references_action.setVisible(bool(references))

    def current_table(self) -> SpanTable | None:
        """The highlight on screen (None while the first one is computed)."""
        return self._table

    def texts(self) -> tuple[str, str]:
        return self.editor("expected").text(), self.editor("actual").text()

    def load_file(self, side: str, path: Path) -> bool:
        """Load a UTF-8 file into one side; a failure is a sentence on the status bar."""
        try:
            text = read_text_file(path)
        except FileReadError as err:
            self.sig_status.emit(str(err))
            return False
        self.context_label.setText("")
        self.panes[side].set_text(text, path.name)
        self.sig_file_loaded.emit(side)
        self.sig_status.emit(f"Loaded {path} as the {side} text.")
        return True

    def open_file_dialog(self, side: str) -> Path | None:
        name, _ = QFileDialog.getOpenFileName(self, f"Open the {side} text", "",
                                              "Text files (*.txt *.json *.md);;All files (*)")
        if name and self.load_file(side, Path(name)):
            return Path(name)
        return None

    def swap_sides(self) -> None:
        expected, actual = self.texts()
        sources = (self.panes["actual"].source, self.panes["expected"].source)
        self.set_texts(actual, expected, context=self.context_label.text(), sources=sources)
        self.sig_status.emit("Swapped the expected and the actual text.")

    # -- view options ---------------------------------------------------------------------------
    def set_wrap(self, wrap: bool) -> None:
        for pane in self.panes.values():
            pane.editor.set_wrap(wrap)

    def set_monospace(self, mono: bool) -> None:
        for pane in self.panes.values():
            pane.editor.set_monospace(mono)

    def _wrap_forced(self, side: str, longest: int) -> None:
        self.sig_status.emit(
            f"Wrapping the {side} text anyway: a line of {longest:,} characters would be redrawn "
            "whole at every repaint without wrapping.")

    def set_whitespace_markers(self, show: bool) -> None:
        for pane in self.panes.values():
            pane.editor.set_whitespace_markers(show)

    def set_scroll_locked(self, locked: bool) -> None:
        self.action_lock.setChecked(locked)

    def set_granularity(self, granularity: str) -> None:
        if granularity == self.granularity:
            return
        self.granularity = granularity
        index = self.granularity_box.findData(granularity)
        if index != self.granularity_box.currentIndex():
            self.granularity_box.setCurrentIndex(index)
        self.scoring.compute(new_text=False, only={ALIGN_TASK})

    def set_view(self, view: str) -> None:
        """"readable" (few word-aligned pieces, the default) or "exact" (the minimal script)."""
        if view not in ("readable", "exact"):
            raise ValueError(f"view must be 'readable' or 'exact', not {view!r}")
        if view == self.view:
            return
        self.view = view
        if self.action_exact.isChecked() != (view == "exact"):
            self.action_exact.setChecked(view == "exact")
        self.scoring.compute(new_text=False, only={ALIGN_TASK})

    # -- computing (text_scoring.py) -----------------------------------------------------------
    def show_panel(self, metric_id: str) -> None:
        self.metrics.show_panel(metric_id)

    def align_options(self) -> dict[str, Any]:
        """The options the highlight is computed with (the baseline pane's too)."""
        return self.scoring.align_options()

    def recompute(self) -> None:
        """Score the current texts now (no debounce)."""
        self.scoring.compute(new_text=True)

    def compute_network(self, metric_id: str) -> bool:
        """Ask the endpoint for the current texts (off the GUI thread); False if it cannot."""
        return self.scoring.compute_network(metric_id)

    def set_table(self, table: SpanTable | None) -> None:
        """Show `table`, the texts' highlight (None while the first one is computed)."""
        self._table = table
        self.move_link.light("expected", -1)
        for pane in self.panes.values():
            pane.decorator.set_table(table)
            pane.ruler.set_table(table)
        if self.inline_pane.isVisible():
            self.inline_pane.show_table(table, *self.texts())
        self.collapse.refresh()
        self.scroll_lock.anchors = table.anchors if table is not None else None
        self.navigation.reset()

    def is_busy(self) -> bool:
        return self.scoring.is_busy() or self.baseline_pane.is_busy()

    def highlighted_edits(self) -> int:
        """The exact edit count shown with the highlight (levenshtein_distance's; in the Exact
        edits view at word granularity, whole words); while a preview is shown, an upper bound
        (`current_table().exact` is False) unless it carries the exact distance
        (`distance_exact`)."""
        return self._table.distance if self._table is not None else 0

    def _normalise_all(self, value: str) -> None:
        error = normalise_every_text_metric(self.config, value)
        if error:
            self.sig_status.emit(error)
        self.normalise_box.show_values(text_metric_normalisations(self.config))

    def open_settings(self):  # noqa: ANN201 - SettingsDialog
        """The Settings dialog of this window (API key, endpoint), opened or raised."""
        from matchlens.ui.dialogs.settings import show_settings

        return show_settings(self.config, self)

    # -- state ----------------------------------------------------------------------------------
    def save_state(self) -> dict[str, QByteArray]:
        return {"splitter": self.splitter.saveState(),
                "editor_splitter": self.editor_splitter.saveState()}

    def restore_state(self, state: dict[str, Any]) -> None:
        for key, splitter in (("splitter", self.splitter),
                              ("editor_splitter", self.editor_splitter)):
            value = state.get(key)
            if isinstance(value, QByteArray | bytes):
                splitter.restoreState(QByteArray(value))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            colours = diff_colours(self.palette())
            for pane in self.panes.values():
                pane.decorator.set_colours(colours)
            self.toolbar.update_legend(self.palette())

    def shutdown(self) -> None:
        """Stop every timer and worker; call before the tab goes away."""
        self.scoring.shutdown()
        self.scheduler.shutdown()
        self.baseline_pane.shutdown()
        for panel in self.metrics.network_panels().values():
            panel.shutdown()
