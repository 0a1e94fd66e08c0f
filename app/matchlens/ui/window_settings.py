"""What of the main window survives a restart, in QSettings (never thresholds: those live in
the TOML config; never the API key: the keyring): the settings file itself, the View menu's
options (wrap, monospace, whitespace, scroll lock, mapping panel, granularity), the window's
geometry and the compare and batch tabs' splitters.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from matchlens.ui.window_fit import restore_or_fit

VIEW_DEFAULTS = {"wrap": True, "monospace": True, "whitespace": False, "lock": True,
                 "mapping": True, "granularity": "char"}


def make_settings() -> QSettings:
    """Window state and recent files: an INI file in MATCHLENS_SETTINGS_DIR (tests) or the
    per-user default location."""
    folder = os.environ.get("MATCHLENS_SETTINGS_DIR")
    if folder:
        return QSettings(str(Path(folder) / "MatchLens.ini"), QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MatchLens",
                     "MatchLens")


def view_value(settings: QSettings, key: str) -> Any:
    """A View option as saved (its default when never saved)."""
    # Not QSettings.value(type=bool): in PySide6 6.12 that over-releases Py_True/Py_False
    # and Python 3.11 aborts at exit ("bool_dealloc"). INI files give strings anyway.
    default = VIEW_DEFAULTS[key]
    value = settings.value(f"view/{key}")
    if value is None:
        return default
    if isinstance(default, bool):
        return value if isinstance(value, bool) else str(value).lower() == "true"
    return str(value)


def restore_view_options(window: Any) -> None:
    """The View menu of `window` (a MainWindow) as last saved."""
    settings = window.settings
    for action, key in ((window.action_wrap, "wrap"), (window.action_mono, "monospace"),
                        (window.action_whitespace, "whitespace"),
                        (window.action_mapping, "mapping")):
        value = bool(view_value(settings, key))
        action.setChecked(value)
        action.toggled.emit(value)  # apply even when it equals the unchecked default
    window.compare_tab.set_scroll_locked(bool(view_value(settings, "lock")))
    granularity = str(view_value(settings, "granularity"))
    if granularity not in window.granularity_actions:
        granularity = "char"
    window.granularity_actions[granularity].setChecked(True)
    window.compare_tab.set_granularity(granularity)


def restore_geometry(window: Any) -> None:
    """The window's size, place, toolbars and the compare tab's splitters as last saved."""
    settings = window.settings
    restore_or_fit(window, settings.value("window/geometry"))
    state = settings.value("window/state")
    if state is not None:
        window.restoreState(state)
    window.compare_tab.restore_state({
        "splitter": settings.value("compare/splitter"),
        "editor_splitter": settings.value("compare/editor_splitter")})


def save_window(window: Any) -> None:
    """Everything above, written and synced."""
    settings = window.settings
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    for key, value in window.compare_tab.save_state().items():
        settings.setValue(f"compare/{key}", value)
    batch = window.made_batch_tab()
    if batch is not None:
        for key, value in batch.layout_state().items():
            settings.setValue(f"batch/{key}", value)
    settings.setValue("view/mapping", window.action_mapping.isChecked())
    settings.setValue("view/wrap", window.action_wrap.isChecked())
    settings.setValue("view/monospace", window.action_mono.isChecked())
    settings.setValue("view/whitespace", window.action_whitespace.isChecked())
    settings.setValue("view/lock", window.compare_tab.action_lock.isChecked())
    settings.setValue("view/granularity", window.compare_tab.granularity)
    settings.sync()
