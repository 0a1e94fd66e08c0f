"""The batch table: a QAbstractTableModel over the result arrays, one row per dataset row.

Nothing is stored per row or per cell: `data()` reads the value lists and score arrays of the
selected variant through one index array (`order`, None = file order) that filtering, search
and sorting produce (view_order.py). Small tables get their order at once; big ones from a
worker, while the view keeps showing the previous order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, Signal

from matchlens.core.metrics.registry import STATUS_SCORED, MetricSpec
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.view_order import (
    ROW_NONE,
    ViewData,
    ViewSpec,
    compute_order,
)
from matchlens.ui.batch.colours import verdict_colours
from matchlens.ui.batch.table_cells import (  # noqa: F401 - Column: where labelling finds it
    Column,
    delta_cell,
    score_cell,
    table_columns,
    text_cell,
    verdict_cell,
    verdict_code,
)
from matchlens.ui.batch.text_ranks import RankSource, TextRanks
from matchlens.ui.batch.worker import Task

SYNC_ROWS = 50_000  # below this, order is computed in the GUI thread (a few ms)
RANK_ROWS = SYNC_ROWS + 1  # from this many rows on, text columns are ranked for text sorts


def _order_job(data: ViewData, spec: ViewSpec, cancel: Callable[[], bool]) -> np.ndarray | None:
    """Worker body; a superseded request stops early (Task drops its result anyway)."""
    return compute_order(data, spec, cancel)


class BatchTableModel(QAbstractTableModel):
    sig_order_changed = Signal()  # a new order is in place (rows may have moved)
    sig_busy = Signal(bool)  # a big sort/filter/search is running
    sig_error = Signal(str)  # a sentence (a sort or search that failed)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._prepared: Prepared | None = None
        self._result: BatchResult | None = None
        self._specs: dict[str, MetricSpec] = {}
        self._thresholds: dict[str, float | None] = {}
        self._variant = ""
        self._done = 0
        self._columns: list[Column] = []
        self._order: np.ndarray | None = None
        self._spec = ViewSpec()
        self._row_masks: dict[str, Any] = {}  # set_row_mask: the Fields view's row filter
        self._baseline: str | None = None  # set_baseline: the variant the deltas are taken from
        self._order_spec: ViewSpec | None = None  # the spec the current order was made for
        self.text_ranks = TextRanks(self)  # "expected", "id", "actual:<variant>"
        self.text_ranks.sig_waiting.connect(self.sig_busy)
        self.text_ranks.sig_awaited.connect(self._recompute)  # a text sort waits for its column's ranks
        self._task: Task | None = None
        self.colours = verdict_colours()
        # Columns other modules add (labelling.py: the human's label): cell(row, role) each.
        self._extra: dict[str, tuple[Column, Callable[[int, int], object]]] = {}

    # -- content ---------------------------------------------------------------------------------
    def set_session(self, prepared: Prepared, result: BatchResult, specs: dict[str, MetricSpec],
                    thresholds: dict[str, float | None]) -> None:
        self._cancel_task()
        self.beginResetModel()
        self._prepared, self._result = prepared, result
        self._row_masks = {}
        self._specs, self._thresholds = dict(specs), dict(thresholds)
        self._variant = result.variants[0]
        if self._baseline not in result.variants:
            self._baseline = None
        self._done = 0
        self._order = self._order_spec = None
        self.text_ranks.clear()
        self._columns = self._make_columns()
        # A new session shows every row (the Show box and the search start again, and say so);
        # the sort stays when its column is still there.
        keep_sort = self._spec.sort in {c.key for c in self._columns}
        self._spec = ViewSpec(sort=self._spec.sort if keep_sort else None,
                              descending=self._spec.descending if keep_sort else False)
        self.colours = verdict_colours()
        self.endResetModel()
        self.sig_order_changed.emit()

    def clear(self) -> None:
        self._cancel_task()
        self.beginResetModel()
        self._prepared = self._result = None
        self._columns, self._order, self._done = [], None, 0
        self._order_spec = None
        self.text_ranks.clear()
        self.endResetModel()

    def _make_columns(self) -> list[Column]:
        has_ids = self._prepared is not None and self._prepared.ids is not None
        return table_columns(has_ids, [column for column, _ in self._extra.values()],
                             self._specs, self._baseline)

    def add_column(self, column: Column, cell: Callable[[int, int], object]) -> None:
        """A column after the texts whose cells `cell(source_row, role)` gives (not sortable:
        view_order sorts the columns it knows)."""
        self._extra[column.key] = (column, cell)

    def refresh_column(self, key: str) -> None:
        """Repaint one column (the view asks only its visible cells again)."""
        keys = [c.key for c in self._columns]
        if key in keys and self.rowCount():
            col = keys.index(key)
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    def set_baseline(self, variant: str | None) -> None:
        """The variant the delta columns (one per metric, sortable) subtract; None: none."""
        if variant == self._baseline or (variant is not None and self._result is not None
                                         and variant not in self._result.variants):
            return
        self.beginResetModel()
        self._baseline = variant
        self._columns = self._make_columns()
        self.endResetModel()

    def baseline(self) -> str | None:
        return self._baseline

    def deltas(self) -> dict[str, np.ndarray]:
        """"delta:<metric_id>" -> the selected variant's score minus the baseline's, per row
        (NaN where either has none: the core's `<id>_delta`)."""
        if self._baseline is None or self._result is None:
            return {}
        scores = self._result.scores
        return {f"delta:{m}": scores[(self._variant, m)] - scores[(self._baseline, m)]
                for m in self._specs}

    def set_variant(self, variant: str) -> None:
        if self._result is None or variant == self._variant:
            return
        self._variant = variant
        self._refresh_cells()
        self._recompute()

    def variant(self) -> str:
        return self._variant

    def set_thresholds(self, thresholds: dict[str, float | None]) -> None:
        self._thresholds = dict(thresholds)
        self._refresh_cells()
        if self._spec.filter != "all" or self._spec.sort == "verdict":
            self._recompute()

    def preview_threshold(self, metric_id: str, value: float | None) -> None:
        """While a threshold line is dragged: repaint the verdicts (only the visible cells are
        asked again), but leave the filter and sort order for the drop (set_thresholds)."""
        if metric_id in self._thresholds and self._thresholds[metric_id] == value:
            return
        self._thresholds = {**self._thresholds, metric_id: value}  # a running sort keeps its own
        self._refresh_cells()

    def rows_scored(self, done: int) -> None:
        """Rows [0, done) now have scores: the view repaints the newly scored ones it shows."""
        before, self._done = self._done, done
        if self._order is not None or not self._columns:
            self._refresh_cells()  # sorted or filtered: new rows can be anywhere on screen
        elif before < done <= self.rowCount():
            self.dataChanged.emit(self.index(before, 0),
                                  self.index(done - 1, len(self._columns) - 1))

    def scoring_finished(self) -> None:
        self._recompute()

    def ordering(self) -> bool:
        """A sort/filter job is running."""
        return self._task is not None

    def rank_text_columns(self, ranked: RankSource | None = None) -> None:
        """Rank every text column off the GUI thread once, so text sorts are instant after.

        `ranked` yields ranks computed elsewhere (the scoring process, which has every text);
        without it they are computed here, in a worker thread. That is background work the
        tab starts when nothing else of the run wants the GIL.
        """
        p = self._prepared
        if p is not None and p.rows >= RANK_ROWS:
            self.text_ranks.start(p, ranked)

    def _rank_key(self, column: str | None) -> str | None:
        """The ranks a text sort by `column` uses ("actual" is the selected variant's)."""
        if column == "actual":
            return f"actual:{self._variant}"
        return column if column in ("expected", "id") else None

    def _waits_for_ranks(self, data: ViewData) -> bool:
        """A text sort asked for while that column's ranks are on their way waits for them."""
        column = self._spec.sort
        if column in data.ranks or data.rows <= SYNC_ROWS:
            return False
        return self.text_ranks.wait_for(self._rank_key(column))

    def _refresh_cells(self) -> None:
        if self.rowCount() and self._columns:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(self.rowCount() - 1, len(self._columns) - 1))

    # -- order -----------------------------------------------------------------------------------
    def view_spec(self) -> ViewSpec:
        return self._spec

    def set_view(self, spec: ViewSpec) -> None:
        if spec == self._spec and (self._task is not None or self._order_spec == spec):
            return  # QTableView.sortByColumn asks twice; a million-row sort is not free
        self._spec = spec
        self._recompute()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._columns) or self._columns[column].key in self._extra:
            return
        descending = order == Qt.SortOrder.DescendingOrder
        self.set_view(replace(self._spec, sort=self._columns[column].key, descending=descending))

    def view_data(self) -> ViewData | None:
        if self._prepared is None or self._result is None:
            return None
        keys = {m: (self._variant, m) for m in self._specs}
        return ViewData(
            done=self._done, ids=self._prepared.ids, expected=self._prepared.expected,
            actual=self._prepared.actuals[self._variant],
            scores={m: self._result.scores[k] for m, k in keys.items()},
            status={m: self._result.status[k] for m, k in keys.items()},
            specs=self._specs, thresholds=self._thresholds,
            ranks={column: self.text_ranks.ranks[kept] for column in ("expected", "id", "actual")
                   if (kept := self._rank_key(column)) in self.text_ranks.ranks},
            row_masks=dict(self._row_masks), values=self.deltas())

    def set_row_mask(self, key: str, mask: Any) -> None:
        """The rows a "rows:…" filter keeps (one such filter at a time); re-filters if it is
        the filter shown."""
        self._row_masks = {key: mask}
        if self._spec.filter == key:
            self._recompute()

    def _recompute(self) -> None:
        self._order_spec = None
        data = self.view_data()
        if data is None:
            return
        self._cancel_task()
        if self._waits_for_ranks(data):
            return  # sig_awaited sorts (without ranks a million texts hold the GIL ~0.5 s)
        self.text_ranks.stop_waiting()
        if data.rows <= SYNC_ROWS:
            self._apply_order(compute_order(data, self._spec))
            return
        self._task = Task(_order_job, data, self._spec, owner=self)
        self._task.sig_returned.connect(self._apply_order)
        self._task.sig_errored.connect(
            lambda err: self.sig_error.emit(f"Could not sort or filter the table: {err}"))
        self._task.sig_done.connect(self._task_done)
        self._task.start()
        self.sig_busy.emit(True)

    def _task_done(self) -> None:
        if self._task is not None and not self._task.running:
            self._task = None
            self.sig_busy.emit(False)

    def _cancel_task(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
            self.sig_busy.emit(False)

    def _apply_order(self, order: np.ndarray | None) -> None:
        self.beginResetModel()
        self._order = order
        self._order_spec = self._spec
        self.endResetModel()
        self.sig_order_changed.emit()

    def is_busy(self) -> bool:
        return self._task is not None or self.text_ranks.running

    def shutdown(self) -> None:
        task = self._task
        self._cancel_task()
        ranks = self.text_ranks.cancel()
        for running in (task, ranks):
            if running is not None:
                running.wait()

    def order(self) -> np.ndarray:
        """Source rows in view order."""
        if self._order is not None:
            return self._order
        return np.arange(len(self._prepared.expected) if self._prepared else 0)

    def source_row(self, view_row: int) -> int:
        return int(self._order[view_row]) if self._order is not None else view_row

    def view_row(self, source_row: int) -> int | None:
        if self._order is None:
            return source_row if 0 <= source_row < self.rowCount() else None
        hits = np.flatnonzero(self._order == source_row)
        return int(hits[0]) if hits.size else None

    def column_key(self, column: int) -> str:
        return self._columns[column].key

    # -- Qt model ----------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        if parent.isValid() or self._prepared is None:
            return 0
        return len(self._order) if self._order is not None else len(self._prepared.expected)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._columns[section].tip
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or self._prepared is None:
            return None
        row = self.source_row(index.row())
        key = self._columns[index.column()].key
        if key.startswith("score:"):
            return self._score_data(row, key[6:], role)
        if key.startswith("delta:"):
            return self._delta_data(row, key[6:], role)
        if key == "verdict":
            return self._verdict_data(row, role)
        if key in self._extra:
            return self._extra[key][1](row, role)
        return text_cell(row, key, self._text(row, key) if key != "#" else None, role,
                         self.colours.dim)

    def _text(self, row: int, key: str) -> str | None:
        p = self._prepared
        if key == "expected":
            return p.expected[row]
        if key == "actual":
            return p.actuals[self._variant][row]
        if key == "id":
            return p.ids[row] if p.ids is not None else None
        return ""

    def _score_data(self, row: int, metric_id: str, role: int) -> object:
        if row >= self._done:
            return None
        key = (self._variant, metric_id)
        status = int(self._result.status[key][row])
        message = self._result.messages[key].get(row) \
            if role == Qt.ItemDataRole.ToolTipRole and status != STATUS_SCORED else None
        return score_cell(self._specs[metric_id], float(self._result.scores[key][row]), status,
                          self._thresholds.get(metric_id), message, role, self.colours)

    def _delta_data(self, row: int, metric_id: str, role: int) -> object:
        if row >= self._done or self._baseline is None:
            return None
        scores = self._result.scores
        return delta_cell(self._specs[metric_id], float(scores[(self._baseline, metric_id)][row]),
                          float(scores[(self._variant, metric_id)][row]), role)

    def row_code(self, row: int) -> int:
        """ROW_PASS / ROW_FAIL / ROW_PROBLEM / ROW_NONE for one source row (no arrays)."""
        if row >= self._done:
            return ROW_NONE
        scores = self._result.scores
        return verdict_code(row, self._specs, self._thresholds,
                            lambda metric_id: scores[(self._variant, metric_id)])

    def _verdict_data(self, row: int, role: int) -> object:
        return verdict_cell(self.row_code(row), role, self.colours)
