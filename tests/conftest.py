"""Test-wide isolation: offscreen Qt, a private home for settings/caches, an in-memory keyring."""

from __future__ import annotations

import os
import sys

# Without a screen Qt aborts the whole process unless told to draw offscreen.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# PySide6 6.12.0 drops references to None/True on Python 3.11; pin them before any Qt test runs.
from matchlens.ui import pyside_fixes  # noqa: E402

pyside_fixes.apply()

import keyring  # noqa: E402
import pytest  # noqa: E402
from keyring.backend import KeyringBackend  # noqa: E402
from keyring.errors import PasswordDeleteError  # noqa: E402


class MemoryKeyring(KeyringBackend):
    """A real keyring backend that keeps secrets in a dict (defined only in tests)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.store:
            raise PasswordDeleteError("no such password")
        del self.store[(service, username)]


@pytest.fixture(autouse=True)
def memory_keyring() -> MemoryKeyring:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def collect_between_tests():
    """Once a window test has put the collector on the GUI thread (ui/gui_collector.py), it
    runs when the event loop does; a test without one gets a tick at its end instead."""
    yield
    collector_module = sys.modules.get("matchlens.ui.gui_collector")
    collector = collector_module.installed() if collector_module is not None else None
    if collector is not None:
        collector.tick()


@pytest.fixture(autouse=True)
def forget_secrets():
    """The masking function remembers keys a run resolved; each test starts with none."""
    from matchlens.core.text.redact import forget_all

    forget_all()
    yield
    forget_all()


@pytest.fixture(autouse=True)
def private_dirs(tmp_path_factory, monkeypatch):
    """Settings, caches and QSettings go to a fresh folder; no OPENAI_* leaks in from outside."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state")):
        (home / sub).mkdir()
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.setenv("MATCHLENS_SETTINGS_DIR", str(home / "qsettings"))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)
    return home
