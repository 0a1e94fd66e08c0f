"""A dataset row in the compare view: opening one from the Batch tab, stepping to the next
(or next failing) row without going back, and the row bar's buttons that do it.

A mixin of MainWindow. While a row is open (`_batch_row`), the Label keys and buttons label
that row; as soon as the compare view shows anything else (a file opened, dropped, or taken
from the recent list) the row is left, so a label can never land on a row no longer in view.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu


class BatchRows:
    """Needs from the window: batch_tab, compare_tab, tabs, show_status, _action."""

    _batch_row: int | None

    def _build_row_actions(self, nav: QMenu) -> None:
        """The Navigate menu's row entries and their buttons on the compare tab's row bar."""
        self.action_next_row = self._action(nav, "Next &row", lambda: self.step_row(1),
                                            "Alt+Down", "Open the next dataset row")
        self.action_previous_row = self._action(nav, "Previous r&ow", lambda: self.step_row(-1),
                                                "Alt+Up", "Open the previous dataset row")
        self.action_next_failing = self._action(
            nav, "Next &failing row", lambda: self.step_row(1, failing_only=True), "Ctrl+F7",
            "Open the next row that fails a threshold")
        self._row_buttons = self._add_row_buttons()
        # A file in the compare view (opened, dropped, recent) is no longer the row.
        self.compare_tab.sig_file_loaded.connect(lambda _side: self.leave_row())
        self._update_row_actions()

    def open_batch_row(self, row: int) -> None:
        if self.batch_tab is None:
            return
        pair = self.batch_tab.pair_for_row(row)
        if pair is None:
            self.show_status(f"Row {row + 1} has no text pair to compare.")
            return
        expected, actual, description = pair
        self._batch_row = row
        references = self.batch_tab.references_for_row(row)
        if references is not None:  # several references: open the winner, step to the others
            refs, current, why = references
            expected = refs[current]
        self.compare_tab.set_texts(expected, actual, context=description,
                                   sources=("dataset", "dataset"))
        if references is not None:
            self.compare_tab.set_references(refs, current, why)
        self.tabs.setCurrentWidget(self.compare_tab)
        self._update_row_actions()
        self.show_status(f"Opened {description}.")

    def leave_row(self) -> None:
        """The compare view no longer shows a dataset row: no row to step from or to label."""
        if self._batch_row is None:
            return
        self._batch_row = None
        self.compare_tab.context_label.setText("")
        self.compare_tab.set_references([])
        self._update_row_actions()

    def step_row(self, step: int, failing_only: bool = False) -> None:
        if self.batch_tab is None or self._batch_row is None:
            self.show_status("Open a row from the Batch tab first (double-click it).")
            return
        row = self.batch_tab.neighbour_row(self._batch_row, step, failing_only=failing_only)
        if row is None:
            which = "failing row" if failing_only else "row"
            where = "after" if step > 0 else "before"
            self.show_status(f"There is no {which} {where} this one.")
            return
        self.open_batch_row(row)

    def _add_row_buttons(self) -> list[QAction]:
        """Row stepping on the compare tab's row bar, shown while a dataset row is open there."""
        return self.compare_tab.row_bar.add_buttons([
            (text, action.trigger, f"{action.toolTip()} ({action.shortcut().toString()})")
            for text, action in (("◀ Row", self.action_previous_row),
                                 ("Row ▶", self.action_next_row),
                                 ("Next failing ▶", self.action_next_failing))])

    def _update_row_actions(self) -> None:
        enabled = self._batch_row is not None and self.batch_tab is not None
        for action in (self.action_next_row, self.action_previous_row, self.action_next_failing):
            action.setEnabled(enabled)
        self.compare_tab.row_bar.setVisible(enabled)
