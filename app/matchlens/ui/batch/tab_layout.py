"""The batch tab's widgets and how they are laid out: the bars and the sentence on top, the
mapping panel beside the table, the plots' tabs under it (Distributions, Calibration,
Variants/Runs, Fields), and the splitter sizes the window keeps between sessions.

`TabLayout(tab)` builds the widgets once and names them on the tab (as Qt Designer's setupUi
names a form's widgets on the form: `tab.top`, `tab.model`, `tab.view`, `tab.tabs`, …); the tab
connects them to what it does. The layout owns only the splitters' first sizing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from matchlens.ui.batch.bars import ProgressRow, TableBar, TopBar
from matchlens.ui.batch.calibration_view import CalibrationView
from matchlens.ui.batch.fields_view import FieldsView
from matchlens.ui.batch.histograms import HistogramGrid
from matchlens.ui.batch.mapping_panel import MappingPanel
from matchlens.ui.batch.table_model import BatchTableModel
from matchlens.ui.batch.table_view import BatchTableView
from matchlens.ui.batch.variants_view import VariantsView

TABLE_ROWS = 10  # rows the table gets at first show when the window has the room
MIN_PLOTS_HEIGHT = 190  # the plots tab never shrinks below this: a histogram's axes stay


class TabLayout:
    """The widgets of the batch tab `tab`, built and named on it (see the module)."""

    def __init__(self, tab: QWidget) -> None:
        layout = QVBoxLayout(tab)
        tab.top = TopBar(tab)
        layout.addWidget(tab.top)
        tab.progress = ProgressRow(tab)
        layout.addWidget(tab.progress)
        tab.message = message = QLabel(tab)
        message.setWordWrap(True)
        message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        message.hide()
        layout.addWidget(message)

        split = QSplitter(Qt.Orientation.Horizontal, tab)
        tab.mapping_panel = MappingPanel(split)
        right = QSplitter(Qt.Orientation.Vertical, split)
        table_box = QWidget(right)
        box = QVBoxLayout(table_box)
        box.setContentsMargins(0, 0, 0, 0)
        tab.model = BatchTableModel(tab)
        tab.table_bar = TableBar(tab.model, table_box)
        box.addWidget(tab.table_bar)
        tab.view = BatchTableView(tab.model, table_box)
        box.addWidget(tab.view)
        tab.tabs = tabs = QTabWidget(right)
        tab.histograms = HistogramGrid(tabs)
        tab.calibration = CalibrationView(tabs)
        tab.variants = VariantsView(tabs)
        tabs.addTab(tab.histograms, "Distributions")
        tabs.addTab(tab.calibration, "Calibration")
        tabs.addTab(tab.variants, "Variants")
        tab.fields = FieldsView(tabs)
        tabs.addTab(tab.fields, "Fields")
        right.addWidget(table_box)
        right.addWidget(tabs)
        # Neither the table nor the plots can be dragged away: they shrink to their minimum
        # (a few rows; a plot's axes) instead of vanishing. The first show gives the table
        # TABLE_ROWS rows when there is room (fit_table_rows); the user's sizes are remembered.
        right.setChildrenCollapsible(False)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        split.addWidget(tab.mapping_panel)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setCollapsible(1, False)  # the mapping panel folds away (View ▸ Mapping panel)
        split.setSizes([260, 1000])
        tab.split, tab.right_split = split, right
        layout.addWidget(split, 1)
        self.tab = tab
        self.sized = False  # the first show sizes the table, unless sizes were restored

    def first_show(self) -> None:
        """The tab is shown: the first time, the table gets its rows (fit_table_rows)."""
        if not self.sized:
            self.sized = True
            self.fit_table_rows()

    def fit_table_rows(self, rows: int = TABLE_ROWS) -> None:
        """Give the table `rows` rows (header and bar too) when the plots keep their minimum;
        else what is left after the plots' minimum."""
        tab = self.tab
        total = sum(tab.right_split.sizes())
        if total <= 0:
            return
        view = tab.view
        chrome = tab.table_bar.sizeHint().height() + view.horizontalHeader().sizeHint().height()
        chrome += view.horizontalScrollBar().sizeHint().height() + 2 * view.frameWidth() + 6
        want = chrome + rows * view.verticalHeader().defaultSectionSize()
        plots = self.plots_minimum()
        table = max(min(want, total - plots), total // 2)
        table = min(table, total - plots)
        tab.right_split.setSizes([table, total - table])

    def plots_minimum(self) -> int:
        """The least height the plots' tabs get (the splitter keeps it: never collapsible): a
        histogram's axes, and the Calibration page's controls with a scroll bar."""
        return max(MIN_PLOTS_HEIGHT, self.tab.tabs.minimumSizeHint().height())

    def state(self) -> dict[str, object]:
        """The splitters' sizes (kept in QSettings)."""
        return {"split": self.tab.split.saveState(), "right": self.tab.right_split.saveState()}

    def restore(self, state: dict[str, object]) -> None:
        for key, splitter in (("split", self.tab.split), ("right", self.tab.right_split)):
            if state.get(key) is not None and splitter.restoreState(state[key]):
                self.sized = self.sized or key == "right"
