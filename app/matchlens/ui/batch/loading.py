"""Reading a dataset for the batch tab: one read at a time off the GUI thread, what was asked
(kept for a reload in another encoding), the columns to score by default, a dropped file's
name, and the reader's advice said the window's way.

`DatasetReader` owns the read task and the request; the tab starts it and shows its table
(`sig_read`). It never touches the tab's state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal

from matchlens.core.config import Config
from matchlens.core.datasets import Table
from matchlens.core.datasets.readers import is_dataset_name
from matchlens.core.metrics.registry import DEFAULT_METRICS, all_metrics
from matchlens.core.scoring.run_table import JoinedRun
from matchlens.ui.batch.run_joins import Join, opened_table, read_joined
from matchlens.ui.batch.worker import Task, read_dataset, settle_read


def for_the_window(sentence: str) -> str:
    """The reader's advice names the CLI's --encoding; here the choice is the Encoding box."""
    sentence = re.sub(r"--encoding (\S+) was given", r"Encoding \1 was chosen", sentence)
    sentence = re.sub(r"say which holds the rows with --records \(e\.g\. --records [^)]*\)",
                      "choose the one that holds the rows under Rows from", sentence)
    return sentence.replace("pass --encoding ", "choose Encoding ▸ ").replace(
        "given with --encoding", "chosen under Encoding")


@dataclass(frozen=True)
class ReadRequest:
    """A file to read, how, and the column names given for it (None: guessed)."""

    path: Path
    encoding: str = ""  # "" for auto: UTF-8, or what the BOM says
    expected: str | None = None
    actuals: list[str] | None = None
    label: str | None = None
    score: bool = True  # score it once read (kept for a reload in another encoding)
    # The command line's other reading options (`matchlens batch --records ...`), or what the
    # *Rows from* chooser picked; None: the reader decides.
    records: str | None = None
    sheet: str | None = None
    format: str | None = None  # noqa: A003 - the CLI's name
    delimiter: str | None = None
    # Files joined to it by id (run_joins.py), each in turn; `id_spec` the key of its rows.
    joins: tuple[Join, ...] = ()
    id_spec: str | None = None


class DatasetReader(QObject):
    """Read one dataset at a time; a new read or cancel() drops the one in flight."""

    sig_read = Signal(object, object, bool)  # (Table, its ReadRequest, score it now?)
    sig_errored = Signal(object)  # the exception
    sig_done = Signal()  # the read task ended (read, failed or cancelled)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.task: Task | None = None
        self.request: ReadRequest | None = None  # the file last asked for (also when it failed)
        self._score_after_read = False
        self.joined: JoinedRun | None = None  # the join the last table read came from

    @property
    def path(self) -> Path | None:
        return self.request.path if self.request is not None else None

    def is_reading(self) -> bool:
        return self.task is not None

    def read(self, request: ReadRequest) -> None:
        self.cancel()
        self.request = request
        self._score_after_read = request.score
        options = {"encoding": request.encoding or None, "records": request.records,
                   "sheet": request.sheet, "format": request.format,
                   "delimiter": request.delimiter}
        if request.joins:
            task = Task(read_joined, request.path, request.joins, request.id_spec,
                        request.expected, owner=self, **options)
        else:
            task = Task(read_dataset, request.path, owner=self, **options)
        task.sig_returned.connect(self._on_table)
        task.sig_errored.connect(self.sig_errored)
        task.sig_done.connect(self._on_done)
        self.task = task.start()

    def cancel(self) -> bool:
        """Stop the read in flight; True if there was one."""
        task, self.task = self.task, None
        if task is None:
            return False
        task.cancel()
        return True

    def keep_unscored(self) -> None:
        """Something failed: the file in flight is shown, not scored, once read."""
        self._score_after_read = False

    def reload_request(self, encoding: str, shown: Table | None) -> ReadRequest | None:
        """The request to read the last file again in `encoding`, or None when nothing would
        change (an editable combo box reports one Return through several signals)."""
        request = self.request
        if request is None:
            return None
        on_screen = shown is not None and shown.path == request.path
        current = shown.encoding if on_screen else None  # not that of a file still shown
        if self.task is not None and encoding == request.encoding:
            return None
        if self.task is None and current is not None and encoding == current:
            return None
        return replace(request, encoding=encoding)

    def request_from(self, kind: str, name: str) -> ReadRequest | None:
        """The request to read the last file again from a sheet or an array of objects
        (`kind` "sheet" or "records"; `name` "" for the reader's choice)."""
        if self.request is None:
            return None
        return replace(self.request, **{kind: name or None})

    def _on_table(self, value: Table | JoinedRun) -> None:
        settle_read()
        table, self.joined = opened_table(value)
        score, self._score_after_read = self._score_after_read, False
        self.sig_read.emit(table, self.request, score)

    def _on_done(self) -> None:
        if self.task is not None and not self.task.running:
            self.task = None
        self.sig_done.emit()


def reading_options(request: ReadRequest) -> dict[str, object]:
    """The request's options as the batch tab's `load` takes them (beside the names)."""
    return {"records": request.records, "sheet": request.sheet, "format": request.format,
            "delimiter": request.delimiter, "joins": request.joins, "id_spec": request.id_spec}


def opening_metrics(memory: QSettings | None, config: Config) -> tuple[str, ...]:
    """The metrics a dataset opens with: those last scored (remembered in `memory`, the
    window's QSettings), else the default ones."""
    saved = memory.value("batch/metrics") if memory is not None else None
    known = {spec.id for spec in all_metrics()}
    chosen = tuple(m for m in str(saved or "").split(",") if m in known)
    return chosen or default_metrics(config)


def default_metrics(config: Config) -> tuple[str, ...]:
    """The CLI's default: the five text metrics, plus local metrics the config gates."""
    chosen = list(DEFAULT_METRICS)
    for spec in all_metrics():
        if not spec.network and config.thresholds.get(spec.id) is not None \
                and spec.id not in chosen:
            chosen.append(spec.id)
    return tuple(chosen)


def dropped_dataset(event) -> str | None:  # noqa: ANN001 - QDragEnterEvent or QDropEvent
    """The local file being dragged when it is in a format the tab reads (the Open dialog's
    formats: CSV, TSV, JSON Lines, JSON, Parquet, spreadsheets, or no extension)."""
    urls = event.mimeData().urls()
    if urls and urls[0].isLocalFile() and is_dataset_name(urls[0].toLocalFile()):
        return urls[0].toLocalFile()
    return None
