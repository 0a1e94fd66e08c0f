"""Every metric against the human labels at a glance, above the Calibration tab's detail.

One row per metric (core.calibration_report's numbers, the ones `matchlens calibrate` prints):
best threshold, precision / recall / F1 there, ROC AUC, and Cohen's kappa between the metric's
current verdict and the human. "Apply this threshold" sets the selected metric's suggestion as
one undoable step (the config model's undo stack).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.labels.calibration_report import COLUMN_TIPS, COLUMNS, MetricReport, row_cells
from matchlens.core.results import threshold_text

NO_LABELS_YET = ("No labels yet. In the table press <b>P</b> (pass) or <b>F</b> (fail) on a row "
                 "as you judge it, <b>N</b> for the next unlabelled row (Label menu: Ctrl+1, "
                 "Ctrl+2, F8 work in the Compare view too), or map a label column. These "
                 "numbers follow every label.")


class CalibrationSummary(QWidget):
    sig_selected = Signal(str)  # a metric row chosen
    sig_apply = Signal(str, float)  # "Apply this threshold": metric_id, value

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.counter = QLabel(self)
        self.counter.setTextFormat(Qt.TextFormat.RichText)
        self.counter.setWordWrap(True)
        top.addWidget(self.counter, 1)
        self.apply_button = QPushButton("Apply this threshold", self)
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self._apply)
        top.addWidget(self.apply_button)
        layout.addLayout(top)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels([title for _, title in COLUMNS])
        for i, (key, _) in enumerate(COLUMNS):
            tip = COLUMN_TIPS.get(key)
            if tip:
                self.table.horizontalHeaderItem(i).setToolTip(tip)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)  # a handful of rows: cheap to measure
        self.table.itemSelectionChanged.connect(self._on_selection)
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)  # compact: room for the ROC
        layout.addWidget(self.table)
        self._reports: dict[str, MetricReport] = {}
        self._selected: str | None = None
        self.set_reports([], "", None)

    def set_reports(self, reports: list[MetricReport], counter: str, selected: str | None) -> None:
        """Show these numbers; `counter` is "42 of 200 labelled (output_a)"."""
        self._reports = {r.spec.id: r for r in reports}
        self._selected = selected if selected in self._reports else None
        labelled = any(r.data.n for r in reports) or any(r.data.no_score for r in reports)
        text = html.escape(counter)
        self.counter.setText(text + ("" if labelled or not counter else f"<br>{NO_LABELS_YET}")
                             if counter else NO_LABELS_YET)
        self.table.blockSignals(True)
        self.table.setRowCount(len(reports))
        for row, r in enumerate(reports):
            cells = row_cells(r)
            cells["metric"] = r.spec.label
            for col, (key, _) in enumerate(COLUMNS):
                item = QTableWidgetItem(cells[key])
                item.setData(Qt.ItemDataRole.UserRole, r.spec.id)
                if key == "kappa" and r.current is not None:
                    item.setToolTip(f"{r.current.tp + r.current.tn:,} of {r.current.n:,} labelled "
                                    f"rows agree with the verdict at "
                                    f"{threshold_text(r.spec.direction, r.threshold)}")
                self.table.setItem(row, col, item)
            if r.spec.id == self._selected:
                self.table.selectRow(row)
        self.table.blockSignals(False)
        # As tall as its rows when there is room; at 1280×720 it scrolls (two rows at least)
        # and the ROC detail below keeps its share.
        head = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth()
        row_height = self.table.verticalHeader().defaultSectionSize()
        self.table.setMaximumHeight(head + row_height * max(len(reports), 1) + 2)
        self.table.setMinimumHeight(head + row_height * min(len(reports), 2) + 2)
        self._update_button()

    def report(self, metric_id: str) -> MetricReport | None:
        return self._reports.get(metric_id)

    def cell(self, metric_id: str, key: str) -> str:
        """The text shown for one metric and column (tests read the screen through this)."""
        keys = [k for k, _ in COLUMNS]
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(Qt.ItemDataRole.UserRole) == metric_id:
                return self.table.item(row, keys.index(key)).text()
        raise KeyError(metric_id)

    def _on_selection(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self._selected = self.table.item(rows[0].row(), 0).data(Qt.ItemDataRole.UserRole)
            self.sig_selected.emit(self._selected)
        self._update_button()

    def _update_button(self) -> None:
        r = self._reports.get(self._selected) if self._selected else None
        if r is None or r.best is None:
            self.apply_button.setEnabled(False)
            self.apply_button.setText("Apply this threshold")
            self.apply_button.setToolTip("Choose a metric with labelled rows above")
            return
        target = threshold_text(r.spec.direction, r.best.threshold)
        if not r.best.useful:  # the rule of `calibrate -o`: such a threshold is not set
            self.apply_button.setEnabled(False)
            self.apply_button.setText("No useful threshold")
            self.apply_button.setToolTip(
                f"The best F1 for {r.spec.label}, at {target}, is no better than passing every "
                "row: it is no useful gate, so there is nothing to apply.")
            return
        in_use = r.threshold == r.best.threshold
        self.apply_button.setText(f"Apply {target}" + (" (in use)" if in_use else ""))
        self.apply_button.setEnabled(not in_use)
        self.apply_button.setToolTip(f"Set the {r.spec.label} threshold to {target}, the best "
                                     f"F1 against your labels, as one step (Ctrl+Z undoes it).")

    def _apply(self) -> None:
        r = self._reports.get(self._selected) if self._selected else None
        if r is not None and r.best is not None and r.best.useful:
            self.sig_apply.emit(r.spec.id, r.best.threshold)
