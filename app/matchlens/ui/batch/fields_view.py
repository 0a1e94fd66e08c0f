"""The batch tab's Fields view: for JSON outputs, every leaf path with its accuracy and its
differs / missing / extra counts, worst first, as a table and a bar chart, for the variant
chosen; clicking a path filters the batch table to the rows where it is wrong. The counts are `matchlens fields`' own (core.diff.json_fields, json_distance's walk and
options), computed on a worker thread when a run starts; the view only shows them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.diff.json_fields import FieldTally, field_rows
from matchlens.core.scoring.view_order import FILTER_ROWS_PREFIX
from matchlens.ui.batch.colours import variant_colour, with_alpha
from matchlens.ui.batch.plot_style import style_plot
from matchlens.ui.batch.worker import Task, TaskSlot

HEADERS = ("Path", "Accuracy", "Differs", "Missing", "Extra", "In reference")
BARS = 25  # the chart shows the worst paths; the table lists every one
_SLICE = 5_000  # rows counted between two checks for a cancel


def count(expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
          options: Mapping[str, Any], cancel: Callable[[], bool]
          ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, dict[str, np.ndarray]]]:
    """Worker body: the fields rows, the summary, and per variant and path the rows where the
    path is wrong; in slices, so a new run cancels it."""
    tally = FieldTally(list(actuals), options, track_rows=True)
    for start in range(0, len(expected), _SLICE):
        if cancel():
            return [], {}, {}
        stop = start + _SLICE
        tally.add(expected[start:stop], {v: values[start:stop] for v, values in actuals.items()})
    wrong = {v: {path: np.asarray(rows, dtype=np.int64) for path, rows in t.wrong_rows.items()}
             for v, t in tally.variants.items()}
    return field_rows(tally), tally.summary(), wrong


def show_wrong_rows(tab: Any, variant: str, path: str, rows: np.ndarray) -> None:
    """The batch tab's table filtered to the rows where `path` is wrong in `variant`, named in
    its Show box ("Wrong $.phone"); choosing another filter there clears it."""
    model, bar = tab.model, tab.table_bar
    data = model.view_data()
    if data is None:
        return
    if variant != bar.variant.currentText():
        bar.variant.setCurrentText(variant)
    mask = np.zeros(data.rows, dtype=bool)
    mask[rows[rows < data.rows]] = True
    key = FILTER_ROWS_PREFIX + path
    model.set_row_mask(key, mask)
    bar.show_rows(key, f"Wrong {path}")


def wants_fields(prepared: Any, specs: Mapping[str, Any]) -> bool:
    """Count fields when json_distance is scored, or the first references look like JSON
    (one reference a row: several references have no one set of fields)."""
    if getattr(prepared, "references", None) is not None:
        return False
    if "json_distance" in specs:
        return True
    firsts = [v.lstrip()[:1] for v in prepared.expected[:20] if v]
    return bool(firsts) and all(c in "{[" for c in firsts)


class FieldsView(QWidget):
    sig_show_rows = Signal(str, str, object)  # variant, path, the rows where it is wrong

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Variant", self))
        self.variant = QComboBox(self)
        self.variant.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.variant.setMinimumContentsLength(12)
        self.variant.currentIndexChanged.connect(self._show_variant)
        top.addWidget(self.variant)
        top.addStretch(1)
        layout.addLayout(top)
        self.sentence = QLabel("Score a dataset whose outputs are JSON to see which fields are "
                               "wrong, and how often.", self)
        self.sentence.setWordWrap(True)
        layout.addWidget(self.sentence)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.table = QTableWidget(0, len(HEADERS), split)
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setToolTip("Click a path to show the rows where it is wrong")
        self.table.cellClicked.connect(self._on_clicked)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(HEADERS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.plot = pg.PlotWidget(split)
        style_plot(self.plot)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "accuracy")
        item.setXRange(0, 1, padding=0.02)
        colour = variant_colour(0, self.palette())
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.7, width=[], pen=pg.mkPen(colour),
                                    brush=with_alpha(colour, 150))
        item.addItem(self.bars)
        split.addWidget(self.table)
        split.addWidget(self.plot)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split, 1)
        self.rows: list[dict[str, Any]] = []
        self.summary: dict[str, Any] = {}
        self.wrong: dict[str, dict[str, np.ndarray]] = {}
        self._slot = TaskSlot()

    def reset(self, expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
              options: Mapping[str, Any]) -> None:
        """Count the run's pairs on a worker (a new run cancels the count in flight)."""
        self.rows, self.summary, self.wrong = [], {}, {}
        self.variant.blockSignals(True)
        self.variant.clear()
        self.variant.addItems(list(actuals))
        self.variant.blockSignals(False)
        self.table.setRowCount(0)
        self.sentence.setText("Counting the JSON fields…")
        task = Task(count, list(expected), {v: list(values) for v, values in actuals.items()},
                    dict(options), owner=self)
        task.sig_returned.connect(self._on_counted)
        task.sig_errored.connect(lambda err: self.sentence.setText(str(err)))
        self._slot.start(task)

    def is_busy(self) -> bool:
        return self._slot.busy

    def _on_counted(self, value: tuple) -> None:
        self.rows, self.summary, self.wrong = value
        self._show_variant()

    def _on_clicked(self, row: int, _column: int) -> None:
        item = self.table.item(row, 0)
        if item is None:
            return
        variant, path = self.variant.currentText(), item.text()
        rows = self.wrong.get(variant, {}).get(path, np.zeros(0, dtype=np.int64))
        self.sig_show_rows.emit(variant, path, rows)

    def _show_variant(self) -> None:
        variant = self.variant.currentText()
        rows = [r for r in self.rows if r["variant"] == variant]
        facts = next((v for v in self.summary.get("variants", ()) if v["variant"] == variant),
                     None)
        if facts is None:
            return
        total = self.summary["rows"]
        if not facts["compared"]:
            reason = facts["reasons"][0]["reason"] if facts["reasons"] else "no rows"
            self.sentence.setText(f"No row of {total:,} has JSON on both sides ({reason}).")
        else:
            why = "; ".join(f"{r['rows']:,} where {r['reason']}" for r in facts["reasons"][:2])
            left = f", {facts['invalid']:,} left out ({why})" if facts["invalid"] else ""
            self.sentence.setText(f"{len(rows):,} fields over {facts['compared']:,} of "
                                  f"{total:,} rows{left}; worst first.")
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            accuracy = "–" if row["accuracy"] is None else f"{row['accuracy']:.1%}"
            cells = (row["path"], accuracy, row["differs"], row["missing"], row["extra"],
                     row["expected"])
            for column, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                else:
                    item.setToolTip(str(value))
                self.table.setItem(i, column, item)
        self._draw([r for r in rows if r["accuracy"] is not None][:BARS])

    def _draw(self, rows: list[dict[str, Any]]) -> None:
        n = len(rows)
        y = np.arange(n, dtype=float)[::-1]  # the worst on top
        widths = np.array([r["accuracy"] for r in rows], dtype=float)
        self.bars.setOpts(x0=np.zeros(n), y=y, width=widths, height=0.7)
        axis = self.plot.getPlotItem().getAxis("left")
        axis.setTicks([[(float(y[i]), rows[i]["path"][-28:]) for i in range(n)]])
        self.plot.getPlotItem().setYRange(-0.5, max(n, 1) - 0.5, padding=0.02)

    def shutdown(self) -> None:
        task = self._slot.cancel()
        if task is not None:
            task.wait()
