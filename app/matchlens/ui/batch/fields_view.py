"""The batch tab's Fields view: for JSON outputs, every leaf path with its accuracy and its
differs / missing / extra counts, worst first, as a table and a bar chart; the variants (and
the baseline run, when there is one) side by side, one column group and one bar colour each,
worst first by the first variant. Clicking a path filters the batch table to the rows where it
is wrong in the variant of the column clicked. The counts are `matchlens fields`' own
(core.diff.json_fields, json_distance's walk and options), computed on a worker thread when a
run starts; the view only shows them.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.diff.json_fields import FieldTally, field_rows, side_by_side
from matchlens.core.scoring.fields_runs import baseline_variant
from matchlens.core.scoring.view_order import FILTER_ROWS_PREFIX
from matchlens.ui.batch.colours import variant_colour, with_alpha
from matchlens.ui.batch.plot_style import style_plot
from matchlens.ui.batch.worker import Task, TaskSlot

GROUP = ("Accuracy", "Differs", "Missing", "Extra")  # the columns of each variant
HEADERS = ("Path", *GROUP, "In reference")  # one variant
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
    shown = [bar.variant.itemText(i) for i in range(bar.variant.count())]
    # the baseline run is no variant of the table: its rows are filtered all the same
    if variant in shown and variant != bar.variant.currentText():
        bar.variant.setCurrentText(variant)
    mask = np.zeros(data.rows, dtype=bool)
    mask[rows[rows < data.rows]] = True
    key = FILTER_ROWS_PREFIX + path
    model.set_row_mask(key, mask)
    bar.show_rows(key, f"Wrong {path}" if variant in shown else f"Wrong {path} ({variant})")


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
        self.sentence = QLabel("Score a dataset whose outputs are JSON to see which fields are "
                               "wrong, and how often.", self)
        self.sentence.setWordWrap(True)
        layout.addWidget(self.sentence)
        split = self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.table = QTableWidget(0, len(HEADERS), split)
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setToolTip("Click a path to show the rows where it is wrong (in the "
                              "variant of the column clicked)")
        self.table.cellClicked.connect(self._on_clicked)
        self.plot = pg.PlotWidget(split)
        style_plot(self.plot)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "accuracy")
        item.setXRange(0, 1, padding=0.02)
        self.bars: list[pg.BarGraphItem] = []  # one per variant, made when a run starts
        split.addWidget(self.table)
        split.addWidget(self.plot)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split, 1)
        self.variants: list[str] = []
        self.rows: list[dict[str, Any]] = []
        self.summary: dict[str, Any] = {}
        self.wrong: dict[str, dict[str, np.ndarray]] = {}
        self.paths: list[tuple[str, dict]] = []  # the table's rows: (path, {variant: row})
        self._share = 0.0  # the table's share of the width still to apply (0: none)
        self._slot = TaskSlot()

    def reset(self, expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
              options: Mapping[str, Any], baseline: Sequence[str | None] | None = None
              ) -> None:
        """Count the run's pairs on a worker (a new run cancels the count in flight);
        `baseline`: the baseline run's output of each row, counted as one more variant."""
        columns = {v: list(values) for v, values in actuals.items()}
        if baseline is not None:
            columns[baseline_variant(list(actuals))] = list(baseline)
        self.rows, self.summary, self.wrong, self.paths = [], {}, {}, []
        self._lay_out(list(columns))
        self.sentence.setText("Counting the JSON fields…")
        task = Task(count, list(expected), columns, dict(options), owner=self)
        task.sig_returned.connect(self._on_counted)
        task.sig_errored.connect(lambda err: self.sentence.setText(str(err)))
        self._slot.start(task)

    def is_busy(self) -> bool:
        return self._slot.busy

    def _lay_out(self, variants: list[str]) -> None:
        """The columns (a group per variant) and the bars (a colour per variant)."""
        self.variants = variants
        self.table.setRowCount(0)
        several = len(variants) > 1
        headers = ["Path"]
        for variant in variants:
            headers.extend(f"{name}\n{variant}" if several else name for name in GROUP)
        headers.append("In reference")
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        for k, variant in enumerate(variants):
            colour = variant_colour(k, self.palette())
            for c in range(len(GROUP)):
                cell = self.table.horizontalHeaderItem(1 + k * len(GROUP) + c)
                cell.setToolTip(variant)
                if several:
                    cell.setForeground(colour)
        header = self.table.horizontalHeader()
        # one variant: the path takes the room left; several: every column as wide as its
        # contents (a long path capped, its tooltip whole), so the groups and the bars fit
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents if several
                                    else QHeaderView.ResizeMode.Stretch)
        header.setMaximumSectionSize(320)
        for column in range(1, len(headers)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self._share = 0.6 if not several else 0.68  # of the width, for the table
        self._apply_share()
        plot = self.plot.getPlotItem()
        for bars in self.bars:
            plot.removeItem(bars)
        self.bars = []
        key = []  # the colour key as the plot's title: a legend would cover the bars
        for k, variant in enumerate(variants):
            colour = variant_colour(k, self.palette())
            bars = pg.BarGraphItem(x0=[], y=[], height=0.7, width=[], pen=pg.mkPen(colour),
                                   brush=with_alpha(colour, 150))
            plot.addItem(bars)
            self.bars.append(bars)
            key.append(f"<span style='color:{colour.name()}'>■ {html.escape(variant)}</span>")
        plot.setTitle("&nbsp;&nbsp;".join(key) if several else None, size="9pt")

    def _apply_share(self) -> None:
        """The table's share of the width, once per layout, when the view has a width (a
        hidden tab has none yet: then at its first show); a drag of the handle stays."""
        width = self.split.width()
        if self._share and self.isVisible() and width > 1:
            left = int(width * self._share)
            self.split.setSizes([left, width - left])
            self._share = 0.0

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._apply_share()

    def variant_of_column(self, column: int) -> str:
        """The variant whose group holds `column` (the path and its count: the first)."""
        group = (column - 1) // len(GROUP)
        return self.variants[group] if 0 <= group < len(self.variants) else self.variants[0]

    def _on_counted(self, value: tuple) -> None:
        self.rows, self.summary, self.wrong = value
        self._show()

    def _on_clicked(self, row: int, column: int) -> None:
        if not 0 <= row < len(self.paths) or not self.variants:
            return
        path = self.paths[row][0]
        variant = self.variant_of_column(column)
        rows = self.wrong.get(variant, {}).get(path, np.zeros(0, dtype=np.int64))
        self.sig_show_rows.emit(variant, path, rows)

    def _show(self) -> None:
        if not self.summary:
            return
        _variants, self.paths = side_by_side(self.rows)
        self.sentence.setText(self._sentence())
        first = self.variants[0]
        self.table.setRowCount(len(self.paths))
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for i, (path, found) in enumerate(self.paths):
            cells = [path]
            for variant in self.variants:
                row = found.get(variant)
                if row is None:
                    cells.extend([""] * len(GROUP))
                    continue
                accuracy = "–" if row["accuracy"] is None else f"{row['accuracy']:.1%}"
                cells.extend([accuracy, row["differs"], row["missing"], row["extra"]])
            mine = found.get(first) or next(iter(found.values()))
            cells.append(mine["expected"])
            for column, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if column:
                    item.setTextAlignment(right)
                else:
                    item.setToolTip(str(value))
                self.table.setItem(i, column, item)
        shown = [(path, found) for path, found in self.paths
                 if any(r["accuracy"] is not None for r in found.values())][:BARS]
        self._draw(shown)

    def _sentence(self) -> str:
        total = self.summary["rows"]
        facts = {v["variant"]: v for v in self.summary.get("variants", ())}
        parts = []
        for variant in self.variants:
            fact = facts[variant]
            if not fact["compared"]:
                reason = fact["reasons"][0]["reason"] if fact["reasons"] else "no rows"
                part = f"no row of {total:,} has JSON on both sides ({reason})"
            else:
                why = "; ".join(f"{r['rows']:,} where {r['reason']}"
                                for r in fact["reasons"][:2])
                left = f", {fact['invalid']:,} left out ({why})" if fact["invalid"] else ""
                part = f"over {fact['compared']:,} of {total:,} rows{left}"
            parts.append(part if len(self.variants) == 1 else f"{variant}: {part}")
        if len(self.variants) == 1:
            fact = facts[self.variants[0]]
            if not fact["compared"]:
                return parts[0][0].upper() + parts[0][1:] + "."
            return f"{len(self.paths):,} fields {parts[0]}; worst first."
        return (f"{len(self.paths):,} fields, worst first by {self.variants[0]}. "
                + "; ".join(parts) + ".")

    def _draw(self, shown: list[tuple[str, dict]]) -> None:
        n, k = len(shown), max(len(self.variants), 1)
        band = 0.8 / k  # each path's row holds one bar per variant, the first on top
        y = np.arange(n, dtype=float)[::-1]  # the worst on top
        for v, (variant, bars) in enumerate(zip(self.variants, self.bars, strict=True)):
            rows = [found.get(variant) for _path, found in shown]
            widths = np.array([r["accuracy"] if r and r["accuracy"] is not None else 0.0
                               for r in rows], dtype=float)
            offset = 0.4 - band * (v + 0.5)
            bars.setOpts(x0=np.zeros(n), y=y + offset, width=widths, height=band * 0.9)
        axis = self.plot.getPlotItem().getAxis("left")
        axis.setTicks([[(float(y[i]), shown[i][0][-28:]) for i in range(n)]])
        self.plot.getPlotItem().setYRange(-0.5, max(n, 1) - 0.5, padding=0.02)

    def shutdown(self) -> None:
        task = self._slot.cancel()
        if task is not None:
            task.wait()
