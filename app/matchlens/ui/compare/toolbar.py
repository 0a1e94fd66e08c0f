"""The compare tab's toolbar: open either side, swap them, step through the differences (with
the "difference 3 of 12" label between the buttons), lock scrolling, the exact edits view,
the highlight's granularity, every text metric's normalisation at once, and the colour legend.

`CompareToolbar` only holds these actions and boxes; the compare tab connects them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QLabel, QToolBar, QWidget

from matchlens.ui.normalise_box import NormaliseBox
from matchlens.ui.palette import diff_colours


class CompareToolbar(QToolBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.action_open_expected = self.addAction("Open expected…")
        self.action_open_actual = self.addAction("Open actual…")
        self.action_swap = self.addAction("Swap sides")
        self.action_swap.setToolTip("Exchange the expected and the actual text")
        self.addSeparator()
        self.action_previous = self.addAction("◀ Previous")
        self.action_previous.setToolTip("Previous difference (Shift+F7)")
        self.difference_label = QLabel(" — ", self)  # "no differences" only once computed
        self.difference_label.setObjectName("difference_label")
        self.addWidget(self.difference_label)
        self.action_next = self.addAction("Next ▶")
        self.action_next.setToolTip("Next difference (F7)")
        self.addSeparator()
        self.action_lock = self.addAction("&Lock scrolling")
        self.action_lock.setCheckable(True)
        self.action_lock.setChecked(True)
        self.action_lock.setToolTip("Scroll both texts together, aligned on their differences")
        self.action_exact = self.addAction("Exact edits")
        self.action_exact.setCheckable(True)
        self.action_exact.setShortcut("Ctrl+E")
        self.action_exact.setToolTip(
            "Draw the minimal edit script the Levenshtein distance counts, edit by edit, "
            "instead of the readable word-aligned pieces (Ctrl+E)")
        self.action_inline = self.addAction("Inline")
        self.action_inline.setCheckable(True)
        self.action_inline.setShortcut("Ctrl+Shift+I")
        self.action_inline.setToolTip(
            "Show both texts as one, deleted text struck through before the inserted text, "
            "instead of side by side (Ctrl+Shift+I)")
        self.action_collapse = self.addAction("Collapse")
        self.action_collapse.setCheckable(True)
        self.action_collapse.setShortcut("Ctrl+Shift+U")
        self.action_collapse.setToolTip(
            "Collapse unchanged text to a few lines around each difference; click a "
            "\u201c\u22ef unchanged lines\u201d line to show it (Ctrl+Shift+U)")
        self.granularity_box = QComboBox(self)
        self.granularity_box.addItem("Characters", "char")
        self.granularity_box.addItem("Words", "word")
        self.granularity_box.setToolTip("Highlight edits character by character or word by word")
        self.addWidget(self.granularity_box)
        # every text metric's normalisation at once; the highlight follows levenshtein_distance's
        self.addWidget(QLabel(" Normalise ", self))
        self.normalise_box = NormaliseBox(self)
        self.addWidget(self.normalise_box)
        # (not on this bar: the main window puts it on its status bar, shown with this view)
        self.legend = QLabel()
        self.legend.setToolTip("Underlined and faint: differs only in case or whitespace. "
                               "Moved: a sentence, list item or paragraph found in another "
                               "place (hover it to light its other place; Ctrl+click to go "
                               "there)")
        self.update_legend(self.palette())

    def update_legend(self, palette: QPalette) -> None:
        """The colour chips of deleted, inserted and changed text, in `palette` (the tab's:
        told of a palette change before its children are)."""
        colours = diff_colours(palette)
        chips = [(colours.delete, "deleted"), (colours.insert, "inserted"),
                 (colours.substitute, "changed"), (colours.moved, "moved")]
        self.legend.setText("&nbsp;&nbsp;" + "&nbsp;".join(
            f'<span style="background-color:{c.name()}">&nbsp;{word}&nbsp;</span>'
            for c, word in chips))
