"""The batch tab's *Runs* menu: "References from another file…", "Compare with a baseline
run…" and "Add a run…". Each asks for a file and its id and value columns (join_dialog.py),
then reads the dataset on screen again with that file joined (run_joins.py) and scores it, in
the tab's own read worker: the progress row and Cancel apply, and a bad join is one sentence
under the bars with the dataset on screen kept.

A new references file or baseline replaces the one joined before; every added run stays.

It also ties the Runs view (variants_view.py, runs_view.py) to the table: the delta columns of
a run with a baseline, a clicked count as the table's filter (named in the Show box), a clicked
scatter point as the table's current row, and the counts following the thresholds.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMenu, QToolButton, QWidget

from matchlens.core.datasets import Table, guess_columns
from matchlens.core.datasets.readers import OPEN_FILTER
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.row_change import RowChange, row_change
from matchlens.core.scoring.view_order import FILTER_ALL
from matchlens.ui.batch.join_dialog import TITLES, JoinDialog
from matchlens.ui.batch.loading import ReadRequest
from matchlens.ui.batch.run_joins import join_summary


class RunsActions(QObject):
    """The Runs menu of the batch tab `tab` (a button in its top bar)."""

    def __init__(self, tab: QWidget) -> None:
        super().__init__(tab)
        self.tab = tab
        self.shown: ReadRequest | None = None  # the request of the table on screen
        self.dialog: JoinDialog | None = None
        tab.reader.sig_read.connect(self._read)
        self.button = QToolButton(tab.top)
        self.button.setText("Runs")
        self.button.setToolTip("Join other files by id: the references, a baseline run to "
                               "compare with, or another run as one more variant")
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.button)
        self.actions = {}
        for role in ("reference", "baseline", "run"):
            action = menu.addAction(f"{TITLES[role]}…")
            action.triggered.connect(lambda _c=False, r=role: self.ask(r))
            self.actions[role] = action
        self.button.setMenu(menu)
        self.button.setEnabled(False)
        tab.top.layout().insertWidget(2, self.button)
        runs = tab.variants.runs
        tab.variants.thresholds = tab.thresholds
        runs.sig_show_rows.connect(self.show_rows)
        runs.sig_select_row.connect(self.select_row)
        runs.sig_recounted.connect(self._refilter)
        tab.run.sig_started.connect(self._started)  # after the tab's own session start
        tab.config_model.sig_changed.connect(lambda _metric: tab.variants.recount())

    def _started(self, _prepared: Prepared, result: BatchResult) -> None:
        joined = self.tab.joined
        base = joined.baseline if joined is not None else None
        base = base if base in result.variants else None
        self.tab.model.set_baseline(base)
        if joined is not None:  # rather than each joined row's missing values, one sentence
            self.tab.say(join_summary(joined))
        if base is not None:  # a run compared with a baseline opens on what changed
            self.tab.tabs.setCurrentWidget(self.tab.variants)

    def baseline_for_row(self, row: int) -> str | None:
        """The baseline's output of `row` for the compare view's third pane ("" where the
        baseline has none); None when the table shows no run compared with a baseline (or
        shows the baseline itself)."""
        tab = self.tab
        base = tab.model.baseline()
        if base is None or tab.prepared is None or tab.model.variant() == base \
                or not 0 <= row < tab.prepared.rows:
            return None
        return tab.prepared.actuals[base][row] or ""

    def change_for_row(self, row: int) -> RowChange | None:
        """What changed in `row` since the baseline, for the Runs view's metric (the first
        scored metric until one is chosen there) under the thresholds now; None where
        `baseline_for_row` is None or the row is not scored yet."""
        tab = self.tab
        result, joined, base = tab.result, tab.joined, tab.model.baseline()
        if self.baseline_for_row(row) is None or result is None or joined is None \
                or not result.jobs or row >= result.done:
            return None
        metric_id = tab.variants.metric.currentData()
        if metric_id not in {job.id for job in result.jobs}:
            metric_id = result.jobs[0].id
        variant = tab.model.variant()
        return row_change(result, base, variant, row, metric_id, tab.thresholds(),
                          bool(joined.presence(base)[row]), bool(joined.presence(variant)[row]))

    def show_rows(self, key: str, name: str, mask: np.ndarray) -> None:
        """A clicked count: the table shows those rows of the Runs view's variant."""
        tab = self.tab
        variant = tab.variants.runs.variant
        if variant and variant != tab.table_bar.variant.currentText():
            tab.table_bar.variant.setCurrentText(variant)
        tab.model.set_row_mask(key, mask)
        tab.table_bar.show_rows(key, name)

    def _refilter(self) -> None:
        """New counts (a threshold moved): a count's filter in the Show box shows its rows
        under the thresholds now."""
        key = str(self.tab.table_bar.filter.currentData() or "")
        mask = self.tab.variants.runs.mask_for(key)
        if mask is not None:
            self.tab.model.set_row_mask(key, mask)

    def select_row(self, row: int) -> None:
        """A clicked scatter point: its row becomes the table's current row (the Show box
        goes back to every row when it hid it)."""
        tab = self.tab
        variant = tab.variants.runs.variant
        if variant and variant != tab.table_bar.variant.currentText():
            tab.table_bar.variant.setCurrentText(variant)
        if tab.model.view_row(row) is None:
            tab.table_bar.set_filter(FILTER_ALL)
        view_row = tab.model.view_row(row)
        if view_row is None:  # a big table filters in a worker: say where the row is
            tab.said(f"Row {row + 1} is hidden by the search; clear it to see the row.")
            return
        index = tab.model.index(view_row, 0)
        tab.view.setCurrentIndex(index)
        tab.view.scrollTo(index)

    def _read(self, _table: Table, request: ReadRequest, _score: bool) -> None:
        self.shown = request
        self.button.setEnabled(True)

    def ask(self, role: str) -> None:
        """Ask for the file, then for its columns."""
        name, _ = QFileDialog.getOpenFileName(self.tab, TITLES[role], "", OPEN_FILTER)
        if name:
            self.open_dialog(role, Path(name))

    def open_dialog(self, role: str, path: Path) -> JoinDialog | None:
        """The column dialog for `path` (window-modal, not blocking); OK joins and scores."""
        tab = self.tab
        if tab.table is None or self.shown is None:
            tab.say("Open a dataset first (Open…, drop a file here, or File ▸ Open dataset).")
            return None
        joined = tab.joined
        mapping = tab.mapping
        dataset_id = joined.id_column if joined is not None else \
            ((mapping.id if mapping is not None else None) or
             guess_columns(tab.table.columns)["id"])
        own = [a for a in (mapping.actuals if mapping is not None else ())
               if joined is None or a not in (joined.baseline, *joined.runs)]
        dialog = JoinDialog(role, path, None if joined is not None else list(tab.table.columns),
                            dataset_id, encoding=self.shown.encoding or None, parent=tab,
                            value_hint=own[0] if own else None)
        dialog.accepted.connect(lambda: self._join(dialog))
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _join(self, dialog: JoinDialog) -> None:
        tab, request = self.tab, self.shown
        if request is None:
            return
        join = dialog.join()
        joins = request.joins if join.role == "run" else \
            tuple(j for j in request.joins if j.role != join.role)
        id_spec = request.id_spec if tab.joined is not None else dialog.chosen_dataset_id()
        mapping = tab.mapping_panel.mapping()
        new = replace(request, expected=mapping.expected or None,
                      actuals=list(mapping.actuals) or None, label=mapping.label, score=True,
                      joins=(*joins, join), id_spec=id_spec)
        tab.load(new.path, new.expected, new.actuals, new.label, score=True,
                 encoding=new.encoding, records=new.records, sheet=new.sheet,
                 format=new.format, delimiter=new.delimiter, joins=new.joins,
                 id_spec=new.id_spec)
