"""The batch tab's exports: the scored table (with its sidecar, off the GUI thread), the
HTML report (off the GUI thread), the thresholds file, and any plot as PNG.

`BatchExports` owns the export task; it reads the tab's scored session (table, result,
mapping, thresholds) and plots, and says what it wrote through the tab's `said` / `fail`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from matchlens.core.config import config_to_dict
from matchlens.core.errors import MatchLensError
from matchlens.core.output.reports.model import InputFile
from matchlens.core.output.reports.outputs import (
    ReportPaths,
    sha256_of,
    write_joined_reports,
    write_report_of_result,
)
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_table import JoinedRun, as_runs_result
from matchlens.core.text.redact import scrub
from matchlens.ui.batch.export import save_plot_png, with_thresholds, write_table
from matchlens.ui.batch.worker import Task
from matchlens.ui.config_model import ask_thresholds_path


def report_task(path, table, result, mapping, options, cancel) -> None:  # noqa: ANN001
    """Worker body (Task passes `cancel` last): the report, nothing returned to show."""
    write_report_of_result(path, table, result, mapping, options,
                           input_path=None if table.name else Path(table.path),
                           markdown=is_markdown(path))


def joined_report_task(path: Path, joined: JoinedRun, result: BatchResult,
                       mapping: ColumnMapping, expected: list, outputs: dict, options: dict,
                       cancel: Callable[[], bool]) -> None:
    """Worker body: the report of a run joined with a baseline, as `score --baseline --html`
    (or `--markdown`) writes it: the baseline's section with its regressed rows, and every
    file joined named with its role, rows and SHA-256."""
    runs = as_runs_result(joined, result, mapping, expected, outputs)
    paths = ReportPaths(markdown=path) if is_markdown(path) else ReportPaths(html=path)
    write_joined_reports(paths, runs, joined.table, None, joined.files[joined.baseline],
                         options=options, command="the MatchLens window",
                         inputs=joined_inputs(joined))


def joined_inputs(joined: JoinedRun) -> tuple[InputFile, ...]:
    """The opened file and each file joined to it: name, SHA-256, its own rows, its role."""
    table = joined.table
    out = [InputFile(scrub(table.label), sha256_of(None if table.name != str(table.path)
                                                   else Path(table.path)),
                     int(joined.in_run.sum()), "run")]
    for column, keyed in joined.files.items():
        role = "references" if column == joined.reference else \
            "baseline" if column == joined.baseline else "run"
        out.append(InputFile(scrub(keyed.label), sha256_of(Path(keyed.label)), len(keyed), role))
    return tuple(out)


def is_markdown(path: Path) -> bool:
    return path.suffix.lower() in (".md", ".markdown")


class BatchExports(QObject):
    """Export ▸ table, thresholds and plots from the batch tab `tab`."""

    sig_done = Signal()  # the table's export task ended

    def __init__(self, tab: QWidget) -> None:
        super().__init__(tab)
        self.tab = tab
        self.task: Task | None = None

    def is_busy(self) -> bool:
        return self.task is not None

    def _on_done(self) -> None:
        if self.task is not None and not self.task.running:
            self.task = None
        self.sig_done.emit()

    def export_table_dialog(self) -> None:
        tab = self.tab
        if tab.result is None or tab.table is None:
            tab.say("Score a dataset first.")
            return
        name, _ = QFileDialog.getSaveFileName(
            tab, "Export the scored table", str(tab.table.path.with_suffix("")) + ".scored.csv",
            "CSV (*.csv);;JSON Lines (*.jsonl)")
        if name:
            self.export_table(Path(name))

    def export_table(self, path: Path) -> None:
        """Write the scored table (current thresholds) and its sidecar, off the GUI thread."""
        tab = self.tab
        if tab.result is None or tab.table is None or tab.mapping is None:
            return
        result = with_thresholds(tab.result, tab.thresholds())
        expected = (f"literal:{tab.mapping.expected}" if tab.mapping.expected_literal
                    else tab.mapping.expected)
        partial = tab.result.done < tab.result.rows
        rows = tab.result.rows
        task = Task(write_table, path, tab.table, result, tab.config_model.config(), expected,
                    owner=self)
        task.sig_returned.connect(lambda sidecar: tab.said(
            f"Wrote {path} ({'partial: ' if partial else ''}{rows:,} rows) and "
            f"{Path(sidecar).name} (the thresholds and options that made it)."))
        task.sig_errored.connect(lambda err: tab.fail(str(err)))
        task.sig_done.connect(self._on_done)
        self.task = task.start()

    def export_report_dialog(self) -> None:
        tab = self.tab
        if tab.result is None or tab.table is None:
            tab.say("Score a dataset first.")
            return
        name, _ = QFileDialog.getSaveFileName(
            tab, "Export the report", str(tab.table.path.with_suffix("")) + ".report.html",
            "HTML (*.html);;Markdown (*.md)")
        if name:
            self.export_report(Path(name))

    def export_report(self, path: Path) -> None:
        """The report of what is on screen (current thresholds and variants; with a baseline
        joined, its section), written off the GUI thread: the same file `matchlens score
        --html` writes (`--markdown` for a .md path). A run still scoring is reported as far
        as it got, without the baseline's section."""
        tab = self.tab
        if tab.result is None or tab.table is None or tab.mapping is None:
            return
        result = with_thresholds(tab.result, tab.thresholds())
        config = tab.config_model.config()
        options = config_to_dict(config, [job.id for job in result.jobs])
        joined, prepared = tab.joined, tab.prepared
        if joined is not None and joined.baseline in result.variants and \
                prepared is not None and result.done == result.rows:
            task = Task(joined_report_task, path, joined, result, tab.mapping,
                        prepared.expected, prepared.actuals, options, owner=self)
        else:
            task = Task(report_task, path, tab.table, result, tab.mapping, options, owner=self)
        task.sig_returned.connect(lambda _data: tab.said(f"Wrote the report {path}."))
        task.sig_errored.connect(lambda err: tab.fail(str(err)))
        task.sig_done.connect(self._on_done)
        self.task = task.start()

    def export_thresholds_dialog(self) -> None:
        path = ask_thresholds_path(self.tab)
        if path is not None:
            self.export_thresholds(path)

    def export_thresholds(self, path: Path) -> bool:
        saved, sentence = self.tab.config_model.save_thresholds(path)
        (self.tab.said if saved else self.tab.fail)(sentence)
        return saved

    def plot_names(self) -> list[tuple[str, str]]:
        """(key, menu text) of every plot that can be exported now."""
        tab = self.tab
        out = [(f"hist:{m}", f"{p.spec.label} histogram") for m, p in tab.histograms.panels.items()]
        if tab.calibration.current() is not None:
            out.append(("roc", "ROC curve"))
        if tab.variants.comparison is not None:
            out.append(("delta", "B − A difference"))
        return out

    def plot_item(self, key: str):  # noqa: ANN201 - a pyqtgraph PlotItem
        tab = self.tab
        if key.startswith("hist:"):
            return tab.histograms.panels[key[5:]].plot.getPlotItem()
        return (tab.calibration.plot if key == "roc" else tab.variants.plot).getPlotItem()

    def export_plot_dialog(self, key: str) -> None:
        name, _ = QFileDialog.getSaveFileName(self.tab, "Save the plot as PNG",
                                              f"{key.replace(':', '-')}.png", "PNG (*.png)")
        if name:
            self.export_plot(key, Path(name))

    def export_plot(self, key: str, path: Path) -> bool:
        try:
            save_plot_png(self.plot_item(key), path)
        except MatchLensError as err:
            self.tab.fail(str(err))
            return False
        self.tab.said(f"Saved the plot to {path}.")
        return True
