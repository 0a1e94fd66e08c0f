"""Locked scrolling: when one editor scrolls, the other follows via core.scroll_sync anchors."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from PySide6.QtCore import QObject

from matchlens.ui.compare.editors import DiffEditor


class ScrollLock(QObject):
    def __init__(self, expected: DiffEditor, actual: DiffEditor, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.editors = {"expected": expected, "actual": actual}
        self.anchors = None  # core.scroll_sync.LineAnchors of the current alignment
        self.locked = True
        self._busy = False
        for side, editor in self.editors.items():
            editor.verticalScrollBar().valueChanged.connect(
                lambda _value, s=side: self._follow(s))
            editor.horizontalScrollBar().valueChanged.connect(
                lambda value, s=side: self._follow_horizontal(s, value))

    @staticmethod
    def other(side: str) -> str:
        return "actual" if side == "expected" else "expected"

    def set_locked(self, locked: bool) -> None:
        self.locked = locked
        if locked:
            self._follow("expected")

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        """Move both editors independently (navigation places each one itself)."""
        busy, self._busy = self._busy, True
        try:
            yield
        finally:
            self._busy = busy

    def map_line(self, line: float, from_side: str) -> float:
        if self.anchors is None:
            return line  # no alignment yet: 1:1 is the best guess
        return self.anchors.map(max(0.0, line), from_side)

    def _follow(self, side: str) -> None:
        if not self.locked or self._busy:
            return
        source, target = self.editors[side], self.editors[self.other(side)]
        with self.suspended():
            target.scroll_to_line(self.map_line(source.top_line(), side))

    def _follow_horizontal(self, side: str, value: int) -> None:
        if not self.locked or self._busy:
            return
        with self.suspended():
            self.editors[self.other(side)].horizontalScrollBar().setValue(value)
