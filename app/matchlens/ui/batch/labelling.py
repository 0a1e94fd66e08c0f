"""Label while you look: a human pass/fail per row, from the batch table or the compare view.

`BatchLabelling` wires the labels (`label_session.LabelSession`: undoable, saved at every
change) into the batch tab: the "human" column, the "42 of 200 labelled" counter, the Label
actions (Ctrl+1 pass, Ctrl+2 fail, Ctrl+0 clear, Ctrl+Shift+N note, F8 next unlabelled,
Ctrl+F8 next unlabelled failing; in the table also the bare keys P, F, Delete, N, Shift+N),
and the Calibration tab, which follows every label. The main window points the actions at the
row open in the compare view (`ui.label_menu`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLabel, QWidget

from matchlens.core.errors import MatchLensError
from matchlens.core.labels.sidecar import LABEL_TEXT
from matchlens.core.labels.store import FAIL, NONE, PASS, next_unlabelled
from matchlens.core.scoring.view_order import failing_mask
from matchlens.ui.batch.calibration_summary import CalibrationSummary
from matchlens.ui.batch.label_calibration import LiveCalibration
from matchlens.ui.batch.label_session import WORD, LabelSession
from matchlens.ui.batch.table_model import Column


class BatchLabelling(QObject):
    """The batch tab's labelling: column, counter, actions, live calibration."""

    def __init__(self, tab: QWidget) -> None:
        super().__init__(tab)
        self.tab = tab
        stack = getattr(tab.config_model, "undo_stack", None)
        self.session = LabelSession(stack if stack is not None else QUndoStack(self), self)
        self.session.sig_changed.connect(self._on_changed)
        self.session.sig_said.connect(self._say)
        tab.model.add_column(Column("human", "human", "Your verdict on this row (P pass, F fail, "
                                    "Delete clears; ✎ = a note). Saved beside the data, or in your "
                                    "data folder when its folder cannot be written."),
                             self._cell)
        self.counter = QLabel(tab.table_bar)  # "42 of 200 labelled", beside the row count
        self.counter.setToolTip("Rows with a human verdict for the variant shown (the data's "
                                "label column and yours)")
        tab.table_bar.layout().addWidget(self.counter)
        self.summary = CalibrationSummary(tab.calibration)
        # Above the ROC detail: the per-metric overview is what a labelling person watches.
        tab.calibration.layout().insertWidget(0, self.summary)
        # The summary's "Apply this threshold" sets the selected metric's best threshold, the
        # same as the detail's Best threshold button (kept, synchronised, for its tests and
        # callers): one button on screen, not two doing the same.
        tab.calibration.best_button.hide()
        tab.calibration.plot.setMinimumHeight(140)  # the summary above scrolls before it shrinks
        self.live = LiveCalibration(tab, self.session, self.summary)
        # Set by the main window: whether the compare view is in front, the row open there
        # (None when that view is not showing a dataset row), how to open another there, and
        # what to redo when its label changes (the compare view's line about the row).
        self.compare_shown: Callable[[], bool] = lambda: False
        self.compare_row: Callable[[], int | None] = lambda: None
        self.open_row: Callable[[int], None] | None = None
        self.on_compare_changed: Callable[[int], None] | None = None
        self.actions = self._make_actions()
        tab.addActions(list(self.actions.values()))
        tab.top.export_button.menu().addAction("Labels (CSV)…", self.export_dialog)
        self._table_keys()
        tab.table_bar.variant.currentTextChanged.connect(lambda _v: self._on_changed(""))

    # -- actions -------------------------------------------------------------------------------------
    def _make_actions(self) -> dict[str, QAction]:
        spec = [("pass", "Mark &pass", "Ctrl+1", lambda: self.mark(PASS),
                 "The human verdict on the current row: pass (again: clears it)"),
                ("fail", "Mark &fail", "Ctrl+2", lambda: self.mark(FAIL),
                 "The human verdict on the current row: fail (again: clears it)"),
                ("clear", "&Clear label", "Ctrl+0", lambda: self.mark(NONE),
                 "Remove the human verdict of the current row"),
                ("note", "&Note…", "Ctrl+Shift+N", self.ask_note,
                 "A note on the current row, saved with its label"),
                ("next", "&Next unlabelled row", "F8", lambda: self.next_unlabelled(False),
                 "Go to the next row without a human verdict (in the table's order)"),
                ("next_failing", "Next unlabelled fa&iling row", "Ctrl+F8",
                 lambda: self.next_unlabelled(True),
                 "The next row a threshold fails that has no human verdict yet"),
                ("export", "&Export labels…", None, self.export_dialog,
                 "Write every labelled row (the data's column and your changes) as CSV"),
                ("clear_all", "Clear &all labels", None, self.session.clear_all,
                 "Forget every label you made (Ctrl+Z brings them back)")]
        out = {}
        for key, text, shortcut, slot, tip in spec:
            action = QAction(text, self.tab)
            if shortcut:
                action.setShortcut(QKeySequence(shortcut))
                tip += f" ({QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)})"
            action.setToolTip(tip)
            action.setStatusTip(tip)
            action.triggered.connect(slot)
            out[key] = action
        return out

    def _table_keys(self) -> None:
        """Bare keys while the table has focus: one keystroke per verdict, one to move on."""
        view = self.tab.view
        for keys, slot in ((("P",), lambda: self.mark(PASS, in_table=True)),
                           (("F",), lambda: self.mark(FAIL, in_table=True)),
                           (("Delete", "Backspace"), lambda: self.mark(NONE, in_table=True)),
                           (("N",), lambda: self.next_unlabelled(False, in_table=True)),
                           (("Shift+N",), lambda: self.next_unlabelled(True, in_table=True))):
            for key in keys:
                QShortcut(QKeySequence(key), view, slot,
                          context=Qt.ShortcutContext.WidgetShortcut)

    # -- where the current row is --------------------------------------------------------------------
    def _variant(self) -> str:
        return self.tab.model.variant()

    def table_row(self) -> int | None:
        index = self.tab.view.currentIndex()
        if not index.isValid() or self.tab.model.rowCount() == 0:
            return None
        return self.tab.model.source_row(index.row())

    def _target(self, in_table: bool) -> tuple[int | None, bool]:
        """(source row, in the compare view?) of the row a label action is for."""
        if not in_table and self.compare_shown():
            # Never the table's current row, out of sight: with no dataset row in the compare
            # view (a file opened there), a label has no row; Next unlabelled starts at the top.
            return self.compare_row(), True
        return self.table_row(), False

    # -- doing -----------------------------------------------------------------------------------------
    def mark(self, label: int, in_table: bool = False) -> None:
        if self.session.labels is None:
            self._say("Open and score a dataset first, then label its rows.", False)
            return
        row, _ = self._target(in_table)
        if row is None:
            self._say("Choose a row in the table first (or open one in Compare).", False)
            return
        self.session.mark(row, self._variant(), label)
        now = self.session.labels.label(row, self._variant())
        self.tab.sig_status.emit(f"Row {row + 1}: {WORD[now]} · {self.counter_text()}")

    def ask_note(self) -> None:
        if self.session.labels is None:
            return
        row, _ = self._target(False)
        if row is None:
            self._say("Choose a row in the table first (or open one in Compare).", False)
            return
        variant = self._variant()
        dialog = QInputDialog(self.tab)
        dialog.setWindowTitle("Note")
        dialog.setLabelText(f"A note on row {row + 1} ({variant}), saved with its label:")
        dialog.setTextValue(self.session.labels.note(row, variant))
        dialog.textValueSelected.connect(
            lambda text: self.session.set_note(row, variant, text.strip()))
        dialog.finished.connect(dialog.deleteLater)
        self.note_dialog = dialog
        dialog.open()  # not exec(): the window stays alive (and tests can answer it)

    def next_unlabelled(self, failing: bool, in_table: bool = False) -> int | None:
        labels = self.session.labels
        if labels is None:
            return None
        row, in_compare = self._target(in_table)
        wanted = None
        if failing:
            data = self.tab.model.view_data()
            wanted = failing_mask(data) if data is not None else None
        found = next_unlabelled(self.tab.model.order(), labels.codes(self._variant()), row,
                                wanted)
        if found is None:
            which = "failing row" if failing else "row"
            self._say(f"Every {which} shown is labelled ({self.counter_text()}).", False)
            return None
        if in_compare and self.open_row is not None:
            self.open_row(found)
        else:
            self.select(found)
        return found

    def select(self, row: int) -> None:
        view_row = self.tab.model.view_row(row)
        if view_row is None:
            return
        index = self.tab.model.index(view_row, 0)
        self.tab.view.setCurrentIndex(index)
        self.tab.view.scrollTo(index)

    def export_dialog(self) -> None:
        if self.session.labels is None:
            self._say("Score a dataset first.", False)
            return
        name, _ = QFileDialog.getSaveFileName(self.tab, "Export labels",
                                              str(self.tab.table.path.with_suffix("")) +
                                              ".labels-export.csv", "CSV (*.csv)")
        if name:
            self.export(Path(name))

    def export(self, path: Path) -> bool:
        try:
            n = self.session.labels.export(path)
        except MatchLensError as err:
            self._say(str(err), True)
            return False
        self._say(f"Wrote {n:,} labelled rows to {path}.", False)
        return True

    # -- the session's life ------------------------------------------------------------------------
    def start(self, prepared, variants: list[str]) -> None:  # noqa: ANN001 - Prepared
        self.session.open(self.tab.table.path, prepared.rows, variants, prepared.labels,
                          prepared.ids)

    def stop(self) -> None:
        self.session.close()
        self.live.clear()
        self.counter_changed()

    def row_words(self, row: int) -> list[str]:
        """How the compare view's line names the human verdict: ["human: pass", "42 of 200…"]."""
        labels = self.session.labels
        if labels is None or self._variant() not in labels.variants:
            return []
        label = labels.label(row, self._variant())
        return [f"human: {WORD[label]}" if label != NONE else "not labelled",
                self.counter_text()]

    def counter_text(self) -> str:
        labels = self.session.labels
        return labels.counter_text(self._variant()) if labels is not None else ""

    def counter_changed(self) -> None:
        self.counter.setText(self.counter_text())

    def _on_changed(self, variant: str) -> None:
        self.tab.model.refresh_column("human")
        self.counter_changed()
        self.live.labels_changed(variant)
        row = self.compare_row()
        if row is not None and self.on_compare_changed is not None:
            self.on_compare_changed(row)

    def _cell(self, row: int, role: int) -> object:
        labels = self.session.labels
        if labels is None:
            return None
        variant = self._variant()
        label = labels.label(row, variant)
        if role == Qt.ItemDataRole.DisplayRole:
            mark = {PASS: "✓ pass", FAIL: "✗ fail", NONE: ""}[label]
            return mark + (" ✎" if labels.note(row, variant) else "")
        if role == Qt.ItemDataRole.BackgroundRole:
            colours = self.tab.model.colours
            return {PASS: colours.passed, FAIL: colours.failed}.get(label)
        if role == Qt.ItemDataRole.ToolTipRole:
            note = labels.note(row, variant)
            text = (f"You: {LABEL_TEXT[label]}" if label != NONE else "No human verdict yet") + \
                " (P pass, F fail, Delete clears)"
            return text + (f"\nNote: {note}" if note else "")
        return None

    def _say(self, sentence: str, error: bool) -> None:
        self.tab.say(sentence, error=error)
        self.tab.sig_status.emit(sentence)
