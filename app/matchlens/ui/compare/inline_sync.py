"""The two inline views of a run's row scroll together: *Reference → baseline output* beside
*Reference → this output*.

Both views hold the whole reference, each interleaved with another output's text, so the same
place of the reference sits at different lines in each. When the user scrolls one, the
character at its top left is mapped to its offset in the reference
(`core.diff.inline.side_offset`) and the other view is scrolled to put the line holding that
offset of the reference at its top (`inline_position`). Like the side-by-side panes, it follows
the tab's scroll lock; with *Outputs directly* only one inline view is shown and nothing is
linked.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from matchlens.core.diff.inline import inline_position, side_offset
from matchlens.ui.compare.inline_pane import InlinePane

REFERENCE = 0  # the side both inline views share: the reference (the layouts' expected side)


class InlineScroll(QObject):
    """Keeps `first` and `second` at the same place of the reference while `active()`."""

    def __init__(self, first: InlinePane, second: InlinePane, active: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.views = (first, second)
        self._active = active
        self._busy = False
        for source, target in ((first, second), (second, first)):
            source.view.verticalScrollBar().valueChanged.connect(
                lambda _value, s=source, t=target: self._follow(s, t))

    def quietly(self, move: Callable[[], object]) -> None:
        """Run `move` (navigation placing a view itself) without the other view following."""
        busy, self._busy = self._busy, True
        try:
            move()
        finally:
            self._busy = busy

    def reference_offset(self, view: InlinePane) -> int | None:
        """The reference offset at `view`'s top left (None: it shows no layout)."""
        if view.layout_ is None:
            return None
        return side_offset(view.layout_, view.top_offset(), REFERENCE)

    def align(self, source: InlinePane) -> None:
        """Bring the other view to `source`'s place of the reference."""
        target = self.views[1] if source is self.views[0] else self.views[0]
        self._follow(source, target)

    def _follow(self, source: InlinePane, target: InlinePane) -> None:
        if self._busy or not self._active() or target.layout_ is None:
            return
        offset = self.reference_offset(source)
        if offset is None:
            return
        self.quietly(lambda: target.scroll_to_offset(
            inline_position(target.layout_, offset, REFERENCE)))
