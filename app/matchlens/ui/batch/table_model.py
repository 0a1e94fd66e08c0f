"""The batch table: a QAbstractTableModel over the result arrays, one row per dataset row.

Nothing is stored per row or per cell: `data()` reads the value lists and score arrays of the
selected variant through one index array (`order`, None = file order) that filtering, search
and sorting produce (view_order.py). Small tables get their order at once; big ones from a
worker, while the view keeps showing the previous order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, Signal

from matchlens.core.metrics.registry import STATUS_NAMES, STATUS_SCORED, MetricSpec
from matchlens.core.results import passes, threshold_text
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.view_order import (
    ROW_FAIL,
    ROW_NONE,
    ROW_PASS,
    ROW_PROBLEM,
    Superseded,
    ViewData,
    ViewSpec,
    compute_order,
    text_ranks,
)
from matchlens.core.text.elide import elide
from matchlens.ui.batch.colours import verdict_colours
from matchlens.ui.batch.worker import Task

# A worker body yielding (column key, ranks): the scoring child's ranks of this session.
RankSource = Callable[[Callable[[], bool]], Iterator[tuple[str, np.ndarray]]]

ELIDE = 80
TOOLTIP_CHARS = 2000
SYNC_ROWS = 50_000  # below this, order is computed in the GUI thread (a few ms)
RANK_ROWS = SYNC_ROWS + 1  # from this many rows on, text columns are ranked for text sorts


@dataclass(frozen=True)
class Column:
    key: str  # "#", "id", "expected", "actual", "score:<metric_id>", "verdict"
    title: str
    tip: str


def _ranks_job(columns: dict[str, Sequence[str | None]], cancel: Callable[[], bool]
               ) -> Iterator[tuple[str, np.ndarray]]:
    for key, column in columns.items():
        if cancel():
            return
        try:
            yield key, text_ranks(column, cancel)
        except Superseded:
            return


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
        self._ranks: dict[str, np.ndarray] = {}  # "expected", "id", "actual:<variant>"
        self._rank_task: Task | None = None
        self._waiting = False  # a text sort waits for its column's ranks
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
        self._cancel_ranks()
        self._ranks = {}
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
        self._cancel_ranks()
        self._ranks = {}
        self.endResetModel()

    def _make_columns(self) -> list[Column]:
        cols = [Column("#", "#", "Row number in the file (1 = first data row)")]
        if self._prepared is not None and self._prepared.ids is not None:
            cols.append(Column("id", "id", "The id column"))
        cols += [Column("expected", "expected", "Expected text (full text on hover)"),
                 Column("actual", "actual", "Actual text of the selected variant")]
        cols += [column for column, _ in self._extra.values()]  # the human's verdict, in view
        for metric_id, spec in self._specs.items():
            cols.append(Column(f"score:{metric_id}", spec.label,
                               f"{spec.label}: {spec.definition}"))
            if self._baseline is not None:
                cols.append(Column(f"delta:{metric_id}", f"Δ {spec.label}",
                                   f"{spec.label}: this run's score minus the baseline's "
                                   "(empty where either has none); sort it to find the "
                                   "rows that moved most"))
        cols.append(Column("verdict", "verdict", "pass: every thresholded metric passes; "
                           "fail: one fails; error: one has no score"))
        return cols

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
        if p is None or p.rows < RANK_ROWS or self._rank_task is not None:
            return
        if ranked is not None:
            self._rank_task = Task(ranked, owner=self)
        else:
            columns = {"expected": p.expected, **{f"actual:{v}": values
                                                    for v, values in p.actuals.items()}}
            if p.ids is not None:
                columns["id"] = p.ids
            todo = {k: c for k, c in columns.items() if k not in self._ranks}
            if not todo:
                return
            self._rank_task = Task(_ranks_job, todo, owner=self)
        self._rank_task.sig_yielded.connect(self._store_ranks)
        self._rank_task.sig_done.connect(self._ranks_done)
        self._rank_task.start()

    def _store_ranks(self, item: tuple[str, np.ndarray]) -> None:
        key, ranks = item
        if self._prepared is not None and len(ranks) == self._prepared.rows:
            self._ranks[key] = ranks
            if self._waiting and self._rank_key(self._spec.sort) == key:
                self._stop_waiting()
                self._recompute()

    def _ranks_done(self) -> None:
        if self._rank_task is not None and not self._rank_task.running:
            self._rank_task = None
            if self._waiting:  # the column's ranks never came: sort the texts themselves
                self._stop_waiting()
                self._recompute()

    def _rank_key(self, column: str | None) -> str | None:
        """The ranks a text sort by `column` uses ("actual" is the selected variant's)."""
        if column == "actual":
            return f"actual:{self._variant}"
        return column if column in ("expected", "id") else None

    def _waits_for_ranks(self, data: ViewData) -> bool:
        """A text sort asked for while that column's ranks are on their way waits for them."""
        column = self._spec.sort
        if self._rank_task is None or self._rank_key(column) is None \
                or column in data.ranks or data.rows <= SYNC_ROWS:
            return False
        if not self._waiting:
            self._waiting = True
            self.sig_busy.emit(True)
        return True

    def _stop_waiting(self) -> None:
        if self._waiting:
            self._waiting = False
            self.sig_busy.emit(False)

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
            ranks={column: self._ranks[kept] for column in ("expected", "id", "actual")
                   if (kept := self._rank_key(column)) in self._ranks},
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
            return  # _store_ranks sorts (without ranks a million texts hold the GIL ~0.5 s)
        self._stop_waiting()
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
        return self._task is not None or self._rank_task is not None

    def shutdown(self) -> None:
        task, ranks = self._task, self._rank_task
        self._cancel_task()
        self._cancel_ranks()
        for running in (task, ranks):
            if running is not None:
                running.wait()

    def _cancel_ranks(self) -> None:
        self._stop_waiting()
        if self._rank_task is not None:
            self._rank_task.cancel()
            self._rank_task = None

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
        if role == Qt.ItemDataRole.TextAlignmentRole and key == "#":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if role == Qt.ItemDataRole.ForegroundRole and self._text(row, key) is None:
                return self.colours.dim
            return None
        if key == "#":
            return str(row + 1)
        text = self._text(row, key)
        if text is None:
            return "(none)" if role == Qt.ItemDataRole.DisplayRole else "No value in this row"
        if role == Qt.ItemDataRole.DisplayRole:
            # one display line: line breaks and tabs as symbols, cut at ELIDE characters
            return elide(text, ELIDE, at="end", whitespace="symbols")
        return text if len(text) <= TOOLTIP_CHARS else text[:TOOLTIP_CHARS] + " …"

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
        spec = self._specs[metric_id]
        score = float(self._result.scores[(self._variant, metric_id)][row])
        status = int(self._result.status[(self._variant, metric_id)][row])
        threshold = self._thresholds.get(metric_id)
        if role == Qt.ItemDataRole.DisplayRole:
            if status != STATUS_SCORED:
                return STATUS_NAMES[status]
            return f"{score:.0f}" if spec.integer else f"{score:.3f}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole:
            if status != STATUS_SCORED:
                return self.colours.problem
            if threshold is None:
                return None
            return self.colours.passed if passes(spec.direction, score, threshold) \
                else self.colours.failed
        if role == Qt.ItemDataRole.ToolTipRole:
            if status != STATUS_SCORED:
                message = self._result.messages[(self._variant, metric_id)].get(row)
                return message or f"{STATUS_NAMES[status]}: no score for this row"
            if threshold is None:
                return f"{spec.label} {score:g} (no threshold)"
            verdict = "passes" if passes(spec.direction, score, threshold) else "fails"
            return f"{spec.label} {score:g} {verdict} {threshold_text(spec.direction, threshold)}"
        return None

    def _delta_data(self, row: int, metric_id: str, role: int) -> object:
        if row >= self._done or self._baseline is None:
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        spec = self._specs[metric_id]
        before = float(self._result.scores[(self._baseline, metric_id)][row])
        after = float(self._result.scores[(self._variant, metric_id)][row])
        if math.isnan(before) or math.isnan(after):
            if role == Qt.ItemDataRole.ToolTipRole:
                return "No delta: the baseline or this run has no score for this row"
            return ""
        delta = after - before
        text = f"{delta:+.0f}" if spec.integer else f"{delta:+.3f}"
        text = text.replace("-", "−")
        if role == Qt.ItemDataRole.DisplayRole:
            return text
        return f"{spec.label}: {after:g} now, {before:g} in the baseline ({text})"

    def row_code(self, row: int) -> int:
        """ROW_PASS / ROW_FAIL / ROW_PROBLEM / ROW_NONE for one source row (no arrays)."""
        if row >= self._done:
            return ROW_NONE
        gated = problem = False
        for metric_id, spec in self._specs.items():
            threshold = self._thresholds.get(metric_id)
            if threshold is None:
                continue
            gated = True
            score = float(self._result.scores[(self._variant, metric_id)][row])
            if math.isnan(score):
                problem = True
            elif not passes(spec.direction, score, threshold):
                return ROW_FAIL
        return ROW_NONE if not gated else (ROW_PROBLEM if problem else ROW_PASS)

    def _verdict_data(self, row: int, role: int) -> object:
        code = self.row_code(row)
        if role == Qt.ItemDataRole.DisplayRole:
            return {ROW_PASS: "pass", ROW_FAIL: "fail", ROW_PROBLEM: "no score", ROW_NONE: ""}[code]
        if role == Qt.ItemDataRole.BackgroundRole:
            return {ROW_PASS: self.colours.passed, ROW_FAIL: self.colours.failed,
                    ROW_PROBLEM: self.colours.problem}.get(code)
        if role == Qt.ItemDataRole.ToolTipRole and code == ROW_PROBLEM:
            return "A thresholded metric has no score for this row, so the row does not pass"
        return None
