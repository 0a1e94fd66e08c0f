"""Human labels as undoable commands: `LabelSession` holds the open dataset's
`core.labels.Labels` and turns every change into a command on the window's one undo stack (the
config model's), so Ctrl+Z undoes the last thing done, a label or a threshold. Each change is
saved to the sidecar at once (`Labels.set`): beside the data, or in the user's data folder when
the data's folder cannot be written (said once); a save that fails there too is a sentence, and
the label stands in the window.

Marking a row with the label it already has clears it (one key marks and clears).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from matchlens.core.errors import MatchLensError
from matchlens.core.labels.store import FAIL, NONE, PASS, Labels, Snapshot

WORD = {PASS: "pass", FAIL: "fail", NONE: "no label"}


class LabelCommand(QUndoCommand):
    """One (row, variant) from one (label, note) to another."""

    def __init__(self, session: LabelSession, labels: Labels, row: int, variant: str,
                 before: tuple[int, str], after: tuple[int, str], text: str) -> None:
        super().__init__(text)
        self.session, self.labels, self.row, self.variant = session, labels, row, variant
        self.before, self.after = before, after

    def redo(self) -> None:
        self.session.apply(self.labels, self.row, self.variant, self.after)

    def undo(self) -> None:
        self.session.apply(self.labels, self.row, self.variant, self.before)


class ClearAllCommand(QUndoCommand):
    def __init__(self, session: LabelSession, labels: Labels, before: Snapshot) -> None:
        super().__init__("Clear all labels")
        self.session, self.labels, self.before = session, labels, before

    def redo(self) -> None:
        self.session.restore(self.labels, Snapshot(()))

    def undo(self) -> None:
        self.session.restore(self.labels, self.before)


class LabelSession(QObject):
    """The open dataset's labels; every change is an undoable command and is saved at once."""

    sig_changed = Signal(str)  # the variant whose labels changed ('' = every variant)
    sig_said = Signal(str, bool)  # a sentence for the window; True = something went wrong
    # Where the labels are saved when that is not beside the data (said once): a path to keep,
    # so the window shows it until dismissed rather than for a moment on the status bar.
    sig_where = Signal(str)

    def __init__(self, undo_stack: QUndoStack, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.labels: Labels | None = None

    def open(self, data: Path, rows: int, variants: list[str], base: np.ndarray | None,
             ids: list[str | None] | None) -> None:
        self.labels, sentence = Labels.open(data, rows, variants, base, ids)
        if sentence:
            self.sig_said.emit(sentence, "unreadable" in sentence or "could not" in sentence)
        self.sig_changed.emit("")

    def close(self) -> None:
        self.labels = None

    def mark(self, row: int, variant: str, label: int) -> None:
        """Give (row, variant) `label`; the label it already has clears it."""
        if self.labels is None:
            return
        before = self.labels.state(row, variant)
        after = (NONE if before[0] == label else label, before[1])
        word = WORD[after[0]]
        self.undo_stack.push(LabelCommand(self, self.labels, row, variant, before, after,
                                          f"Label row {row + 1}: {word}"))

    def set_note(self, row: int, variant: str, note: str) -> None:
        if self.labels is None:
            return
        before = self.labels.state(row, variant)
        if before[1] == note:
            return
        self.undo_stack.push(LabelCommand(self, self.labels, row, variant, before,
                                          (before[0], note), f"Note on row {row + 1}"))

    def clear_all(self) -> None:
        if self.labels is None or not self.labels.changes():
            self.sig_said.emit("There is no label of yours to clear.", False)
            return
        n = self.labels.changes()
        self.undo_stack.push(ClearAllCommand(self, self.labels, self.labels.snapshot()))
        back = " (back to the data's label column)" if self.labels.has_base else ""
        self.sig_said.emit(f"Cleared {n:,} label change{'' if n == 1 else 's'}{back}; "
                           "Ctrl+Z brings them back.", False)

    # -- what the commands do ----------------------------------------------------------------------
    def _live(self, labels: Labels) -> Labels:
        """The labels a command should change: the open ones when they are the same file's.
        A file scored again gets a new Labels (read back from its sidecar); a command made
        before must change that one, or saving the old object would drop newer labels."""
        current = self.labels
        if current is not None and labels.path is not None and labels.path == current.path:
            return current
        return labels

    def apply(self, labels: Labels, row: int, variant: str, state: tuple[int, str]) -> None:
        labels = self._live(labels)
        try:
            where = labels.set(row, variant, state[0], state[1])
        except MatchLensError as err:  # not saved; the label stands in the window
            self.sig_said.emit(str(err), True)
        except IndexError:
            self.sig_said.emit(f"Row {row + 1} is no longer in these labels.", True)
            return
        else:
            if where:  # once: the labels are kept in the user's data folder, not beside the data
                self.sig_said.emit(where, False)
                self.sig_where.emit(where)
        if labels is self.labels:
            self.sig_changed.emit(variant)
        else:
            name = labels.path.name if labels.path is not None else "a dataset"
            self.sig_said.emit(f"Changed a label in {name}, which is no longer open (saved "
                               "there).", False)

    def restore(self, labels: Labels, snapshot: Snapshot) -> None:
        labels = self._live(labels)
        try:
            where = labels.restore(snapshot)
        except MatchLensError as err:
            self.sig_said.emit(str(err), True)
        else:
            if where:
                self.sig_said.emit(where, False)
                self.sig_where.emit(where)
        if labels is self.labels:
            self.sig_changed.emit("")
