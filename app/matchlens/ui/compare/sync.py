"""Locked scrolling: when one editor scrolls, the others follow via core.scroll_sync anchors.

The editors are the nodes of a small graph whose links are alignments: expected ↔ actual (the
tab's highlight), and with a run's baseline shown, the baseline pane linked to the text its own
highlight was computed against (the reference; in *Outputs directly*, this output). A scroll
walks the links from the editor that moved, each neighbour placed at the line the link's
`LineAnchors` maps to, so three panes stay aligned by content the way two do. A link without
anchors yet (its highlight still computing) maps 1:1.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

from PySide6.QtCore import QObject

from matchlens.core.diff.scroll_sync import LineAnchors
from matchlens.ui.compare.editors import DiffEditor

MAIN_LINK = ("expected", "actual")


class ScrollLock(QObject):
    def __init__(self, expected: DiffEditor, actual: DiffEditor, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.editors: dict[str, DiffEditor] = {}
        # (first, second) -> anchors whose "expected" side is `first` (None: map 1:1)
        self.links: dict[tuple[str, str], LineAnchors | None] = {MAIN_LINK: None}
        self.locked = True
        self._busy = False
        self.add_editor("expected", expected)
        self.add_editor("actual", actual)

    # -- the graph ------------------------------------------------------------------------------
    def add_editor(self, name: str, editor: DiffEditor) -> None:
        """One more editor that scrolls with the others once it is linked (`set_link`)."""
        self.editors[name] = editor
        editor.verticalScrollBar().valueChanged.connect(lambda _value, s=name: self._follow(s))
        editor.horizontalScrollBar().valueChanged.connect(
            lambda value, s=name: self._follow_horizontal(s, value))

    @property
    def anchors(self) -> LineAnchors | None:
        """The anchors of the expected ↔ actual alignment (the tab's highlight)."""
        return self.links[MAIN_LINK]

    @anchors.setter
    def anchors(self, anchors: LineAnchors | None) -> None:
        self.links[MAIN_LINK] = anchors

    def set_link(self, first: str, second: str, anchors: LineAnchors | None) -> None:
        """Link `second` to `first` alone (any other link of `second` goes): `anchors` map
        `first`'s lines as their expected side, `second`'s as their actual side."""
        self.unlink(second)
        self.links[(first, second)] = anchors

    def unlink(self, name: str) -> None:
        """`name` no longer scrolls with the others (never the expected ↔ actual link)."""
        for key in [k for k in self.links if name in k and k != MAIN_LINK]:
            del self.links[key]

    def map_line(self, line: float, from_side: str, to_side: str | None = None) -> float:
        """The line of `to_side` (default: the other of expected/actual) matching `line` of
        `from_side`, along a direct link."""
        if to_side is None:
            to_side = "actual" if from_side == "expected" else "expected"
        if (from_side, to_side) in self.links:
            anchors, side = self.links[(from_side, to_side)], "expected"
        elif (to_side, from_side) in self.links:
            anchors, side = self.links[(to_side, from_side)], "actual"
        else:
            raise ValueError(f"{from_side!r} and {to_side!r} are not linked")
        if anchors is None:
            return line  # no alignment yet: 1:1 is the best guess
        return anchors.map(max(0.0, line), side)

    def targets(self, source: str, line: float, fixed: Iterable[str] = ()) -> dict[str, float]:
        """Where every editor linked (through any chain) to `source` goes when `source` shows
        `line` at its top. An editor in `fixed` stays put and the walk goes on from its own top
        line (navigation places some panes itself)."""
        fixed = set(fixed)
        lines = {source: line}
        queue = [source]
        while queue:
            here = queue.pop(0)
            for first, second in self.links:
                there = second if first == here else first if second == here else None
                if there is None or there in lines:
                    continue
                lines[there] = (self.editors[there].top_line() if there in fixed
                                else self.map_line(lines[here], here, there))
                queue.append(there)
        return {name: at for name, at in lines.items() if name != source and name not in fixed}

    # -- scrolling ------------------------------------------------------------------------------
    def set_locked(self, locked: bool) -> None:
        self.locked = locked
        if locked:
            self._follow("expected")

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        """Move the editors independently (navigation places each one itself)."""
        busy, self._busy = self._busy, True
        try:
            yield
        finally:
            self._busy = busy

    def align(self, source: str, fixed: Iterable[str] = ()) -> None:
        """Bring the editors other than `source` and `fixed` to `source`'s position."""
        if not self.locked:
            return
        with self.suspended():
            for name, line in self.targets(source, self.editors[source].top_line(),
                                           fixed).items():
                self.editors[name].scroll_to_line(line)

    def _follow(self, side: str) -> None:
        if self._busy:
            return
        self.align(side)

    def _follow_horizontal(self, side: str, value: int) -> None:
        if not self.locked or self._busy:
            return
        with self.suspended():
            for name in self.targets(side, 0.0):
                self.editors[name].horizontalScrollBar().setValue(value)
