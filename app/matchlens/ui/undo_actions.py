"""The Edit menu's Undo and Redo: every threshold, option and label change is one command of
the config model's QUndoStack, and these two actions walk it (with the platform's keys)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QMenu, QWidget


def add_undo_actions(stack: QUndoStack, menu: QMenu, parent: QWidget
                     ) -> tuple[QAction, QAction]:
    """Undo and Redo of `stack`, added to `menu`: (undo, redo)."""
    undo = stack.createUndoAction(parent, "&Undo")
    undo.setShortcuts(QKeySequence.StandardKey.Undo)
    redo = stack.createRedoAction(parent, "&Redo")
    # Ctrl+Shift+Z everywhere (the brief's key), plus the platform's own (Ctrl+Y on Windows).
    redo_keys = [QKeySequence("Ctrl+Shift+Z")]
    redo_keys += [k for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
                  if k not in redo_keys]
    redo.setShortcuts(redo_keys)
    for action, tip in ((undo, "Undo the last change: a threshold, an option or a label"),
                        (redo, "Redo the change last undone")):
        action.setStatusTip(tip)
        menu.addAction(action)
    return undo, redo
