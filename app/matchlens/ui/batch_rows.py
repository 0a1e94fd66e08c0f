"""A dataset row in the compare view: opening one from the Batch tab, stepping to the next
(or next failing) row without going back, the row bar's buttons that do it, and Esc back to
the table on the same row.

`BatchRows` belongs to the main window and owns the row open in the compare view (`row`).
While a row is open, the Label keys and buttons label that row; as soon as the compare view
shows anything else (a file opened, dropped, or taken from the recent list) the row is left,
so a label can never land on a row no longer in view. The open row follows the Batch tab: another
variant chosen there (the variant box, a Runs or Fields count) shows that variant's output of
the same row, and another dataset there (a file read, a new mapping) leaves the row.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu

# (menu, text, slot, shortcut, tip) -> the action, added to the menu: the window's own maker
MakeAction = Callable[[QMenu, str, Callable[[], None], str, str], QAction]


class BatchRows(QObject):
    """The Navigate menu's row entries for `window` (its batch_tab, compare_tab, tabs and
    show_status), made with `make_action` in `nav`."""

    def __init__(self, window: QMainWindow, nav: QMenu, make_action: MakeAction) -> None:
        super().__init__(window)
        self.window = window
        self.row: int | None = None  # the dataset row the compare view shows
        self.action_next_row = make_action(nav, "Next &row", lambda: self.step(1),
                                           "Alt+Down", "Open the next dataset row")
        self.action_previous_row = make_action(nav, "Previous r&ow", lambda: self.step(-1),
                                               "Alt+Up", "Open the previous dataset row")
        self.action_next_failing = make_action(
            nav, "Next &failing row", lambda: self.step(1, failing_only=True), "Ctrl+F7",
            "Open the next row that fails a threshold")
        # Esc in the compare view: back to the table, on the row shown (only while a row is
        # open, and only with the focus in the compare view: the batch tab's Esc cancels).
        self.action_back = make_action(nav, "Back to the &table", self.back_to_table, "Esc",
                                       "Return to the Batch tab's table on this row")
        self.action_back.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        window.compare_tab.addAction(self.action_back)
        self.buttons = self._add_row_buttons()
        # A file in the compare view (opened, dropped, recent) is no longer the row.
        window.compare_tab.sig_file_loaded.connect(lambda _side: self.leave())
        # a moved threshold or another metric in the Runs view: the row's change again
        window.config.sig_changed.connect(lambda _metric: self.show_change())
        self._change_source: object = None
        self._followed: object = None  # the batch tab whose changes the open row follows
        self._opened_from: tuple[object, str] | None = None  # (its prepared data, variant)
        self.update_actions()

    def open(self, row: int, show: bool = True) -> None:
        """Show dataset row `row` in the compare view (its winning reference, if several);
        `show`: bring the compare view to the front and say so on the status bar."""
        window = self.window
        if window.batch_tab is None:
            return
        tab = window.batch_tab
        self._follow(tab)
        pair = tab.pair_for_row(row)
        if pair is None:
            window.show_status(f"Row {row + 1} has no text pair to compare.")
            return
        expected, actual, description = pair
        self.row = row
        model = getattr(tab, "model", None)
        self._opened_from = (getattr(tab, "prepared", None),
                             model.variant() if model is not None else "")
        references = window.batch_tab.references_for_row(row)
        if references is not None:  # several references: open the winner, step to the others
            refs, current, why = references
            expected = refs[current]
        window.compare_tab.set_texts(expected, actual, context=description,
                                     sources=("dataset", "dataset"))
        if references is not None:
            window.compare_tab.set_references(refs, current, why)
        # a run compared with a baseline: the baseline's output in a third pane
        runs = getattr(window.batch_tab, "runs_actions", None)  # (a stand-in tab has none)
        window.compare_tab.baseline_pane.show_baseline(
            runs.baseline_for_row(row) if runs is not None else None)
        self.show_change()
        self.update_actions()
        if show:
            window.tabs.setCurrentWidget(window.compare_tab)
            window.show_status(f"Opened {description}.")

    def _follow(self, tab: object) -> None:
        """Watch `tab` (once) for another variant or another dataset."""
        if self._followed is tab:
            return
        self._followed = tab
        bar, model = getattr(tab, "table_bar", None), getattr(tab, "model", None)
        if bar is None or model is None:  # (a stand-in tab of the tests has neither)
            return
        bar.variant.currentTextChanged.connect(lambda _text: self._batch_changed(tab))
        model.modelReset.connect(lambda: self._batch_changed(tab))
        tab.sig_finished.connect(lambda: self._batch_changed(tab))

    def _batch_changed(self, tab: object) -> None:
        """The open row again in the variant the Batch tab shows now, or no row once the tab
        holds other data (its row numbers are another file's) or the row has no pair there."""
        if self.row is None or self.window.batch_tab is not tab or self._opened_from is None:
            return
        prepared, variant = self._opened_from
        if getattr(tab, "prepared", None) is not prepared:
            self.leave()
        elif tab.model.variant() != variant:
            if tab.pair_for_row(self.row) is None:
                self.leave()
            else:
                self.open(self.row, show=False)

    def show_change(self) -> None:
        """The row bar's change label for the row open here (hidden without a baseline)."""
        tab = self.window.batch_tab if self.row is not None else None  # (a row: it is made)
        runs = getattr(tab, "runs_actions", None)
        change = runs.change_for_row(self.row) if runs is not None else None
        if runs is not None and self._change_source is not tab:
            self._change_source = tab
            tab.variants.metric.currentIndexChanged.connect(lambda _i: self.show_change())
        label = ""
        if change is not None:
            spec = next(job.spec for job in tab.result.jobs if job.id == change.metric_id)
            label = spec.label
        self.window.compare_tab.row_bar.show_change(change, label)

    def leave(self) -> None:
        """The compare view no longer shows a dataset row: no row to step from or to label."""
        if self.row is None:
            return
        self.row = None
        self._opened_from = None
        self.window.compare_tab.context_label.setText("")
        self.window.compare_tab.set_references([])
        self.window.compare_tab.baseline_pane.show_baseline(None)
        self.window.compare_tab.row_bar.show_change(None)
        self.update_actions()

    def step(self, step: int, failing_only: bool = False) -> None:
        window = self.window
        if window.batch_tab is None or self.row is None:
            window.show_status("Open a row from the Batch tab first (double-click it).")
            return
        row = window.batch_tab.neighbour_row(self.row, step, failing_only=failing_only)
        if row is None:
            which = "failing row" if failing_only else "row"
            where = "after" if step > 0 else "before"
            window.show_status(f"There is no {which} {where} this one.")
            return
        self.open(row)

    def back_to_table(self) -> None:
        """Esc: the Batch tab, the table's current row the one the compare view showed."""
        window = self.window
        focus = QApplication.focusWidget()
        find_bar = window.compare_tab.find_bar
        if focus is not None and find_bar.isAncestorOf(focus):  # Esc there closes the bar
            find_bar.close_bar()
            return
        tab = window.batch_tab
        if tab is None or self.row is None:
            return
        window.tabs.setCurrentWidget(tab)
        view_row = tab.model.view_row(self.row)
        if view_row is None:
            window.show_status(f"Row {self.row + 1} is hidden by the Show box or the search.")
            tab.view.setFocus()
            return
        index = tab.model.index(view_row, 0)
        tab.view.setCurrentIndex(index)
        tab.view.scrollTo(index)
        tab.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _add_row_buttons(self) -> list[QAction]:
        """Row stepping on the compare tab's row bar, shown while a dataset row is open there."""
        return self.window.compare_tab.row_bar.add_buttons([
            (text, action.trigger, f"{action.toolTip()} ({action.shortcut().toString()})")
            for text, action in (("◀ Row", self.action_previous_row),
                                 ("Row ▶", self.action_next_row),
                                 ("Next failing ▶", self.action_next_failing))])

    def update_actions(self) -> None:
        # (never makes the Batch tab: with no row open, batch_tab is not asked for)
        enabled = self.row is not None and self.window.batch_tab is not None
        for action in (self.action_next_row, self.action_previous_row, self.action_next_failing,
                       self.action_back):
            action.setEnabled(enabled)
        self.window.compare_tab.row_bar.setVisible(enabled)
