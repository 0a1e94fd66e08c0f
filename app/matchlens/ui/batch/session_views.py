"""The batch tab's views given a scoring session: each told of the run as it starts (the rows,
none scored yet: table, bars, histograms, calibration, labels, Variants/Runs, Fields), then of
its final statistics; and the big lists a session leaves to empty when the next one comes.

The tab holds the session (table, prepared values, result); these functions only hand it to
the views the tab laid out (tab_layout.py).
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from matchlens.core.datasets import Table
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.run_table import JoinedRows
from matchlens.core.scoring.stats import Final
from matchlens.ui.batch.fields_view import wants_fields


def start_views(tab: QWidget, prepared: Prepared, result: BatchResult) -> None:
    """A run starts: every view of `tab` shows its rows and metrics, none scored yet."""
    specs = {job.id: job.spec for job in result.jobs}
    thresholds = tab.thresholds()
    tab.model.set_session(prepared, result, specs, thresholds)
    tab.table_bar.set_session(result.variants, specs)
    tab.histograms.reset(result, thresholds)
    # Calibration always has labels to show: a person can label rows without a column.
    tab.calibration.reset(specs, result.variants[0], True, thresholds)
    tab.labelling.start(prepared, result.variants)
    tab.variants.reset(result, specs, tab.joined)
    if wants_fields(prepared, specs):
        tab.fields.reset(prepared.expected, prepared.actuals,
                         tab.config_model.settings("json_distance").options)
    tab.view.fit_columns()
    if prepared.notes:
        tab.say(" ".join(prepared.notes[:3]))


def finish_views(tab: QWidget, final: Final) -> None:
    """Every row is scored: the views that sort, sweep or test take the final statistics."""
    tab.histograms.finish(final)
    tab.model.scoring_finished()
    tab.calibration.set_final(final)
    tab.labelling.live.set_final(final)  # the sweeps again, with the labels of now
    tab.variants.set_complete()


def big_lists(prepared: Prepared | None, table: Table | None) -> list[list]:
    """The lists of a session nothing will read again once it is cleared (the resolved
    values, the table's rows and lines), to be emptied a slice at a time on a worker."""
    old: list[list] = []
    if prepared is not None:
        old += [prepared.expected, *prepared.actuals.values()]
        if prepared.ids is not None:
            old.append(prepared.ids)
    if table is not None:
        rows = table.rows  # a joined table's rows are the opened file's and pyarrow arrays
        old += [rows.base.rows if isinstance(rows, JoinedRows) else rows, table.lines]
    return old
