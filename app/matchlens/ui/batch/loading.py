"""The batch tab's reading of a dataset: the Open dialog, a dropped file, a reload in another
encoding, and the first guess at the column mapping once the file is read (off the GUI thread).

A mixin of BatchTab: it works on the tab's own state (`_read_task`, `_pending`, the top bar).
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog

from matchlens.core.datasets import Table
from matchlens.core.datasets.readers import OPEN_FILTER, is_dataset_name
from matchlens.core.metrics.registry import DEFAULT_METRICS, all_metrics
from matchlens.core.scoring.mapping import guess_mapping
from matchlens.ui.batch.worker import Task, read_dataset


def for_the_window(sentence: str) -> str:
    """The reader's advice names the CLI's --encoding; here the choice is the Encoding box."""
    sentence = re.sub(r"--encoding (\S+) was given", r"Encoding \1 was chosen", sentence)
    return sentence.replace("pass --encoding ", "choose Encoding ▸ ").replace(
        "given with --encoding", "chosen under Encoding")



class DatasetLoading:
    """Open, drop, read and reload a dataset on the batch tab."""

    def load(self, path: Path, expected: str | None = None, actuals: list[str] | None = None,
             label: str | None = None, score: bool = True, encoding: str | None = None) -> None:
        """Read `path` off the GUI thread (in `encoding`, else UTF-8 or what its BOM says), map
        its columns (given names win over guesses), and score it unless `score` is False. Ends
        with sig_finished whatever happens."""
        path = Path(path)
        self._path = path
        self._loading_encoding = encoding or ""
        self.top.set_encoding(encoding)
        self._stop_work()
        # The dataset on screen stays, whole, until the new file is read: a file that fails
        # to open never leaves the table of one file under the plots of another.
        self._score_after_read = score
        self._score_on_load = score  # kept for a reload in another encoding
        self._pending = (expected, actuals, label)
        self.top.set_file(path, "reading…")
        self.progress.start(f"Reading {path.name}…", busy=True)
        self._say("")
        task = Task(read_dataset, path, encoding=encoding or None, owner=self)
        task.sig_returned.connect(self._on_table)
        task.sig_errored.connect(self._on_error)
        task.sig_done.connect(self._on_task_done)
        self._read_task = task.start()
        self.mapping_panel.set_busy(True)
    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open a dataset", "", OPEN_FILTER)
        if name:
            self.load(Path(name))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if _dropped_dataset(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        name = _dropped_dataset(event)
        if name is not None:
            event.acceptProposedAction()
            self.load(Path(name))

    def _reload_as(self, encoding: str) -> None:
        """The user chose another encoding: read the same file again with it (once: an
        editable combo box reports one Return through several signals)."""
        shown = self.table is not None and self.table.path == self._path
        current = self.table.encoding if shown else None  # not that of a file still shown
        if self._read_task is not None and encoding == self._loading_encoding:
            return
        if self._read_task is None and current is not None and encoding == current:
            return
        if self._path is not None:
            expected, actuals, label = self._pending
            self.load(self._path, expected, actuals, label, score=self._score_on_load,
                      encoding=encoding)

    def _on_table(self, table: Table) -> None:
        self._clear_session()
        self.table = table
        expected, actuals, label = self._pending
        self.mapping = guess_mapping(table, self._default_metrics(), expected, actuals, label)
        self.mapping_panel.set_columns(table.columns, self.mapping)
        self._show_table_file(table)
        self.sig_status.emit(f"Loaded {table.path.name}: {len(table):,} rows.")
        if self._score_after_read:
            self._score_after_read = False
            self.score()
        else:
            self._show_idle()
            self.sig_finished.emit()

    def _show_table_file(self, table: Table) -> None:
        self.top.set_file(table.path, f"{len(table):,} rows · {table.kind.upper()} · "
                          f"{table.encoding}")

    def _default_metrics(self) -> tuple[str, ...]:
        """The CLI's default: the five text metrics, plus local metrics the config gates."""
        config = self.config_model.config()
        chosen = list(DEFAULT_METRICS)
        for spec in all_metrics():
            if not spec.network and config.thresholds.get(spec.id) is not None \
                    and spec.id not in chosen:
                chosen.append(spec.id)
        return tuple(chosen)


def _dropped_dataset(event) -> str | None:
    """The local file being dragged when it is in a format the tab reads (the Open dialog's
    formats: CSV, TSV, JSON Lines, JSON, Parquet, spreadsheets, or no extension)."""
    urls = event.mimeData().urls()
    if urls and urls[0].isLocalFile() and is_dataset_name(urls[0].toLocalFile()):
        return urls[0].toLocalFile()
    return None
