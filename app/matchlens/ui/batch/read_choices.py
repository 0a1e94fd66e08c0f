"""What a file offers to read rows from, for the batch tab's *Rows from* chooser: the sheets of
a spreadsheet, or the arrays of objects in a JSON object (`--records` and `--sheet` of the
command line, as a list to pick from). `read_choices` runs in a worker (it opens the file
again); `RowsChoices` starts it for each file the tab reads and fills the chooser."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject

from matchlens.core.datasets.readers import choose_format
from matchlens.core.datasets.records import find_record_arrays
from matchlens.core.jsonpath import path_text
from matchlens.ui.batch.bars import TopBar
from matchlens.ui.batch.loading import ReadRequest
from matchlens.ui.batch.worker import Task

MAX_JSON_BYTES = 512 * 1024 * 1024  # a JSON object bigger than this is not parsed again


@dataclass(frozen=True)
class Choices:
    """`kind` "sheet" or "records" (the read option they set); `names` in the file's order."""

    kind: str
    names: tuple[str, ...]


def read_choices(path: Path, cancel: Callable[[], bool] | None = None) -> Choices | None:
    """The sheets or record arrays of `path` when there are several (None: nothing to choose,
    or the file cannot be opened: the reader says why)."""
    try:
        fmt = choose_format(path, path.name, None)
    except Exception:  # noqa: BLE001 - the reader names the problem; here: nothing to offer
        return None
    if fmt is None:
        return None
    if fmt.sheets:
        from python_calamine import CalamineWorkbook

        try:
            names = tuple(CalamineWorkbook.from_path(str(path)).sheet_names)
        except Exception:  # noqa: BLE001 - calamine raises its own and plain errors
            return None
        return Choices("sheet", names) if len(names) > 1 else None
    if fmt.records:
        try:
            if path.stat().st_size > MAX_JSON_BYTES:
                return None
            with path.open("rb") as handle:
                value = json.loads(handle.read().decode("utf-8-sig"))
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(value, dict):
            return None
        found = find_record_arrays(value)
        if len(found) > 1:
            return Choices("records", tuple(path_text(steps) for steps in found))
    return None


class RowsChoices(QObject):
    """Asks a worker what the file being read offers and fills the top bar's chooser; a new
    file drops the answer about the previous one."""

    def __init__(self, top: TopBar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.top = top
        self.task: Task | None = None
        self._request: ReadRequest | None = None

    def look(self, request: ReadRequest | None) -> None:
        same_file = self._request is not None and request is not None \
            and self._request.path == request.path
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self._request = request
        if request is None:
            return
        if same_file and self.top.rows_from.count():  # a choice made here: keep the list
            current = request.sheet if self.top.rows_kind() == "sheet" else request.records
            self.top.rows_from.setCurrentIndex(max(0, self.top.rows_from.findData(current or "")))
            return
        self.top.set_rows_choices("", (), None)
        self.task = Task(read_choices, request.path, owner=self)
        self.task.sig_returned.connect(self._show)
        self.task.start()

    def is_busy(self) -> bool:
        return self.task is not None and self.task.running

    def _show(self, choices: Choices | None) -> None:
        self.task = None
        request = self._request
        if choices is None or request is None:
            return
        current = request.sheet if choices.kind == "sheet" else request.records
        self.top.set_rows_choices(choices.kind, choices.names, current)
