"""The one live copy of thresholds and options, shared by the compare panels and the batch tab.

Every change goes through Qt's QUndoStack (`ConfigModel.undo_stack`): one command per change,
merged while one gesture (a slider or histogram drag) lasts, so Ctrl+Z undoes a drag in one step.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QFileDialog, QWidget

from matchlens.core.config import Config, MetricSettings, load_config, save_config
from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import all_metrics, get_metric
from matchlens.core.results import threshold_text

_MERGE_ID = 0x4D4C  # QUndoCommand.id(): every config change may merge with the one before it


def default_config_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("matchlens", appauthor=False)) / "config.toml"


def move_aside(path: Path) -> Path:
    """Rename an unreadable settings file to `NAME.unreadable-YYYY-MM-DD` (then -2, -3…), so the
    next autosave cannot overwrite what the user may still want."""
    stem = f"{path.name}.unreadable-{datetime.date.today().isoformat()}"
    target, n = path.with_name(stem), 1
    while target.exists():
        n += 1
        target = path.with_name(f"{stem}-{n}")
    path.rename(target)
    return target


def threshold_change_text(metric_id: str, value: float | None) -> str:
    """The Edit menu's name for a threshold change ("Undo Levenshtein similarity ≥ 0.80")."""
    spec = get_metric(metric_id)
    if value is None:
        return f"{spec.label}: no threshold"
    return f"{spec.label} threshold {threshold_text(spec.direction, value)}"


def same_settings(a: Config, b: Config) -> bool:
    """Whether two configs judge and score alike ({} and {"jaccard": 0.5} do: 0.5 is the
    default)."""
    if a == b:
        return True
    if (a.base_url, a.model, a.metrics) != (b.base_url, b.model, b.metrics):
        return False
    return all(a.settings(spec.id) == b.settings(spec.id) for spec in all_metrics())


class ConfigCommand(QUndoCommand):
    """Replace the whole Config (immutable, so before/after are cheap snapshots).

    Two commands with the same non-None `merge_key` merge: the first's `before`, the last's
    `after`; a merged gesture that ends where it started is dropped from the stack.
    """

    def __init__(self, model: ConfigModel, before: Config, after: Config, metric_id: str,
                 text: str, merge_key: object | None = None) -> None:
        super().__init__(text)
        self.model, self.before, self.after = model, before, after
        self.metric_id, self.merge_key = metric_id, merge_key

    def id(self) -> int:
        return _MERGE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt override
        if not isinstance(other, ConfigCommand) or other.merge_key is None \
                or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        self.setText(other.text())
        self.setObsolete(same_settings(self.after, self.before))
        return True

    def redo(self) -> None:
        self.model._apply(self.after, self.metric_id)

    def undo(self) -> None:
        self.model._apply(self.before, self.metric_id)


class ConfigModel(QObject):
    """Wraps the immutable core Config; emits sig_changed(metric_id) ('' = everything)."""

    sig_changed = Signal(str)
    sig_error = Signal(str)

    def __init__(self, config: Config | None = None, autosave_path: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._config = config or Config()
        self._autosave_path = autosave_path
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(500)
        # Dragging a threshold fires many changes; the file is written once it settles.
        self._save_timer = QTimer(self, singleShot=True, interval=500)
        self._save_timer.timeout.connect(self._autosave)

    @classmethod
    def from_disk(cls, path: Path | None = None, parent: QObject | None = None) -> ConfigModel:
        """Thresholds the user left last time. Call it after every metric is registered
        (`matchlens.embeddings.metric` too): an id not yet registered reads as unknown.

        A file that cannot be read is moved aside (`config.toml.unreadable-<date>`), never
        overwritten; `load_error` then holds the sentence the window keeps until dismissed.
        """
        path = path or default_config_path()
        config, error = Config(), None
        if path.exists():
            try:
                config = load_config(path, trusted=True)  # only Settings writes it
            except MatchLensError as err:
                try:
                    kept = move_aside(path)
                    where = f"It was kept as {kept.name}"
                    autosave: Path | None = path
                except OSError as move_err:
                    # Not moved: never autosave over it either.
                    where = f"It could not be moved aside ({move_err}), so it is left untouched"
                    autosave = None
                error = (f"Your saved thresholds could not be read: {err}. {where}; the "
                         "defaults are in use.")
                model = cls(config, autosave_path=autosave, parent=parent)
                model.load_error = error
                return model
        model = cls(config, autosave_path=path, parent=parent)
        model.load_error = error
        return model

    load_error: str | None = None

    def config(self) -> Config:
        return self._config

    def settings(self, metric_id: str) -> MetricSettings:
        return self._config.settings(metric_id)

    # -- changes: every one is an undoable command -----------------------------------------------
    def push(self, config: Config, metric_id: str = "", text: str = "Change settings",
             merge_key: object | None = None) -> None:
        """Make `config` current as one undoable step named `text` (Edit ▸ Undo <text>).

        This is the one way to change thresholds or options from anywhere (a panel, the
        histograms, Best threshold, labelling's "Apply this threshold"): build the new Config
        from `config()` (`with_threshold`, `with_option`) and push it. `metric_id` says what
        changed ('' = possibly everything). Pushes with the same non-None `merge_key` merge into
        one step (use one key per gesture, e.g. ("drag", metric_id, n) while a line is dragged).
        A push that changes nothing adds no step.
        """
        if config == self._config:
            return
        self.undo_stack.push(ConfigCommand(self, self._config, config, metric_id, text,
                                           merge_key))

    def set_threshold(self, metric_id: str, value: float | None, *, text: str | None = None,
                      merge_key: object | None = None) -> None:
        """Set one metric's threshold (None = no verdict) as an undoable step; see `push`."""
        if self.settings(metric_id).threshold == value:
            return
        new = self._config.with_threshold(metric_id, value)
        self.push(new, metric_id, text or threshold_change_text(metric_id,
                                                                new.thresholds[metric_id]),
                  merge_key)

    def set_option(self, metric_id: str, name: str, value: Any, *,
                   merge_key: object | None = None) -> None:
        """Set one option (raises MatchLensError on a bad value) as an undoable step."""
        if self.settings(metric_id).options.get(name) == value:
            return
        label = get_metric(metric_id).label
        self.push(self._config.with_option(metric_id, name, value), metric_id,
                  f"{label}: {name.replace('_', ' ')}", merge_key)

    def replace(self, config: Config, text: str = "Change settings") -> None:
        self.push(config, "", text)

    # -- files -----------------------------------------------------------------------------------
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

    def _apply(self, config: Config, metric_id: str) -> None:
        """What a command's redo/undo does; nothing else sets the config."""
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
