"""The one live copy of thresholds and options, shared by the compare panels and the batch tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from matchlens.core.config import Config, MetricSettings, load_config, save_config
from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import all_metrics


def default_config_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("matchlens", appauthor=False)) / "config.toml"


class ConfigModel(QObject):
    """Wraps the immutable core Config; emits sig_changed(metric_id) ('' = everything)."""

    sig_changed = Signal(str)
    sig_error = Signal(str)

    def __init__(self, config: Config | None = None, autosave_path: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._config = config or Config()
        self._autosave_path = autosave_path
        # Dragging a threshold fires many changes; the file is written once it settles.
        self._save_timer = QTimer(self, singleShot=True, interval=500)
        self._save_timer.timeout.connect(self._autosave)

    @classmethod
    def from_disk(cls, path: Path | None = None, parent: QObject | None = None) -> ConfigModel:
        """Thresholds the user left last time; defaults (and a sentence) if the file is bad."""
        path = path or default_config_path()
        config, error = Config(), None
        if path.exists():
            try:
                config = load_config(path, trusted=True)  # only Settings writes it
            except MatchLensError as err:
                error = f"Your saved thresholds could not be read, defaults are in use: {err}"
        model = cls(config, autosave_path=path, parent=parent)
        model.load_error = error
        return model

    load_error: str | None = None

    def config(self) -> Config:
        return self._config

    def settings(self, metric_id: str) -> MetricSettings:
        return self._config.settings(metric_id)

    def set_threshold(self, metric_id: str, value: float | None) -> None:
        if self.settings(metric_id).threshold == value:
            return
        self._update(self._config.with_threshold(metric_id, value), metric_id)

    def set_option(self, metric_id: str, name: str, value: Any) -> None:
        if self.settings(metric_id).options.get(name) == value:
            return
        self._update(self._config.with_option(metric_id, name, value), metric_id)

    def replace(self, config: Config) -> None:
        self._update(config, "")

    def save_as(self, path: Path) -> None:
        save_config(self._config, path, [spec.id for spec in all_metrics()])

    def save_thresholds(self, path: Path) -> tuple[bool, str]:
        """File ▸ Save thresholds and the batch tab's export: (saved?, the sentence to show)."""
        try:
            self.save_as(path)
        except (OSError, MatchLensError) as err:
            return False, f"Could not save the thresholds to {path}: {err}"
        return True, (f"Saved the thresholds to {path}; `matchlens score --config {path.name}` "
                      "reads it.")

    def _update(self, config: Config, metric_id: str) -> None:
        self._config = config
        self.sig_changed.emit(metric_id)
        if self._autosave_path is not None:
            self._save_timer.start()

    def flush(self) -> None:
        """Write a pending autosave now (on quit)."""
        if self._save_timer.isActive():
            self._save_timer.stop()
            self._autosave()

    def _autosave(self) -> None:
        try:
            self._autosave_path.parent.mkdir(parents=True, exist_ok=True)
            self.save_as(self._autosave_path)
        except (OSError, MatchLensError) as err:
            self.sig_error.emit(f"Could not save thresholds to {self._autosave_path}: {err}")


def ask_thresholds_path(parent: QWidget) -> Path | None:
    name, _ = QFileDialog.getSaveFileName(parent, "Save thresholds", "matchlens.toml",
                                          "TOML (*.toml)")
    return Path(name) if name else None
