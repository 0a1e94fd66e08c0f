"""The one live copy of thresholds and options, shared by the compare panels and the batch tab.

Every change goes through Qt's QUndoStack (`ConfigModel.undo_stack`): one command per change,
merged while one gesture (a slider or histogram drag) lasts, so Ctrl+Z undoes a drag in one step.

Thresholds belong to a dataset (shared/guides/ui.md): the user's own model (`from_disk`)
follows the open dataset (`use_dataset`): it reads that dataset's thresholds file
(`core.dataset_thresholds`) or, for a dataset without one, starts from the user's defaults,
and saves every change to the dataset's file. `source_text()` says which file is in effect.
A model made from `--config` never follows a dataset: `--config` always wins.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QFileDialog, QWidget

from matchlens.core.config import Config, MetricSettings, load_config, save_config
from matchlens.core.dataset_thresholds import ThresholdsHome, locate
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
    sig_source = Signal()  # another thresholds file is in effect (source_text() says which)

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
        # The user's defaults (what a dataset without thresholds starts from) and where they
        # are saved; set by from_disk, the only model that follows datasets.
        self._defaults: Config | None = None
        self._defaults_path: Path | None = None
        self._defaults_dirty = False
        self.home: ThresholdsHome | None = None  # the open dataset's, when following datasets
        self.dataset: Path | None = None
        self.given_path: Path | None = None  # --config: that file, read only

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
                model._defaults, model._defaults_path = config, autosave
                return model
        model = cls(config, autosave_path=path, parent=parent)
        model.load_error = error
        model._defaults, model._defaults_path = config, path
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

    # -- the dataset the thresholds belong to -------------------------------------------------------
    def follows_datasets(self) -> bool:
        return self._defaults_path is not None

    def use_dataset(self, data: Path) -> str | None:
        """From now on, the thresholds of dataset `data`: its own file if it has one, else the
        user's defaults (saved to its file at the first change). Undo starts afresh (a step
        taken on one dataset never applies to another). Returns a sentence when its file
        cannot be read (the defaults are used, and that file is never written over)."""
        if not self.follows_datasets():
            return None
        data = Path(data).resolve()
        if self.dataset == data:
            return None
        self.flush()  # a pending save goes to the file it belongs to
        if self.dataset is None:
            self._defaults = self._config
        home, error = locate(data), None
        config = self._defaults or Config()
        source = home.source()
        if source is not None:
            try:  # a file that came with the data: its endpoint URLs are marked as from it
                loaded = load_config(source)
            except MatchLensError as err:
                error = (f"The thresholds saved for {data.name} could not be read: {err}. Your "
                         "default thresholds are in use; that file is left untouched.")
                home = None
            else:
                # The endpoint is the user's setting, not the dataset's.
                config = replace(loaded, base_url=config.base_url, model=config.model,
                                 url_files={**config.url_files, **loaded.url_files})
        self.dataset, self.home = data, home
        self._autosave_path = home.path if home is not None else None
        self.undo_stack.clear()
        self._config = config
        self.sig_changed.emit("")
        self.sig_source.emit()
        return error

    def source_text(self) -> tuple[str, str]:
        """(a few words for the status bar, a tooltip) naming the thresholds in effect."""
        if self.given_path is not None:
            return (f"Thresholds: {self.given_path.name} (--config)",
                    f"{self.given_path} (given with --config; changes are not saved to it)")
        if self.dataset is None or self.home is None:
            where = self._defaults_path or "not saved"
            if self.dataset is not None:
                return ("Thresholds: your defaults", f"{where} (this dataset's own thresholds "
                        "file could not be read, so changes are not saved)")
            return "Thresholds: your defaults", f"{where}"
        if self.home.source() is None:
            return ("Thresholds: your defaults (new dataset)",
                    f"Your defaults ({self._defaults_path}); the first change is saved for "
                    f"{self.dataset.name} in {self.home.path}")
        place = "kept for it in your data folder" if self.home.away else "beside the dataset"
        return (f"Thresholds: {self.home.source().name}",
                f"{self.home.source()} ({place}; `matchlens score` and `calibrate` on "
                f"{self.dataset.name} read it too)")

    def save_as_defaults(self) -> tuple[bool, str]:
        """The thresholds in effect become the user's defaults (what new datasets start from)."""
        if self._defaults_path is None:
            return False, "No defaults file: the window was started with --config."
        self._defaults = self._config
        saved, sentence = self.save_thresholds(self._defaults_path)
        return saved, ("These thresholds are now your defaults: a dataset without its own "
                       "starts from them." if saved else sentence)

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
        if self.dataset is not None and self._defaults is not None and \
                (config.base_url, config.model) != (self._defaults.base_url, self._defaults.model):
            # Settings changed the endpoint: the user's, so their defaults keep it too.
            self._defaults = replace(self._defaults, base_url=config.base_url, model=config.model)
            self._defaults_dirty = True
        self.sig_changed.emit(metric_id)
        if self._autosave_path is not None or self._defaults_dirty:
            self._save_timer.start()

    def flush(self) -> None:
        """Write a pending autosave now (on quit)."""
        if self._save_timer.isActive():
            self._save_timer.stop()
            self._autosave()

    def _autosave(self) -> None:
        if self._defaults_dirty and self._defaults_path is not None:
            self._defaults_dirty = False
            self._write(self._defaults, self._defaults_path)
        if self._autosave_path is not None:
            first = self.home is not None and self.home.source() is None
            self._write(self._config, self._autosave_path)
            if first:  # the dataset's own file exists now
                self.sig_source.emit()

    def _write(self, config: Config, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_config(config, path, [spec.id for spec in all_metrics()])
        except (OSError, MatchLensError) as err:
            self.sig_error.emit(f"Could not save thresholds to {path}: {err}")


def ask_thresholds_path(parent: QWidget) -> Path | None:
    name, _ = QFileDialog.getSaveFileName(parent, "Save thresholds", "matchlens.toml",
                                          "TOML (*.toml)")
    return Path(name) if name else None
