"""The batch tab (agreed interface; the full implementation follows)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from matchlens.ui.config_model import ConfigModel


class BatchTab(QWidget):
    sig_open_row = Signal(int)  # row index double-clicked in the table
    sig_status = Signal(str)  # a sentence for the status bar
    sig_finished = Signal()  # scoring and plots done (used by --screenshot)

    def __init__(self, config_model: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._config_model = config_model
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Open a dataset to score it."))

    def load(self, path: Path, expected: str | None = None, actuals: list[str] | None = None,
             label: str | None = None, score: bool = True) -> None:
        self.sig_status.emit(f"Batch scoring is not available yet ({path}).")
        self.sig_finished.emit()

    def pair_for_row(self, row: int) -> tuple[str, str, str] | None:
        return None

    def neighbour_row(self, row: int, step: int, failing_only: bool = False) -> int | None:
        return None

    def is_busy(self) -> bool:
        return False
