"""The table view: fixed row heights and widths, so a million rows never get measured."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from matchlens.ui.batch.table_model import BatchTableModel

_WIDTHS = {"#": 56, "id": 80, "expected": 170, "actual": 230, "verdict": 70}


class BatchTableView(QTableView):
    def __init__(self, model: BatchTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setToolTip("")
        # Tab leaves the table (arrow keys move between cells), so the keyboard never sticks.
        self.setTabKeyNavigation(False)
        vertical = self.verticalHeader()
        vertical.hide()
        # Fixed heights: with ResizeToContents Qt would measure every row.
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setHighlightSections(False)
        header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)
        model.modelReset.connect(self._keep_sort_indicator)

    def fit_columns(self) -> None:
        model: BatchTableModel = self.model()
        metrics = self.horizontalHeader().fontMetrics()
        for column in range(model.columnCount()):
            key = model.column_key(column)
            title = str(model.headerData(column, Qt.Orientation.Horizontal))
            # Score columns are as wide as their header (numbers are short); no row is measured.
            width = _WIDTHS.get(key, max(70, metrics.horizontalAdvance(title) + 28))
            self.setColumnWidth(column, width)

    def _keep_sort_indicator(self) -> None:
        model: BatchTableModel = self.model()
        spec = model.view_spec()
        keys = [model.column_key(c) for c in range(model.columnCount())]
        if spec.sort in keys or spec.sort is None:
            order = Qt.SortOrder.DescendingOrder if spec.descending else Qt.SortOrder.AscendingOrder
            header = self.horizontalHeader()
            header.blockSignals(True)
            header.setSortIndicator(keys.index(spec.sort) if spec.sort else 0, order)
            header.blockSignals(False)

    def dataChanged(self, top_left: QModelIndex, bottom_right: QModelIndex,  # noqa: N802
                    roles: Sequence[int] = ()) -> None:
        """Rows scored off screen repaint nothing (Qt repaints the whole viewport for any
        change it cannot place: ~20 ms of cell callbacks per chunk while scoring)."""
        first = self.rowAt(0)
        last = self.rowAt(self.viewport().height() - 1)  # -1: the rows end above the bottom
        below = last >= 0 and top_left.row() > last
        if first >= 0 and (below or bottom_right.row() < first):
            return
        super().dataChanged(top_left, bottom_right, roles)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.doubleClicked.emit(self.currentIndex())
            return
        super().keyPressEvent(event)
