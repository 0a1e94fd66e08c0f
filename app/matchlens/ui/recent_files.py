"""File ▸ Open recent: the last files opened (datasets, expected and actual texts), newest
first, kept in the window's QSettings, each a numbered entry of the menu."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QMenu

MAX_RECENT = 8


class RecentFiles(QObject):
    """The recent files in `settings`, listed in `menu`; an entry calls `open_entry(kind,
    path)` (kind "dataset", "expected" or "actual")."""

    def __init__(self, settings: QSettings, menu: QMenu,
                 open_entry: Callable[[str, str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings, self.menu, self.open_entry = settings, menu, open_entry

    def entries(self) -> list[tuple[str, str]]:
        raw = self.settings.value("recent") or []
        if isinstance(raw, str):  # INI returns a one-item list as a plain string
            raw = [raw]
        out = []
        for item in raw:
            kind, _, path = str(item).partition("|")
            if kind and path:
                out.append((kind, path))
        return out

    def add(self, kind: str, path: Path) -> None:
        entry = (kind, str(Path(path).resolve()))
        items = [entry, *[e for e in self.entries() if e != entry]][:MAX_RECENT]
        self.settings.setValue("recent", [f"{k}|{p}" for k, p in items])
        self.rebuild()

    def rebuild(self) -> None:
        self.menu.clear()
        items = self.entries()
        for number, (kind, path) in enumerate(items, start=1):
            # &1 … &8: each entry has its accelerator ("&" in a file name is shown as is).
            name = Path(path).name.replace("&", "&&")
            action = self.menu.addAction(f"&{number} {kind.capitalize()}: {name}")
            action.setToolTip(path)
            action.triggered.connect(lambda _c=False, k=kind, p=path: self.open_entry(k, p))
        self.menu.setEnabled(bool(items))
