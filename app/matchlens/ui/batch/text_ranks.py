"""`TextRanks`: each text column's ranks (its rows' places in text order) for the batch
table's text sorts, computed once off the GUI thread or read from the scoring process, which
has every text already. A million texts sorted without ranks hold the GIL ~0.5 s; with them a
text sort is a numpy argsort of integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np
from PySide6.QtCore import QObject, Signal

from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.view_order import Superseded, text_ranks
from matchlens.ui.batch.worker import Task

# A worker body yielding (column key, ranks): the scoring child's ranks of this session.
RankSource = Callable[[Callable[[], bool]], Iterator[tuple[str, np.ndarray]]]


def ranks_job(columns: dict[str, Sequence[str | None]], cancel: Callable[[], bool]
              ) -> Iterator[tuple[str, np.ndarray]]:
    """Worker body: (column key, ranks) for each column, in the window's process."""
    for key, column in columns.items():
        if cancel():
            return
        try:
            yield key, text_ranks(column, cancel)
        except Superseded:
            return


class TextRanks(QObject):
    """The ranks of one session's text columns: "expected", "id", "actual:<variant>"."""

    sig_waiting = Signal(bool)  # a text sort waits for its column's ranks (True), or not now
    sig_awaited = Signal()  # the column a sort waited for is ranked, or never will be: sort

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ranks: dict[str, np.ndarray] = {}
        self.task: Task | None = None
        self._rows = 0
        self._awaited: str | None = None  # the key of the column a text sort waits for

    @property
    def running(self) -> bool:
        return self.task is not None

    def start(self, prepared: Prepared, ranked: RankSource | None = None) -> None:
        """Rank the columns of `prepared` not ranked yet; `ranked`: ranks computed elsewhere
        (the scoring process), else computed here in a worker thread."""
        if self.task is not None:
            return
        self._rows = prepared.rows
        if ranked is not None:
            self.task = Task(ranked, owner=self)
        else:
            columns = {"expected": prepared.expected,
                       **{f"actual:{v}": values for v, values in prepared.actuals.items()}}
            if prepared.ids is not None:
                columns["id"] = prepared.ids
            todo = {k: c for k, c in columns.items() if k not in self.ranks}
            if not todo:
                return
            self.task = Task(ranks_job, todo, owner=self)
        self.task.sig_yielded.connect(self._store)
        self.task.sig_done.connect(self._done)
        self.task.start()

    def _store(self, item: tuple[str, np.ndarray]) -> None:
        key, ranks = item
        if len(ranks) == self._rows:
            self.ranks[key] = ranks
            if self._awaited == key:
                self.stop_waiting()
                self.sig_awaited.emit()

    def _done(self) -> None:
        if self.task is not None and not self.task.running:
            self.task = None
            if self._awaited is not None:  # its ranks never came: sort the texts themselves
                self.stop_waiting()
                self.sig_awaited.emit()

    def wait_for(self, key: str | None) -> bool:
        """True when a sort by column `key` should wait: its ranks are on their way
        (sig_awaited says when to sort)."""
        if self.task is None or key is None or key in self.ranks:
            return False
        if self._awaited is None:
            self.sig_waiting.emit(True)
        self._awaited = key
        return True

    def stop_waiting(self) -> None:
        if self._awaited is not None:
            self._awaited = None
            self.sig_waiting.emit(False)

    def cancel(self) -> Task | None:
        """Stop the rank task, if any, and return it (to wait for it at shutdown)."""
        self.stop_waiting()
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
        return task

    def clear(self) -> None:
        """A new session: no task, no ranks."""
        self.cancel()
        self.ranks = {}
