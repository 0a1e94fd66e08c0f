"""The link between the two places of moved text: hover one, the other lights; jump between.

The moves come with the highlight's SpanTable (`table.moves`, see `core.diff.moves`). Hovering a
moved piece on one side tints its other place on the other side (the "link" layer); a Ctrl+click
on it, or the *Go to the other place* action (Ctrl+Shift+M) with the caret inside it, centres
and flashes the other place.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit

from matchlens.core.diff.span_table import SpanTable
from matchlens.ui.palette import diff_colours

OTHER = {"expected": "actual", "actual": "expected"}


class MoveLink(QObject):
    """Wires the panes' decorators to each other for moved text."""

    def __init__(self, panes: dict, table: Callable[[], SpanTable | None],
                 last_side: Callable[[], str], status: Callable[[str], None],
                 parent: QObject) -> None:
        super().__init__(parent)
        self.panes = panes
        self._table = table
        self._last_side = last_side
        self._status = status
        self.lit: tuple[str, int] | None = None  # (side lit, move index)
        for side, pane in panes.items():
            pane.decorator.sig_move_hovered.connect(lambda m, s=side: self.light(s, m))
            pane.decorator.sig_move_clicked.connect(lambda m, s=side: self.jump(s, m))
        self.action_jump = QAction("Go to the &other place of moved text", parent)
        self.action_jump.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.action_jump.setToolTip("With the caret in moved text (violet), show where it "
                                    "moved to or from (Ctrl+Shift+M; or Ctrl+click it)")
        self.action_jump.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.action_jump.triggered.connect(self.jump_from_caret)

    def _range(self, side: str, move: int) -> tuple[int, int]:
        row = self._table().moves[move]
        return (int(row[0]), int(row[1])) if side == "expected" else (int(row[2]), int(row[3]))

    def light(self, hovered_side: str, move: int) -> None:
        """Tint the other place of `move` (hovered on `hovered_side`); -1 clears."""
        table = self._table()
        for pane in self.panes.values():
            pane.editor.set_layer("link", [])
        self.lit = None
        if move < 0 or table is None or move >= len(table.moves):
            return
        side = OTHER[hovered_side]
        pane = self.panes[side]
        start, end = (pane.position(x) for x in self._range(side, move))
        cursor = QTextCursor(pane.editor.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setBackground(diff_colours(pane.editor.palette()).moved_link)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = fmt
        pane.editor.set_layer("link", [selection])
        self.lit = (side, move)

    def jump(self, from_side: str, move: int) -> None:
        """Centre and flash the other place of `move`, seen from `from_side`."""
        table = self._table()
        if table is None or not 0 <= move < len(table.moves):
            return
        side = OTHER[from_side]
        start, end = self._range(side, move)
        pane = self.panes[side]
        pane.show_range(start, end, diff_colours(pane.editor.palette()).moved_link)
        pane.editor.setFocus()

    def jump_from_caret(self) -> None:
        table = self._table()
        side = self._last_side()
        move = None if table is None else table.move_at(side, self.panes[side].cursor_offset())
        if move is None:
            self._status("The caret is not in moved text.")
            return
        self.jump(side, move)
