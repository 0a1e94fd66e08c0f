"""The compare tab's widgets: the toolbar (open, swap, differences, view options, normalise,
legend), the dataset row's bar (row_bar.py), the two editors side by side, and the column of
metric panels under a busy indicator.

A mixin of CompareTab: `_build_ui` runs once from its constructor.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QScrollArea,
    QSplitter,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.metrics.registry import all_metrics
from matchlens.ui.compare.find_bar import FindBar
from matchlens.ui.compare.panels import MetricPanel
from matchlens.ui.compare.row_bar import RowBar
from matchlens.ui.compare.semantic import NetworkPanel
from matchlens.ui.normalise_box import NormaliseBox
from matchlens.ui.palette import diff_colours


class CompareLayout:
    """Build the compare tab's toolbar, editors and panel column; draw the colour legend."""

    def _build_ui(self) -> None:
        self.toolbar = QToolBar(self)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.action_open_expected = self.toolbar.addAction("Open expected…")
        self.action_open_expected.triggered.connect(lambda: self.open_file_dialog("expected"))
        self.action_open_actual = self.toolbar.addAction("Open actual…")
        self.action_open_actual.triggered.connect(lambda: self.open_file_dialog("actual"))
        self.action_swap = self.toolbar.addAction("Swap sides")
        self.action_swap.setToolTip("Exchange the expected and the actual text")
        self.action_swap.triggered.connect(self.swap_sides)
        self.toolbar.addSeparator()
        self.action_previous = self.toolbar.addAction("◀ Previous")
        self.action_previous.setToolTip("Previous difference (Shift+F7)")
        self.action_previous.triggered.connect(self.previous_difference)
        self.difference_label = QLabel(" no differences ", self)
        self.difference_label.setObjectName("difference_label")
        self.toolbar.addWidget(self.difference_label)
        self.action_next = self.toolbar.addAction("Next ▶")
        self.action_next.setToolTip("Next difference (F7)")
        self.action_next.triggered.connect(self.next_difference)
        self.toolbar.addSeparator()
        self.action_lock = self.toolbar.addAction("&Lock scrolling")
        self.action_lock.setCheckable(True)
        self.action_lock.setChecked(True)
        self.action_lock.setToolTip("Scroll both texts together, aligned on their differences")
        self.action_lock.toggled.connect(self.scroll_lock.set_locked)
        self.action_exact = self.toolbar.addAction("Exact edits")
        self.action_exact.setCheckable(True)
        self.action_exact.setShortcut("Ctrl+E")
        self.action_exact.setToolTip(
            "Draw the minimal edit script the Levenshtein distance counts, edit by edit, "
            "instead of the readable word-aligned pieces (Ctrl+E)")
        self.action_exact.toggled.connect(
            lambda on: self.set_view("exact" if on else "readable"))
        self.granularity_box = QComboBox(self)
        self.granularity_box.addItem("Characters", "char")
        self.granularity_box.addItem("Words", "word")
        self.granularity_box.setToolTip("Highlight edits character by character or word by word")
        self.granularity_box.currentIndexChanged.connect(
            lambda _i: self.set_granularity(self.granularity_box.currentData()))
        self.toolbar.addWidget(self.granularity_box)
        # every text metric's normalisation at once; the highlight follows levenshtein_distance's
        self.toolbar.addWidget(QLabel(" Normalise ", self))
        self.normalise_box = NormaliseBox(self)
        self.normalise_box.sig_chosen.connect(self._normalise_all)
        self.toolbar.addWidget(self.normalise_box)
        self.legend = QLabel(self)
        self.legend.setToolTip("Underlined and faint: differs only in case or whitespace")
        self.toolbar.addWidget(self.legend)
        self._update_legend()
        # What a dataset row needs (its buttons, references, description) is a second bar,
        # shown only while a row is open here: one bar for both did not fit 1280 px.
        self.row_bar = RowBar(self)
        self.context_label = self.row_bar.context_label
        self.references = self.row_bar.references
        self.references.sig_reference.connect(
            lambda text: self.panes["expected"].set_text(text, "dataset"))
        self.references_action = self.row_bar.references_action

        self.editor_splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.editor_splitter.addWidget(self.panes["expected"])
        self.editor_splitter.addWidget(self.panes["actual"])
        self.editor_splitter.setChildrenCollapsible(False)

        panel_host = QWidget(self)
        panel_column = QVBoxLayout(panel_host)
        panel_column.setContentsMargins(0, 0, 4, 0)
        panel_column.setSpacing(6)
        for spec in all_metrics():
            if spec.network:
                panel = NetworkPanel(spec, self.config, panel_host)
                panel.sig_settings_requested.connect(self.open_settings)
            else:
                panel = MetricPanel(spec, self.config, panel_host)
            panel.sig_detail_activated.connect(self.select_json_path)
            panel.sig_compute_requested.connect(self.compute_network)
            panel.sig_auto_changed.connect(self._set_auto_network)
            panel.sig_status.connect(self.sig_status)
            self.panels[spec.id] = panel
            panel_column.addWidget(panel)
        panel_column.addStretch(1)
        self.panel_area = QScrollArea(self)
        self.panel_area.setWidgetResizable(True)
        self.panel_area.setWidget(panel_host)
        self.panel_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.panel_area.setMinimumWidth(300)
        self.panel_area.setFrameShape(self.panel_area.frameShape().NoFrame)
        # Over the panels (what is being waited for), not on the toolbar, which has no room.
        self.busy_indicator = self._busy_row()
        panel_side = QWidget(self)
        side_column = QVBoxLayout(panel_side)
        side_column.setContentsMargins(0, 0, 0, 0)
        side_column.setSpacing(2)
        side_column.addWidget(self.busy_indicator)
        side_column.addWidget(self.panel_area, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.editor_splitter)
        self.splitter.addWidget(panel_side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)

        self.find_bar = FindBar(self.editor, lambda: self._last_side, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 6)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.row_bar)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.splitter, 1)

    def _busy_row(self) -> QWidget:
        """'computing… ▭' while a long text is scored (hidden otherwise)."""
        self.busy_label = QLabel("computing…", self)
        self.busy_bar = QProgressBar(self)
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(70)
        self.busy_bar.setMaximumHeight(12)
        self.busy_bar.setTextVisible(False)
        busy = QWidget(self)
        busy_row = QHBoxLayout(busy)
        busy_row.setContentsMargins(6, 0, 0, 0)
        busy_row.addWidget(self.busy_label)
        busy_row.addWidget(self.busy_bar)
        busy_row.addStretch(1)
        # Its line stays when hidden: panels that jumped at every keystroke would stutter.
        policy = busy.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        busy.setSizePolicy(policy)
        busy.setVisible(False)
        return busy

    def show_panel(self, metric_id: str) -> None:
        panel = self.panels.get(metric_id)
        if panel is not None:
            self.panel_area.ensureWidgetVisible(panel)

    def _update_legend(self) -> None:
        colours = diff_colours(self.palette())
        chips = [(colours.delete, "deleted"), (colours.insert, "inserted"),
                 (colours.substitute, "changed")]
        self.legend.setText("&nbsp;&nbsp;" + "&nbsp;".join(
            f'<span style="background-color:{c.name()}">&nbsp;{word}&nbsp;</span>'
            for c, word in chips))
