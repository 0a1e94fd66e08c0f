"""Help ▸ Keyboard shortcuts: every shortcut of the window, read from its QActions (menus
first, in menu order, then actions living on widgets), its buttons and its QShortcuts when the
dialog opens — generated, so it never goes stale."""

from __future__ import annotations

import html

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QMenu,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)


def _keys(sequences: list[QKeySequence]) -> str:
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences
                     if not s.isEmpty())


def _name(text: str) -> str:
    """A menu text as read: no accelerator marks, no trailing ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def shortcut_rows(window: QWidget) -> list[tuple[str, str, str]]:
    """(where, what, keys) for every shortcut of `window`: its menu bar's actions by menu
    ("View ▸ Diff"), then actions elsewhere, buttons and QShortcuts ("Other")."""
    rows: list[tuple[str, str, str]] = []
    seen: set[int] = set()

    def walk(menu: QMenu, where: str) -> None:
        for action in menu.actions():
            if action.menu() is not None:
                walk(action.menu(), f"{where} ▸ {_name(action.menu().title())}")
            elif not action.isSeparator():
                seen.add(id(action))
                keys = _keys(action.shortcuts())
                if keys:
                    rows.append((where, _name(action.text()), keys))

    bar = window.menuBar() if hasattr(window, "menuBar") else None
    for action in (bar.actions() if bar is not None else []):
        if action.menu() is not None:
            walk(action.menu(), _name(action.menu().title()))
    for action in window.findChildren(QAction):
        keys = _keys(action.shortcuts())
        if keys and id(action) not in seen and action.text():
            seen.add(id(action))
            rows.append(("Other", _name(action.text()), keys))
    for button in window.findChildren(QAbstractButton):
        keys = _keys([button.shortcut()])
        if keys:
            rows.append(("Other", _name(button.text() or button.toolTip()), keys))
    for shortcut in window.findChildren(QShortcut):
        keys = _keys([shortcut.key()])
        if keys:
            rows.append(("Other", shortcut.whatsThis() or shortcut.objectName() or keys, keys))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        self.rows = shortcut_rows(window)
        layout = QVBoxLayout(self)
        self.text = QTextBrowser(self)
        parts, last = ["<table cellspacing='0' cellpadding='3'>"], None
        for where, what, keys in self.rows:
            if where != last:
                parts.append(f"<tr><td colspan='2'><b>{html.escape(where)}</b></td></tr>")
                last = where
            parts.append(f"<tr><td>{html.escape(what)}</td>"
                         f"<td><code>{html.escape(keys)}</code></td></tr>")
        parts.append("</table>")
        self.text.setHtml("".join(parts))
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, 560)
