"""The small dialog of "References from another file…", "Compare with a baseline run…" and "Add
a run…": which column holds the other file's ids and which its values (a column, or a JSONPath
typed as in the mapping panel), and, before the dataset's first join, which holds the dataset's
own ids. The other file's columns are read off the GUI thread; a file that cannot be read is
one sentence in the dialog, and OK stays off."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.datasets import Cancelled, Table, guess_columns
from matchlens.core.errors import MatchLensError
from matchlens.core.output.baseline_file import sidecar_record
from matchlens.ui.batch.run_joins import Join
from matchlens.ui.batch.worker import Task, read_dataset, settle_read

TITLES = {"reference": "References from another file", "baseline": "Compare with a baseline run",
          "run": "Add a run"}
VALUE_WORDS = {"reference": "References", "baseline": "Baseline outputs", "run": "Outputs"}
HELP = {"reference": "The expected values of every row come from this file, matched by id.",
        "baseline": "This earlier run's outputs are scored again with this run's metrics and "
                    "thresholds; the Runs view shows what changed, row by row.",
        "run": "This file's outputs become one more variant, matched by id."}


def _combo(parent: QWidget, tip: str) -> QComboBox:
    box = QComboBox(parent)
    box.setEditable(True)  # a JSONPath can be typed, as in the mapping panel
    box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    box.setToolTip(tip)
    box.setMinimumContentsLength(18)
    return box


class JoinDialog(QDialog):
    """Ask for the id and value columns of `path`, to join it as `role`. `dataset_columns` and
    `dataset_id` are the dataset's (None: it is joined already, its id column is known)."""

    def __init__(self, role: str, path: Path, dataset_columns: list[str] | None,
                 dataset_id: str | None, encoding: str | None = None,
                 parent: QWidget | None = None, value_hint: str | None = None) -> None:
        super().__init__(parent)
        self.role, self.path, self.encoding = role, Path(path), encoding
        self._hint = value_hint  # the dataset's own output SPEC: another run is alike
        self.setWindowTitle(TITLES[role])
        layout = QVBoxLayout(self)
        intro = QLabel(f"<b>{self.path.name}</b><br>{HELP[role]}", self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.dataset_id: QComboBox | None = None
        if dataset_columns is not None:
            self.dataset_id = _combo(self, "The column (or $.json.path) naming each row of the "
                                           "dataset on screen")
            self.dataset_id.addItems(dataset_columns)
            self.dataset_id.setCurrentText(dataset_id or "")
            form.addRow("Id in the dataset", self.dataset_id)
        self.id = _combo(self, f"The column (or $.json.path) naming each row of {self.path.name}")
        form.addRow(f"Id in {self.path.name}", self.id)
        self.value = _combo(self, f"The column (or $.json.path) of {self.path.name} holding the "
                                  f"{VALUE_WORDS[role].lower()}")
        form.addRow(VALUE_WORDS[role], self.value)
        layout.addLayout(form)
        self.message = QLabel("Reading the file's columns…", self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._ok(False)
        self._dataset_id = dataset_id
        self.task: Task | None = Task(read_dataset, self.path, encoding=encoding, owner=self)
        self.task.sig_returned.connect(self._show_columns)
        self.task.sig_errored.connect(self._unreadable)
        self.task.sig_done.connect(self._read_done)
        self.task.start()

    def is_reading(self) -> bool:
        return self.task is not None

    def _read_done(self) -> None:
        self.task = None

    def _ok(self, on: bool) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(on)

    def _show_columns(self, table: Table) -> None:
        settle_read()
        guess = guess_columns(table.columns)
        for box in (self.id, self.value):
            box.addItems(table.columns)
        wanted = self._dataset_id if self._dataset_id in table.column_index else guess["id"]
        self.id.setCurrentText(wanted or (table.columns[0] if table.columns else ""))
        self.value.setCurrentText(self._value_guess(table, guess) or next(
            (c for c in table.columns if c != self.id.currentText()), ""))
        self.message.setText(f"{len(table):,} rows · {len(table.columns)} columns.")
        self._ok(True)

    def _value_guess(self, table: Table, guess: dict) -> str:
        if self.role == "reference":
            return guess["expected"] or ""
        if self.role == "baseline":
            try:  # a table `score -o` wrote: its sidecar names its output column
                record = sidecar_record(self.path)
            except MatchLensError:
                record = None
            actual = (record or {}).get("actual")
            if isinstance(actual, list) and len(actual) == 1 and isinstance(actual[0], str):
                return actual[0]
        hint = self._hint
        if hint and (hint in table.column_index or hint.startswith("$")):
            return hint
        outputs = table.variants or guess["actual"]
        return outputs[0] if outputs else ""

    def _unreadable(self, error: object) -> None:
        if isinstance(error, Cancelled):
            return
        sentence = str(error) if isinstance(error, MatchLensError) else \
            f"{self.path.name} cannot be read: {type(error).__name__}: {error}"
        self.message.setText(sentence)
        self.message.setStyleSheet("font-weight: 600;")
        self._ok(False)

    def _accept(self) -> None:
        missing = [name for name, box in (("the id", self.id), ("the values", self.value),
                                          ("the dataset's id", self.dataset_id))
                   if box is not None and not box.currentText().strip()]
        if missing:
            self.message.setText(f"Choose {' and '.join(missing)}.")
            return
        self.accept()

    def join(self) -> Join:
        """What was chosen, as the read request's join."""
        return Join(self.role, self.path, self.id.currentText().strip(),
                    self.value.currentText().strip(), self.encoding)

    def chosen_dataset_id(self) -> str | None:
        return self.dataset_id.currentText().strip() if self.dataset_id is not None else None

    def done(self, result: int) -> None:  # noqa: D102 - Qt override: stop the read first
        if self.task is not None:
            self.task.cancel()
        super().done(result)
