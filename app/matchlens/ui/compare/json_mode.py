"""The compare view when both sides are JSON: the JSON distance panel moves to the top of the
metric column, and its *Format JSON* toggle pretty-prints both sides alike (the
output's keys in the reference's order, numbers exactly as written: core.diff.json_format), so
the text diff lines up field by field. Off again, the texts as they were come back (unless they
were edited meanwhile: then the edit stays).

Attached to a CompareTab by one line; it only reads the tab's texts and sets them through its
panes, as opening a file does.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolButton

from matchlens.core.diff.json_format import format_pair, is_json

# Both sides are parsed on the GUI thread to tell whether they are JSON: texts this long (about
# 20 ms to parse) are left alone.
MAX_CHARS = 2_000_000
PANEL = "json_distance"


class JsonMode(QObject):
    def __init__(self, tab) -> None:  # noqa: ANN001 - a CompareTab (no import cycle)
        super().__init__(tab)
        self.tab = tab
        # not on the toolbar: it is full at 1280 px; the JSON distance panel, first whenever
        # the toggle applies, carries its button
        self.action = QAction("Format JSON", self)
        self.action.setCheckable(True)
        self.action.setEnabled(False)
        self.action.setToolTip("Pretty-print both JSON sides alike: the output's keys in the "
                               "reference's order, numbers as written")
        self.action.toggled.connect(self.set_formatted)
        panel = tab.panels.get(PANEL)
        self.button = QToolButton(panel)
        self.button.setDefaultAction(self.action)
        if panel is not None:
            panel.layout().addWidget(self.button)
        self.both_json = False
        self.original: tuple[str, str] | None = None
        self.formatted: tuple[str, str] | None = None
        self._home: int | None = None  # the panel's place in its column before it moved
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.check)
        for pane in tab.panes.values():
            pane.editor.textChanged.connect(self.timer.start)
        self.check()

    def check(self) -> None:
        """Are both sides JSON now? Move the panel, enable the toggle; an edit made while
        formatted keeps the edited text (the toggle goes off without restoring)."""
        texts = self.tab.texts()
        if self.formatted is not None and texts != self.formatted:
            self.original = self.formatted = None
            self.action.blockSignals(True)
            self.action.setChecked(False)
            self.action.blockSignals(False)
        small = sum(map(len, texts)) <= MAX_CHARS
        self.both_json = small and all(is_json(t) for t in texts)
        self.action.setEnabled(self.both_json or self.action.isChecked())
        self._place_panel(first=self.both_json)

    def _place_panel(self, first: bool) -> None:
        panel = self.tab.panels.get(PANEL)
        if panel is None:
            return
        layout = panel.parentWidget().layout()
        if first and self._home is None:
            self._home = layout.indexOf(panel)
            layout.insertWidget(0, panel)
            # once the column has laid itself out again: scrolled to its new first panel
            # (`self` as the context: a tab closed meanwhile cancels it)
            QTimer.singleShot(0, self, lambda: self.tab.show_panel(PANEL))
        elif not first and self._home is not None:
            layout.insertWidget(self._home, panel)
            self._home = None

    def set_formatted(self, on: bool) -> None:
        panes = self.tab.panes
        if on:
            texts = self.tab.texts()
            pair = format_pair(*texts)
            if pair is None:
                self.action.blockSignals(True)
                self.action.setChecked(False)
                self.action.blockSignals(False)
                self.tab.sig_status.emit("Format JSON: both sides must be JSON")
                return
            self.original, self.formatted = texts, pair
            for side, text in zip(("expected", "actual"), pair, strict=True):
                panes[side].set_text(text, panes[side].source)
            return
        original, self.original = self.original, None
        formatted, self.formatted = self.formatted, None
        if original is not None and self.tab.texts() == formatted:
            for side, text in zip(("expected", "actual"), original, strict=True):
                panes[side].set_text(text, panes[side].source)
