"""The batch tab's exports: the scored table (with its sidecar, off the GUI thread), the
thresholds file, and any plot as PNG.

A mixin of BatchTab: it reads the tab's result, table, mapping and plots.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from matchlens.core.errors import MatchLensError
from matchlens.ui.batch.export import save_plot_png, with_thresholds, write_table
from matchlens.ui.batch.worker import Task
from matchlens.ui.config_model import ask_thresholds_path


class ExportActions:
    """Export ▸ table, thresholds and plots from the batch tab."""

    def export_table_dialog(self) -> None:
        if self.result is None or self.table is None:
            self._say("Score a dataset first.")
            return
        name, _ = QFileDialog.getSaveFileName(
            self, "Export the scored table", str(self.table.path.with_suffix("")) + ".scored.csv",
            "CSV (*.csv);;JSON Lines (*.jsonl)")
        if name:
            self.export_table(Path(name))

    def export_table(self, path: Path) -> None:
        """Write the scored table (current thresholds) and its sidecar, off the GUI thread."""
        if self.result is None or self.table is None or self.mapping is None:
            return
        result = with_thresholds(self.result, self._thresholds())
        expected = (f"literal:{self.mapping.expected}" if self.mapping.expected_literal
                    else self.mapping.expected)
        partial = self.result.done < self.result.rows
        task = Task(write_table, path, self.table, result, self.config_model.config(), expected,
                    owner=self)
        task.sig_returned.connect(lambda sidecar: self._said(
            f"Wrote {path} ({'partial: ' if partial else ''}{self.result.rows:,} rows) and "
            f"{Path(sidecar).name} (the thresholds and options that made it)."))
        task.sig_errored.connect(lambda err: self._fail(str(err)))
        task.sig_done.connect(self._on_task_done)
        self._export_task = task.start()

    def export_thresholds_dialog(self) -> None:
        path = ask_thresholds_path(self)
        if path is not None:
            self.export_thresholds(path)

    def export_thresholds(self, path: Path) -> bool:
        saved, sentence = self.config_model.save_thresholds(path)
        (self._said if saved else self._fail)(sentence)
        return saved

    def _plot_names(self) -> list[tuple[str, str]]:
        """(key, menu text) of every plot that can be exported now."""
        out = [(f"hist:{m}", f"{p.spec.label} histogram") for m, p in self.histograms.panels.items()]
        if self.calibration.current() is not None:
            out.append(("roc", "ROC curve"))
        if self.variants.comparison is not None:
            out.append(("delta", "B − A difference"))
        return out

    def plot_item(self, key: str):
        if key.startswith("hist:"):
            return self.histograms.panels[key[5:]].plot.getPlotItem()
        return (self.calibration.plot if key == "roc" else self.variants.plot).getPlotItem()

    def export_plot_dialog(self, key: str) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Save the plot as PNG",
                                              f"{key.replace(':', '-')}.png", "PNG (*.png)")
        if name:
            self.export_plot(key, Path(name))

    def export_plot(self, key: str, path: Path) -> bool:
        try:
            save_plot_png(self.plot_item(key), path)
        except MatchLensError as err:
            self._fail(str(err))
            return False
        self._said(f"Saved the plot to {path}.")
        return True
